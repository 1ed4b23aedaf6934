import type { SiteFacts } from "../../../proto/index.ts";
import type { ReportItem } from "../../analyze.ts";

/**
 * How a task re-check runs (docs/followup.md): a narrow live look in the synchronous lane (`dns`,
 * `tls`, `page`), the whole analysis (`analysis`, as POST /analyze), or not at all (`crawl`: the
 * check is judged over a whole-site crawl and answers 422 unsupported).
 */
export type NarrowKind = "dns" | "tls" | "page";
export type RecheckMode = NarrowKind | "analysis" | "crawl";

/** What a narrow scope needs to know of the task's site and its last report. */
export interface NarrowContext {
  /** The site as monitored (host or host:port). */
  readonly host: string;
  /** The origin the last report was served from (scheme://host[:port]). */
  readonly origin: string;
  /** The task's check in the last report, when it has one. */
  readonly item: ReportItem | undefined;
  /** Unix seconds of the re-check. */
  readonly now: number;
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
   * last report's result of a check that still fails.
   */
  readonly decidesOnPassOnly?: boolean;
  /** One line for the docs and the answer: what runs and why. */
  readonly why: string;
  /**
   * Narrow families only: whether this task can be decided by the narrow look (a page family answers
   * false when the last report saw the check fail on pages other than the home page: the whole
   * analysis then re-runs, as before).
   */
  applies?(ctx: NarrowContext): boolean;
  /** Narrow families only: the sync-lane target (a host for dns/tls, a URL for page). */
  target?(ctx: NarrowContext): string;
  /**
   * Narrow families only: the site facts the family's checks read, built from the narrow look alone
   * (result: the sync-lane job's result, the kind's facts in their proto JSON form).
   */
  facts?(ctx: NarrowContext, result: unknown): SiteFacts;
}
