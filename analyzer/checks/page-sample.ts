// Page-scoped checks (scope P in seo-anchors §2) judge each sampled page and aggregate with
// page importance: π_home = 3, other pages 1; f = Σ π(failing) / Σ π(applicable);
// s = 1 if f = 0, else 0.9·(1 − f) (§3.2).
import type { PageFacts, SiteFacts } from "../../proto/index.ts";
import { type CheckOutcome, type Level, MAX_PAGES, notApplicable } from "./check.ts";
import { isSuccess, pageUrl } from "./response.ts";

export interface SampledPage {
  page: PageFacts;
  url: string;
  importance: number;
  isHome: boolean;
}

/** A page's verdict; "warn" is a half failure (the warn tier of two-tier page checks such as viewport). */
export type PageVerdict = "pass" | "warn" | "fail" | "na";
/** A verdict, or a failure with the reason shown for the first failing page. */
export type PageJudgement = PageVerdict | { verdict: "warn" | "fail"; why: string };

const HOME_IMPORTANCE = 3;
const PAGE_IMPORTANCE = 1;

/**
 * Home and sampled pages that answered at all, with their importance; a page reached twice (a
 * link that redirects to a page already in the sample) counts once, as its first occurrence.
 */
export function sampledPages(facts: SiteFacts): SampledPage[] {
  const out: SampledPage[] = [];
  const seen = new Set<string>();
  const add = (page: PageFacts, isHome: boolean) => {
    const url = pageUrl(page);
    if (url && seen.has(url)) return;
    seen.add(url);
    out.push({ page, url, importance: isHome ? HOME_IMPORTANCE : PAGE_IMPORTANCE, isHome });
  };
  if (facts.home?.response) add(facts.home, true);
  for (const page of facts.pages) if (page.response) add(page, false);
  return out;
}

/** HTML pages that answered 2xx: the pages content checks apply to (non-2xx pages are skipped, as SEOnaut does). */
export function htmlPages(facts: SiteFacts): SampledPage[] {
  return sampledPages(facts).filter((p) => p.page.isHtml && isSuccess(p.page.response));
}

export interface AggregateOptions {
  /** What a failing page lacks or has, e.g. "no <title>". */
  problem: string;
  /** Why no page applied, e.g. "no page has images". */
  none: string;
  /** Task level when only warn-tier pages exist (two-tier checks). */
  warnLevel?: Level;
}

/** Judge every page and fold the verdicts into one outcome; value = number of failing pages. */
export function aggregatePages(
  pages: readonly SampledPage[],
  judge: (p: SampledPage) => PageJudgement,
  options: AggregateOptions,
): CheckOutcome {
  const judged = pages.map((p) => ({ p, ...normalise(judge(p)) })).filter((j) => j.verdict !== "na");
  if (judged.length === 0) return notApplicable(options.none);
  const applicable = judged.reduce((sum, j) => sum + j.p.importance, 0);
  const failing = judged.filter((j) => j.verdict !== "pass");
  if (failing.length === 0) return { status: "pass", score: 1, value: 0, detail: `${pagesText(judged.length)} checked, all pass`, pages: [] };
  const failed = failing.reduce((sum, j) => sum + (j.verdict === "fail" ? j.p.importance : j.p.importance / 2), 0);
  const anyFail = failing.some((j) => j.verdict === "fail");
  const f = failed / applicable;
  const outcome: CheckOutcome = {
    status: anyFail ? "fail" : "warn",
    // Four decimals keep stored reports readable (0.36, not 0.36000000000000004); the rank uses this same value.
    score: Math.round(0.9 * (1 - f) * 1e4) / 1e4,
    value: failing.length,
    detail: `${failing.length} of ${pagesText(judged.length)}: ${options.problem}${example(failing)}`,
    pages: failing.map((j) => j.p.url).slice(0, MAX_PAGES),
  };
  if (!anyFail && options.warnLevel) outcome.level = options.warnLevel;
  return outcome;
}

function pagesText(n: number): string {
  return n === 1 ? "1 page" : `${n} pages`;
}

function normalise(judgement: PageJudgement): { verdict: PageVerdict; why: string } {
  return typeof judgement === "string" ? { verdict: judgement, why: "" } : judgement;
}

function example(failing: readonly { p: SampledPage; why: string }[]): string {
  const first = failing.find((j) => j.why !== "");
  return first ? ` (${first.p.url}: ${first.why})` : "";
}
