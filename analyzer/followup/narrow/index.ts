// The re-check table: for each catalogued check, the narrowest run that yields the
// facts it reads. One file per family; adding a check = adding its code to one family's list (a unit
// test holds every catalogued code to exactly one family). docs/followup.md has the same table.
import type { SiteFacts } from "../../../proto/index.ts";
import type { ReportItem } from "../../analyze.ts";
import { CHECKS, type CheckDef, type CheckOutcome } from "../../checks/index.ts";
import { computeRank, type RankEntry } from "../../rank.ts";
import { dnsScope } from "./dns.ts";
import { homeScope, pageSampleScope } from "./page.ts";
import { canonicalTargetScope } from "./canonical.ts";
import { brokenLinksScope } from "./links.ts";
import { robotsScope } from "./robots.ts";
import type { NarrowContext, NarrowLook, RecheckScope } from "./scope.ts";
import { tlsScope } from "./tls.ts";
import { analysisScope, crawlScope } from "./whole.ts";

export type { NarrowContext, NarrowKind, NarrowLook, NarrowResult, NarrowTask, RecheckMode, RecheckScope } from "./scope.ts";
export { narrowArm } from "./scope.ts";
export { RECHECK_MAX_PAGES, recheckTarget } from "./page.ts";

export type { CrawlBrokenLink, CrawlContext, LookPages } from "./links.ts";

export const RECHECK_SCOPES: readonly RecheckScope[] = Object.freeze([dnsScope, tlsScope, homeScope, pageSampleScope, robotsScope, brokenLinksScope, canonicalTargetScope, analysisScope, crawlScope]);

const BY_CODE: ReadonlyMap<string, RecheckScope> = new Map(RECHECK_SCOPES.flatMap((s) => s.codes.map((c) => [c, s] as const)));

/** The family of a check code; undefined for a code the catalogue does not know. */
export function recheckScopeOf(code: string): RecheckScope | undefined {
  return BY_CODE.get(code);
}

/**
 * How this task's re-check runs: the family's narrow kind when it applies to the task, the whole
 * analysis otherwise, `crawl` for crawl checks. A code outside the table re-runs the whole analysis.
 */
export function recheckModeOf(code: string, ctx: NarrowContext): { scope: RecheckScope | undefined; mode: NarrowLook | "analysis" | "crawl" } {
  const scope = recheckScopeOf(code);
  if (!scope) return { scope, mode: "analysis" };
  if (scope.mode === "analysis" || scope.mode === "crawl") return { scope, mode: scope.mode };
  const task = { ...ctx, code };
  return scope.applies?.(task) ? { scope, mode: scope.lookOf?.(task) ?? scope.mode } : { scope, mode: scope.fallback ?? "analysis" };
}

const FAILING = new Set(["warn", "fail"]);
const DEFS: ReadonlyMap<string, CheckDef> = new Map(CHECKS.map((d) => [d.code, d]));

function runOne(def: CheckDef, facts: SiteFacts): CheckOutcome {
  try {
    return def.run(facts);
  } catch (error) {
    return { status: "na", score: null, value: null, detail: `check error: ${(error as Error).message}`, pages: [] };
  }
}

export interface NarrowJudgement {
  /** The task's check on the narrow look's facts. */
  readonly outcome: CheckOutcome;
  /** The last report's rank with this check's result replaced by the narrow one (caps: see projectRank). */
  readonly rankTo: number;
  /** Other checks of the same family that fail on the narrow facts and passed in the last report (an unmeasured one is no new failure). */
  readonly newTasks: number;
}

/**
 * The rank the last report would have with one check's result replaced, through the analyzer's rank
 * model (analyzer/rank.ts). The report's confirmed caps stay, except the replaced check's: lifted when
 * it no longer fails, kept when it still does (a narrow look has no second look to confirm a new cap,
 * so it adds none).
 */
export function projectRank(items: readonly ReportItem[], caps: readonly { code: string; cap: number }[], code: string, outcome: CheckOutcome): number {
  const capOf = new Map(caps.map((c) => [c.code, c.cap]));
  const entries: RankEntry[] = items.map((item) => {
    const mine = item.code === code;
    const status = mine ? outcome.status : item.status;
    const score = mine ? outcome.score : item.score;
    const cap = capOf.get(item.code);
    return {
      code: item.code,
      rankGroup: item.rank_group,
      weight: item.weight,
      score: status === "na" ? null : score,
      cap: mine && !FAILING.has(status) ? undefined : cap,
    };
  });
  return computeRank(entries).rank;
}

/**
 * Judges a task's check on a narrow look's facts against the last report (pure). A family that sees
 * part of what the check judged (decidesOnPassOnly) projects a still-failing check with its last
 * result: rank_to is then rank_from.
 */
export function judgeNarrow(
  scope: RecheckScope,
  code: string,
  facts: SiteFacts | CheckOutcome,
  last: { readonly items: readonly ReportItem[]; readonly caps: readonly { code: string; cap: number }[] },
): NarrowJudgement {
  const def = DEFS.get(code);
  if (!def) throw new Error(`unknown check ${code}`);
  // A family that decides in several looks (decide) gives the outcome itself; its siblings are not judged.
  if ("status" in facts) return judgeOutcome(scope, code, facts, last);
  const outcome = runOne(def, facts);
  // Only a sibling that passed in the last report is a new failure: one that was not measured
  // there (na, e.g. while the site was down) may have failed all along.
  const passedBefore = new Set(last.items.filter((i) => i.status === "pass").map((i) => i.code));
  const newTasks = scope.codes.filter((c) => {
    if (c === code || !passedBefore.has(c)) return false;
    const sibling = DEFS.get(c);
    return sibling !== undefined && FAILING.has(runOne(sibling, facts).status);
  }).length;
  const partial = typeof scope.decidesOnPassOnly === "function" ? scope.decidesOnPassOnly(code) : scope.decidesOnPassOnly === true;
  const partialFailure = partial && outcome.status !== "pass";
  const lastItem = last.items.find((i) => i.code === code);
  const projected = partialFailure && lastItem ? { ...outcome, status: lastItem.status, score: lastItem.score } : outcome;
  return { outcome, rankTo: projectRank(last.items, last.caps, code, projected), newTasks };
}

/** judgeNarrow for an outcome a family decided itself: no sibling is judged (new_tasks 0). */
function judgeOutcome(scope: RecheckScope, code: string, outcome: CheckOutcome, last: { readonly items: readonly ReportItem[]; readonly caps: readonly { code: string; cap: number }[] }): NarrowJudgement {
  const partial = typeof scope.decidesOnPassOnly === "function" ? scope.decidesOnPassOnly(code) : scope.decidesOnPassOnly === true;
  const lastItem = last.items.find((i) => i.code === code);
  const projected = partial && outcome.status !== "pass" && lastItem ? { ...outcome, status: lastItem.status, score: lastItem.score } : outcome;
  return { outcome, rankTo: projectRank(last.items, last.caps, code, projected), newTasks: 0 };
}
