import type { SiteFacts, SyncResult, SyncTask } from "../../../proto/index.ts";
import type { ReportItem } from "../../analyze.ts";
import type { CheckOutcome } from "../../checks/index.ts";
import type { CrawlContext, LookPages } from "./links.ts";

/**
 * How a task re-check runs (docs/followup.md): a narrow live look in the synchronous lane (`dns`,
 * `tls`, `page`: the single-check kinds; `pages`, `robots`: the `recheck` kind's looks), the whole
 * analysis (`analysis`, as POST /analyze), or not at all (`crawl`: the check is judged over a
 * whole-site crawl and answers 422 unsupported). The look is what the answer's `ran` says.
 */
export type NarrowLook = "dns" | "tls" | "page" | "pages" | "robots" | "links";
/** The work kind that takes a narrow look. */
export type NarrowKind = "dns" | "tls" | "page" | "recheck";
export type RecheckMode = NarrowLook | "analysis" | "crawl";
/** The task of a narrow look: the sync lane's arm of its kind. */
export type NarrowTask = Extract<SyncTask, { $case: NarrowKind }>;
/** What a narrow look answered: the result arm of its task's kind. */
export type NarrowResult = Extract<SyncResult, { $case: NarrowKind }>;

/** The facts of a narrow look's result when it is the arm of kind k (a scope knows the kind it asked for). */
export function narrowArm<K extends NarrowKind>(result: NarrowResult, k: K): Extract<NarrowResult, { $case: K }>["value"] | undefined {
  return result.$case === k ? (result.value as never) : undefined;
}

/** What a narrow scope needs to know of the task's site and its last report. */
export interface NarrowContext {
  /** The site as monitored (host or host:port). */
  readonly host: string;
  /** The origin the last report was served from (scheme://host[:port]). */
  readonly origin: string;
  /** The task's check code (else the report item's). */
  readonly code?: string;
  /** The task's check in the last report, when it has one. */
  readonly item: ReportItem | undefined;
  /** Unix seconds of the re-check. */
  readonly now: number;
  /** The site's latest crawl, for a family that needs it (needsCrawl): loaded by the gateway. */
  readonly crawl?: CrawlContext;
}

/** One family of checks and the narrowest run that yields the facts they read. */
export interface RecheckScope {
  /** The family's name (docs/followup.md's table). */
  readonly id: string;
  readonly mode: RecheckMode;
  /** The check codes of the family; every catalogued check is in exactly one family (a test holds this). */
  readonly codes: readonly string[];
  /**
   * The narrow look sees part of what the check judged (one page of the sample): its pass decides
   * the task, but a failure's score is that part's, not the site's, so the projected rank keeps the
   * last report's result of a check that still fails. A function names the family's codes for
   * which this holds.
   */
  readonly decidesOnPassOnly?: boolean | ((code: string) => boolean);
  /** One line for the docs and the answer: what runs and why. */
  readonly why: string;
  /** What runs when the family does not apply to a task: the whole analysis (default), or nothing (crawl: 422). */
  readonly fallback?: "analysis" | "crawl";
  /** The family reads the site's latest crawl (NarrowContext.crawl). */
  readonly needsCrawl?: boolean;
  /**
   * A family that decides in several looks (a crawl subset): the check's outcome from looks it asks
   * for through `look`, instead of one target and facts.
   */
  decide?(ctx: NarrowContext, look: LookPages): Promise<CheckOutcome>;
  /**
   * The crawl family only: for each of its checks, why nothing short of a whole-site crawl decides
   * it (the 422's message and details.reason).
   */
  readonly whyNot?: Readonly<Record<string, string>>;
  /**
   * Narrow families only: whether this task can be decided by the narrow look (a page family answers
   * false when the last report saw the check fail on pages other than the home page: the whole
   * analysis then re-runs, as before).
   */
  applies?(ctx: NarrowContext): boolean;
  /** Narrow families only: the look this task takes when the family has several (default: the family's mode). */
  lookOf?(ctx: NarrowContext): NarrowLook;
  /** Narrow families only: the sync-lane task of the look (pages, robots and links travel as the `recheck` kind). */
  target?(ctx: NarrowContext): NarrowTask;
  /** Narrow families only: the site facts the family's checks read, built from the narrow look's result alone. */
  facts?(ctx: NarrowContext, result: NarrowResult): SiteFacts;
}
