// One site's diagnosis at a moment: zones and health, the root causes the rules find, the level,
// dynamics, completeness and the recommended actions. Pure: `now` is given.
import { recommendedActions, type Action } from "./actions.ts";
import { asOf, DAY_S, presentSources, type SiteEvidence } from "./evidence.ts";
import { DIAGNOSIS_RULES } from "./rules/index.ts";
import type { Cause, DiagnosisRule, Severity } from "./rule.ts";
import { indexChange, trafficChange } from "./signals.ts";
import { completeness, healthScore, healthZones, type Completeness, type Zone } from "./zones.ts";

/** A site's level, worst first; unknown: nothing is known yet (never checked nor probed). */
export type DiagnosisLevel = "critical" | "bad" | "warn" | "ok" | "unknown";

/** Order of levels for "most severe first". */
export const LEVEL_ORDER: Readonly<Record<DiagnosisLevel, number>> = Object.freeze({ critical: 0, bad: 1, warn: 2, unknown: 3, ok: 4 });

const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = Object.freeze({ critical: 1, bad: 0.8, warn: 0.6 });

export type Trend = "up" | "down" | "flat";

export interface Dynamics {
  readonly rank: { readonly value: number; readonly delta_7d: number | null; readonly delta_30d: number | null; readonly trend: Trend } | null;
  readonly health: { readonly value: number; readonly delta_7d: number | null; readonly trend: Trend } | null;
  readonly traffic: { readonly clicks_per_day: number; readonly before: number; readonly change_pct: number; readonly trend: Trend } | null;
  readonly indexed: { readonly pages: number; readonly peak_30d: number; readonly change_pct: number; readonly trend: Trend } | null;
}

export interface Diagnosis {
  readonly level: DiagnosisLevel;
  readonly health: number | null;
  readonly root_cause: Cause | null;
  readonly causes: readonly Cause[];
  readonly zones: readonly Zone[];
  readonly dynamics: Dynamics;
  readonly completeness: Completeness & { readonly rules_not_evaluated: readonly { readonly rule: string; readonly missing: readonly string[] }[] };
  readonly actions: readonly Action[];
}

/** The causes the rules find, the most certain of the most severe first. */
export function findCauses(ev: SiteEvidence, now: number, rules: readonly DiagnosisRule[] = DIAGNOSIS_RULES): { causes: Cause[]; skipped: { rule: string; missing: string[] }[] } {
  const present = presentSources(ev);
  const skipped: { rule: string; missing: string[] }[] = [];
  const ask = (kind: DiagnosisRule["kind"], internal: readonly Cause[]) =>
    rules
      .filter((r) => r.kind === kind)
      .flatMap((r) => {
        const missing = r.needs.filter((s) => !present.has(s));
        if (missing.length > 0) {
          skipped.push({ rule: r.code, missing });
          return [];
        }
        const cause = r.evaluate({ ev, now, internal });
        return cause ? [cause] : [];
      });
  const internal = ask("internal", []);
  const causes = [...internal, ...ask("external", internal)];
  causes.sort((a, b) => SEVERITY_WEIGHT[b.severity] * b.confidence - SEVERITY_WEIGHT[a.severity] * a.confidence || a.code.localeCompare(b.code));
  return { causes, skipped };
}

/** The level: the worst of the health band (< 30 critical, < 50 bad, < 70 warn) and the causes' severities. */
export function levelOf(health: number | null, causes: readonly Cause[]): DiagnosisLevel {
  if (health === null && causes.length === 0) return "unknown";
  const fromHealth: DiagnosisLevel = health === null ? "ok" : health < 30 ? "critical" : health < 50 ? "bad" : health < 70 ? "warn" : "ok";
  return causes.reduce<DiagnosisLevel>((worst, c) => (LEVEL_ORDER[c.severity] < LEVEL_ORDER[worst] ? c.severity : worst), fromHealth);
}

const trendOf = (delta: number | null, flat: number): Trend => (delta === null || Math.abs(delta) < flat ? "flat" : delta > 0 ? "up" : "down");

/** Health and level only (the history's daily points, the list of sites). */
export function healthAt(ev: SiteEvidence, now: number): { health: number | null; level: DiagnosisLevel; root_cause: Cause | null } {
  const zones = healthZones(ev, now);
  const health = healthScore(ev, zones);
  const { causes } = findCauses(ev, now);
  return { health, level: levelOf(health, causes), root_cause: causes[0] ?? null };
}

/** The full diagnosis of a site at `now`; `actionLimit` actions at most. */
export function diagnose(ev: SiteEvidence, now: number, actionLimit = 10): Diagnosis {
  const zones = healthZones(ev, now);
  const health = healthScore(ev, zones);
  const { causes, skipped } = findCauses(ev, now);
  return {
    level: levelOf(health, causes),
    health,
    root_cause: causes[0] ?? null,
    causes,
    zones,
    dynamics: dynamics(ev, now, health),
    completeness: { ...completeness(ev), rules_not_evaluated: skipped },
    actions: recommendedActions(ev.tasks, causes, actionLimit),
  };
}

function dynamics(ev: SiteEvidence, now: number, health: number | null): Dynamics {
  const latest = ev.runs.at(-1);
  const rankAt = (t: number) => ev.runs.filter((r) => r.checkedAt <= t).at(-1)?.rank ?? null;
  const delta = (then: number | null) => (latest && then !== null ? latest.rank - then : null);
  const healthBefore = health === null ? null : healthScore(asOf(ev, now - 7 * DAY_S), healthZones(asOf(ev, now - 7 * DAY_S), now - 7 * DAY_S));
  const healthDelta = health !== null && healthBefore !== null ? health - healthBefore : null;
  const traffic = trafficChange(ev.clicks);
  const index = indexChange(ev.indexed);
  const d7 = delta(rankAt(now - 7 * DAY_S));
  return {
    rank: latest ? { value: latest.rank, delta_7d: d7, delta_30d: delta(rankAt(now - 30 * DAY_S)), trend: trendOf(d7, 2) } : null,
    health: health === null ? null : { value: health, delta_7d: healthDelta, trend: trendOf(healthDelta, 3) },
    traffic: traffic ? { clicks_per_day: traffic.recent, before: traffic.before, change_pct: traffic.changePct, trend: trendOf(traffic.changePct, 10) } : null,
    indexed: index ? { pages: index.to, peak_30d: index.from, change_pct: index.changePct, trend: trendOf(index.changePct, 10) } : null,
  };
}
