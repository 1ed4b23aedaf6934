import type { SiteFacts } from "../../proto/index.ts";

/** pass: s = 1; warn: a partial or soft failure (0 < s < 1); fail: the check's failing condition; na: not applicable. */
export type CheckStatus = "pass" | "warn" | "fail" | "na";
export type Level = "bad" | "warn" | "info";
export type RankGroup = "indexing" | "technical" | "security" | "performance" | "content" | "links" | "presentation";
export type DisplayGroup =
  | "indexing"
  | "technical"
  | "security"
  | "domain"
  | "performance"
  | "content"
  | "links"
  | "mobile"
  | "international"
  | "structured_data"
  | "social";

/** What one check concluded about one run. */
export interface CheckOutcome {
  status: CheckStatus;
  /** 0..1, null when na. */
  score: number | null;
  value: string | number | null;
  detail: string;
  /** Failing URLs, at most 20. */
  pages: string[];
  /** Rank cap when this failure is severe (seo-anchors §3.4). */
  cap?: number;
  /** Task level when it differs from the check's level (two-tier checks: ttfb bad tier, dmarc p=none…). */
  level?: Level;
}

/** One catalogued check (seo-anchors §2): its identity, its weight in the rank, and how it is measured. */
export interface CheckDef {
  code: string;
  title: string;
  group: DisplayGroup;
  rankGroup: RankGroup;
  level: Level;
  weight: number;
  effort: 1 | 2 | 3;
  /** Whether a single-task re-check can decide it (false for checks that need a crawl). */
  recheck: boolean;
  /** What to do, one or two sentences. */
  hint: string;
  /**
   * Why a whole-site crawl's per-page verdicts may not decide this page check (checks/crawl-pages.ts):
   * present when judging one page alone says something else than judging it among the site's.
   */
  sampleOnly?: string;
  run(facts: SiteFacts): CheckOutcome;
}

export const MAX_PAGES = 20;

export function pass(value: string | number | null, detail: string): CheckOutcome {
  return { status: "pass", score: 1, value, detail, pages: [] };
}

export function notApplicable(detail: string): CheckOutcome {
  return { status: "na", score: null, value: null, detail, pages: [] };
}

export function fail(
  value: string | number | null,
  detail: string,
  extra: { cap?: number | undefined; level?: Level; pages?: string[] } = {},
): CheckOutcome {
  const outcome: CheckOutcome = { status: "fail", score: 0, value, detail, pages: (extra.pages ?? []).slice(0, MAX_PAGES) };
  if (extra.cap !== undefined) outcome.cap = extra.cap;
  if (extra.level !== undefined) outcome.level = extra.level;
  return outcome;
}

/** The warn tier of a two-tier check: score 0.5 (seo-anchors §3.2). */
export function warnTier(value: string | number | null, detail: string, extra: { level?: Level; pages?: string[] } = {}): CheckOutcome {
  const outcome: CheckOutcome = { status: "warn", score: 0.5, value, detail, pages: (extra.pages ?? []).slice(0, MAX_PAGES) };
  if (extra.level !== undefined) outcome.level = extra.level;
  return outcome;
}

/**
 * A failure of a share f (0 < f ≤ 1) of what a site check judged, scored as page checks are
 * (seo-anchors §3.2): s = 0.9·(1 − f), four decimals.
 */
export function shareFail(f: number, value: string | number | null, detail: string, pages: string[] = []): CheckOutcome {
  return { status: "fail", score: Math.round(0.9 * (1 - Math.min(1, f)) * 1e4) / 1e4, value, detail, pages: pages.slice(0, MAX_PAGES) };
}
