import type { CompleteRequest, JobTask, LeaseResponse, RunCheckRequest, RunCheckResponse, StreamItem, StreamResult } from "./gen/svc/v1/scheduler.js";

/** The task arm of a lease: one per work kind. */
export type LeaseTask = NonNullable<LeaseResponse["task"]>;
/** A work kind's name: the arm's name in the lease's `task` and the completion's `result`. */
export type WorkKind = LeaseTask["$case"];
/** The task message of kind K. */
export type TaskOf<K extends WorkKind> = Extract<LeaseTask, { $case: K }>["value"];
// A job row's task (JobTask) holds the lease's arms, message for message, and no other.
const jobTaskIsLeaseTask: [NonNullable<JobTask["task"]>, LeaseTask] extends [LeaseTask, NonNullable<JobTask["task"]>] ? true : never = true;
void jobTaskIsLeaseTask;
/** The result arm of a completion. */
export type WorkResult = NonNullable<CompleteRequest["result"]>;
/** The result message of kind K. */
export type ResultOf<K extends WorkKind> = Extract<WorkResult, { $case: K }>["value"];

/**
 * Every work kind's name, in the order of the proto's arms. Typed so that a kind added to the
 * proto and not here (or the reverse) fails to compile; a test holds it against the .proto text
 * and the crawler's and scheduler's tables.
 */
export const WORK_KINDS = ["analyze", "crawl", "page", "tls", "dns", "webhook", "utility", "recheck"] as const satisfies readonly WorkKind[];
type Missing = Exclude<WorkKind, (typeof WORK_KINDS)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/**
 * How work travels. job: a job row, a lease renewed by heartbeats, checkpoints (analyses,
 * crawls). sync: a caller waits on a reply address, on crawler slots of its own (live checks).
 * stream: high volume without a job row per item, planned in batches per time slot and answered
 * on the results topic (uptime probes, webhook deliveries; docs/architecture.md says how one plugs in).
 */
export type Lane = "job" | "sync" | "stream";

/** What the rest of the house knows of a work kind besides its messages: one data row per kind. */
export interface WorkKindInfo {
  /** The lanes a job of this kind may travel (a start names one; the scheduler refuses the others). */
  readonly lanes: readonly Lane[];
  /**
   * The spec's job kind GET /jobs lists it as, its job view and the events its end raises
   * (analysis.*, crawl.*); null: not listed, and its end is a check.* event (single checks,
   * webhook attempts, utility runs, re-check looks).
   */
  readonly listedAs: "analyze" | "crawl" | null;
}

export const WORK_KIND_INFO: { readonly [K in WorkKind]: WorkKindInfo } = {
  analyze: { lanes: ["job", "sync"], listedAs: "analyze" },
  crawl: { lanes: ["job"], listedAs: "crawl" },
  page: { lanes: ["sync"], listedAs: null },
  tls: { lanes: ["sync"], listedAs: null },
  dns: { lanes: ["sync"], listedAs: null },
  webhook: { lanes: ["job", "sync"], listedAs: null },
  utility: { lanes: ["sync"], listedAs: null },
  recheck: { lanes: ["sync"], listedAs: null },
};

/** The row of a kind's name, or null for a name no work kind has (a gateway-held import). */
export function workKindInfo(name: string): WorkKindInfo | null {
  return Object.hasOwn(WORK_KIND_INFO, name) ? WORK_KIND_INFO[name as WorkKind] : null;
}

/** The work kinds GET /jobs lists (with gateway-held jobs, whatever their kind). */
export const LISTED_KINDS: readonly WorkKind[] = WORK_KINDS.filter((k) => WORK_KIND_INFO[k].listedAs !== null);

/** The task arm of a synchronous call (RunCheck): the arms of the lease's task that travel the sync lane. */
export type SyncTask = NonNullable<RunCheckRequest["task"]>;
/** A kind that a caller may run in the synchronous lane. */
export type SyncKind = SyncTask["$case"];
/** The result arm of a synchronous answer: the completion's arm of the same name. */
export type SyncResult = NonNullable<RunCheckResponse["result"]>;
// The sync arms are the lease's and the completion's, message for message: a sync arm of another
// message type (or one the lease lacks) fails to compile here.
const syncTaskIsLeaseTask: SyncTask extends LeaseTask ? true : never = true;
const syncResultIsWorkResult: SyncResult extends WorkResult ? true : never = true;
void syncTaskIsLeaseTask;
void syncResultIsWorkResult;

/** The task arm of a stream item: one per stream-lane kind. */
export type StreamTask = NonNullable<StreamItem["task"]>;
/** A stream-lane kind's name. */
export type StreamKind = StreamTask["$case"];
export type StreamTaskOf<K extends StreamKind> = Extract<StreamTask, { $case: K }>["value"];
export type StreamWorkResult = NonNullable<StreamResult["result"]>;
export type StreamResultOf<K extends StreamKind> = Extract<StreamWorkResult, { $case: K }>["value"];

/** Every stream-lane kind's name (a compile error when it misses an arm). */
export const STREAM_KINDS = ["probe", "webhook"] as const satisfies readonly StreamKind[];
type MissingStream = Exclude<StreamKind, (typeof STREAM_KINDS)[number]>;
const completeStream: [MissingStream] extends [never] ? true : MissingStream = true;
void completeStream;
