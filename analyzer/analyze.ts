// One analysis of a site: run every check, rank the run, price every failing check (gain) and
// turn failures into tasks (seo-anchors §3.6). Pure: the clock is facts.checked_at.
import type { SiteFacts } from "../proto/index.ts";
import { bandOf } from "./bands.ts";
import { capJudge, type CapJudgement } from "./cap-triggers.ts";
import { CHECKS, type CheckDef, type CheckOutcome, type CheckStatus, type DisplayGroup, type Level, type RankGroup } from "./checks/index.ts";
import { decidedByCrawl } from "./checks/crawl-pages.ts";
import { computeRank, type RankEntry, type RankResult } from "./rank.ts";

export interface ReportItem {
  code: string;
  title: string;
  group: DisplayGroup;
  rank_group: RankGroup;
  level: Level;
  status: CheckStatus;
  /** Exact check score 0..1 (presenters round), null when not applicable. */
  score: number | null;
  value: string | number | null;
  detail: string;
  pages: string[];
  /** Nominal weight inside the rank group; 0 when excluded by the profile. */
  weight: number;
  /** Rank points gained if this check alone passed (caps recomputed); 0 for passing, N/A or excluded checks. */
  gain: number;
}

export interface TaskDraft {
  code: string;
  title: string;
  level: Level;
  group: DisplayGroup;
  /** = gain, one decimal. */
  impact: number;
  /**
   * The gain with every cap lifted, unrounded rank points to one decimal: what fixing it is worth
   * once the capping checks are fixed. Under a binding cap most gains are 0 (the ceiling holds the
   * rank), and this tells a broken link from a missing security.txt; when no cap binds it equals `impact`.
   */
  impact_uncapped: number;
  hint: string;
  detail: string;
  source: "report";
  recheck: boolean;
  effort: 1 | 2 | 3;
  /** This check is the binding cap: fixing it raises the ceiling that holds the rank down. */
  lifts_cap: boolean;
}

export interface Analysis {
  rank: number;
  label: string;
  color: string;
  groups: { id: string; weight: number; score: number | null; checks: number }[];
  caps: { code: string; cap: number; title: string }[];
  /** Caps seen once but not on the second look (seo-anchors §3.4): the check fails, the rank is not capped. */
  unconfirmed: { code: string; cap: number }[];
  items: ReportItem[];
  tasks: TaskDraft[];
  tech: string[];
}

export interface AnalyzeOptions {
  /** Check codes the site's profile excludes: weight 0, no cap, no task (§3.7). */
  excluded?: readonly string[];
}

const LEVEL_ORDER: Readonly<Record<Level, number>> = { bad: 0, warn: 1, info: 2 };
const FAILING: ReadonlySet<CheckStatus> = new Set(["warn", "fail"]);

/** A check's outcome on this run's facts; a page check the site's recent crawl found failing is decided with it (R5). */
function runCheck(def: CheckDef, facts: SiteFacts): CheckOutcome {
  try {
    return decidedByCrawl(def, def.run(facts), facts);
  } catch (error) {
    // One faulty check must not sink the whole report (the job would be retried into the same fault).
    return { status: "na", score: null, value: null, detail: `check error: ${(error as Error).message}`, pages: [] };
  }
}

/** The cap this outcome would impose before confirmation (none when excluded or not failing). */
function firstCap(def: CheckDef, outcome: CheckOutcome, excluded: ReadonlySet<string>): number | undefined {
  return !excluded.has(def.code) && FAILING.has(outcome.status) ? outcome.cap : undefined;
}

function toEntry(def: CheckDef, outcome: CheckOutcome, excluded: ReadonlySet<string>, cap: number | undefined): RankEntry {
  return {
    code: def.code,
    rankGroup: def.rankGroup,
    weight: excluded.has(def.code) ? 0 : def.weight,
    score: outcome.status === "na" ? null : outcome.score,
    cap,
  };
}

/** The model's result with the given checks passing and their caps lifted. */
function ifFixed(entries: readonly RankEntry[], codes: ReadonlySet<string>): RankResult {
  return computeRank(entries.map((e) => (codes.has(e.code) ? { ...e, score: 1, cap: undefined } : e)));
}

/** The rank before rounding: used only to order tasks whose rounded gains tie. */
function points(result: RankResult): number {
  return Math.min(100 * result.raw, result.ceiling);
}

function isBindingCap(entry: RankEntry, current: RankResult): boolean {
  return entry.cap !== undefined && entry.cap === current.ceiling && current.ceiling < 100 * current.raw;
}

interface RankedTask {
  task: TaskDraft;
  exactGain: number;
}

/** The entries with no cap: the model as it stands once the capping checks are fixed. */
function uncapped(entries: readonly RankEntry[]): RankEntry[] {
  return entries.map((e) => (e.cap === undefined ? e : { ...e, cap: undefined }));
}

function byUsefulness(a: RankedTask, b: RankedTask): number {
  return (
    b.task.impact - a.task.impact ||
    LEVEL_ORDER[a.task.level] - LEVEL_ORDER[b.task.level] ||
    // Under a cap most impacts tie at 0: what a task is worth once the cap is lifted comes before effort.
    b.task.impact_uncapped - a.task.impact_uncapped ||
    a.task.effort - b.task.effort ||
    b.exactGain - a.exactGain ||
    a.task.code.localeCompare(b.task.code)
  );
}

function toItem(def: CheckDef, outcome: CheckOutcome, weight: number, gain: number): ReportItem {
  return {
    code: def.code,
    title: def.title,
    group: def.group,
    rank_group: def.rankGroup,
    level: outcome.level ?? def.level,
    status: outcome.status,
    score: outcome.score,
    value: outcome.value,
    detail: outcome.detail,
    pages: outcome.pages,
    weight,
    gain,
  };
}

function toTask(def: CheckDef, item: ReportItem, liftsCap: boolean, gainUncapped: number): TaskDraft {
  return {
    code: def.code,
    title: def.title,
    level: item.level,
    group: def.group,
    impact: Number(item.gain.toFixed(1)),
    impact_uncapped: Number(gainUncapped.toFixed(1)),
    hint: def.hint,
    detail: item.detail,
    source: "report",
    recheck: def.recheck,
    effort: def.effort,
    lifts_cap: liftsCap,
  };
}

/** Analyse one run of a site: rank, label, groups, caps, report items, tasks and technologies. */
export function analyzeSite(facts: SiteFacts, options: AnalyzeOptions = {}): Analysis {
  const excluded = new Set(options.excluded ?? []);
  const judge = capJudge(facts);
  const unconfirmed: Analysis["unconfirmed"] = [];
  const runs = CHECKS.map((def) => {
    const outcome = runCheck(def, facts);
    const cap = firstCap(def, outcome, excluded);
    const judged: CapJudgement = cap === undefined ? { cap: undefined } : judge(def.code, cap);
    if (cap !== undefined && judged.unconfirmed !== undefined) {
      unconfirmed.push({ code: def.code, cap });
      return { def, cap: undefined, outcome: { ...outcome, detail: `${outcome.detail} (${judged.unconfirmed})` } };
    }
    return { def, cap: judged.cap, outcome };
  });
  const entries = runs.map(({ def, outcome, cap }) => toEntry(def, outcome, excluded, cap));
  const current = computeRank(entries);
  // A cap binds when its ceiling holds the rank below the model's: only then are the gains it hides told apart.
  const capBinds = current.ceiling < 100 * current.raw;
  const free = uncapped(entries);
  const currentFree = capBinds ? computeRank(free) : current;
  const items: ReportItem[] = [];
  const tasks: RankedTask[] = [];
  runs.forEach(({ def, outcome }, i) => {
    const entry = entries[i] as RankEntry;
    const open = FAILING.has(outcome.status) && !excluded.has(def.code);
    const fixed = open ? ifFixed(entries, new Set([def.code])) : current;
    const item = toItem(def, outcome, entry.weight, fixed.rank - current.rank);
    items.push(item);
    if (!open) return;
    // Before rounding: under a cap the rounded rank hides the small gains that tell tasks apart.
    const gainUncapped = capBinds ? points(ifFixed(free, new Set([def.code]))) - points(currentFree) : item.gain;
    tasks.push({ task: toTask(def, item, isBindingCap(entry, current), gainUncapped), exactGain: points(fixed) - points(current) });
  });
  const band = bandOf(current.rank);
  const titles = new Map(CHECKS.map((d) => [d.code, d.title]));
  return {
    rank: current.rank,
    label: band.label,
    color: band.color,
    groups: current.groups,
    caps: current.caps.map((c) => ({ ...c, title: titles.get(c.code) ?? c.code })),
    unconfirmed: unconfirmed.sort((a, b) => a.cap - b.cap || a.code.localeCompare(b.code)),
    items,
    tasks: tasks.sort(byUsefulness).map((t) => t.task),
    tech: [...new Set(facts.technologies)],
  };
}

/** Below this share of measured checks a projection of the rank "if all were fixed" says nothing. */
export const MIN_MEASURED_SHARE = 0.5;

/**
 * Why the rank projected "if every issue were fixed" (/issues after, gain_all) would say nothing,
 * or null when it may be shown: when most checks were not measured (na, e.g. the site did not
 * answer), fixing the few failing ones projects a rank no one measured.
 */
export function projectionBlindness(items: readonly { readonly status: string }[]): string | null {
  const unmeasured = items.filter((i) => i.status === "na").length;
  if (items.length === 0 || unmeasured <= (1 - MIN_MEASURED_SHARE) * items.length) return null;
  return `${unmeasured} of ${items.length} checks were not measured in this check: a rank after fixing the issues found would rest on the few that were`;
}

/**
 * The rank if the given tasks' checks were fixed (default: every task), caps recomputed — /issues
 * "after"; gain_all = afterAll(a) − a.rank. Recomputed from the analysis alone.
 */
export function afterAll(analysis: Analysis, codes: readonly string[] = analysis.tasks.map((t) => t.code)): number {
  const caps = new Map(analysis.caps.map((c) => [c.code, c.cap]));
  const entries: RankEntry[] = analysis.items.map((item) => ({
    code: item.code,
    rankGroup: item.rank_group,
    weight: item.weight,
    score: item.status === "na" ? null : item.score,
    cap: caps.get(item.code),
  }));
  return ifFixed(entries, new Set(codes)).rank;
}
