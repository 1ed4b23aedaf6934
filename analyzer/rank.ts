// The scoring model of seo-anchors §3.1–3.4:
//   G_g   = Σ w_c·s_c / Σ w_c over the group's applicable, non-excluded checks
//   R_raw = Σ W_g·G_g / Σ W_g over groups with an applicable check
//   rank  = clamp(round(min(100·R_raw, min triggered cap)), 1, 100)
// Only confirmed caps reach this model: analyze.ts passes a cap in when the failure was seen on the
// collection and on its second look (analyzer/cap-triggers.ts, SiteFacts.confirmation). The performance group is the diagnostics
// block D when no browser metrics were measured; with them, G_performance = 0.75·M + 0.25·D (§3.3), M the
// weighted mean of the metric checks (METRIC_CHECKS, Lighthouse's weights), D that of the diagnostics.
import type { RankGroup } from "./checks/index.ts";

/** W_g, Σ = 100 (§3.1). */
export const GROUP_WEIGHTS: Readonly<Record<RankGroup, number>> = Object.freeze({
  indexing: 22,
  technical: 10,
  security: 14,
  performance: 16,
  content: 16,
  links: 10,
  presentation: 12,
});

export const RANK_GROUPS = Object.freeze(Object.keys(GROUP_WEIGHTS) as RankGroup[]);

/** One check as the model sees it. */
export interface RankEntry {
  code: string;
  rankGroup: RankGroup;
  weight: number;
  /** 0..1, null when not applicable. */
  score: number | null;
  /** Present when this run's failure caps the rank. */
  cap?: number | undefined;
}

export interface GroupScore {
  id: RankGroup;
  weight: number;
  /** 0–100, null when the group has no applicable check. */
  score: number | null;
  checks: number;
}

export interface RankResult {
  rank: number;
  /** R_raw, 0..1. */
  raw: number;
  /** min of the triggered caps, 100 when none. */
  ceiling: number;
  groups: GroupScore[];
  caps: { code: string; cap: number }[];
}

export interface RankOptions {
  /** Check codes given weight 0 (profile exclusions, §3.7); an excluded check also caps nothing. */
  excluded?: readonly string[];
}

const EPSILON_DIGITS = 9;

/** Round half up, immune to binary noise such as 84.49999999999999 for an exact 84.5. */
export function roundHalfUp(x: number): number {
  return Math.round(Number(x.toFixed(EPSILON_DIGITS)));
}

/** The browser metric checks: block M of the performance group (seo-anchors §3.3). */
export const METRIC_CHECKS: ReadonlySet<string> = new Set(["fcp", "lcp", "cls", "tbt"]);
const METRIC_SHARE = 0.75;

function weightedMean(entries: readonly RankEntry[]): number | null {
  const total = entries.reduce((sum, e) => sum + e.weight, 0);
  return total > 0 ? entries.reduce((sum, e) => sum + e.weight * (e.score ?? 0), 0) / total : null;
}

function groupScores(entries: readonly RankEntry[]): { group: GroupScore; value: number | null }[] {
  return RANK_GROUPS.map((id) => {
    const applicable = entries.filter((e) => e.rankGroup === id && e.score !== null && e.weight > 0);
    let value = weightedMean(applicable);
    if (id === "performance") {
      const metrics = weightedMean(applicable.filter((e) => METRIC_CHECKS.has(e.code)));
      const diagnostics = weightedMean(applicable.filter((e) => !METRIC_CHECKS.has(e.code)));
      if (metrics !== null) value = diagnostics === null ? metrics : METRIC_SHARE * metrics + (1 - METRIC_SHARE) * diagnostics;
    }
    const score = value === null ? null : roundHalfUp(100 * value);
    return { group: { id, weight: GROUP_WEIGHTS[id], score, checks: applicable.length }, value };
  });
}

/** The rank of a set of check results. */
export function computeRank(entries: readonly RankEntry[], options: RankOptions = {}): RankResult {
  const excluded = new Set(options.excluded ?? []);
  const effective = entries.map((e) => (excluded.has(e.code) ? { ...e, weight: 0, cap: undefined } : e));
  const groups = groupScores(effective);
  const counted = groups.filter((g) => g.value !== null);
  const totalWeight = counted.reduce((sum, g) => sum + g.group.weight, 0);
  const raw = totalWeight > 0 ? counted.reduce((sum, g) => sum + g.group.weight * (g.value ?? 0), 0) / totalWeight : 0;
  const caps = effective
    .filter((e): e is RankEntry & { cap: number } => e.cap !== undefined)
    .map((e) => ({ code: e.code, cap: e.cap }))
    .sort((a, b) => a.cap - b.cap || a.code.localeCompare(b.code));
  const ceiling = Math.min(100, ...caps.map((c) => c.cap));
  const rank = Math.min(100, Math.max(1, roundHalfUp(Math.min(100 * raw, ceiling))));
  return { rank, raw, ceiling, groups: groups.map((g) => g.group), caps };
}
