import type { JobRow, NewEvent } from "../storage/index.ts";

/** The event of a job that ended (done or error), keyed by the job so a repeated completion adds nothing. */
export function jobEvent(job: JobRow, state: "done" | "error", extra: Record<string, unknown>): NewEvent {
  return {
    eventKey: `job:${job.id}:${state}`,
    accountId: job.account_id,
    host: job.host,
    type: "job",
    level: state === "done" ? "good" : "bad",
    payload: { job: job.id, kind: job.kind, state, ...extra },
  };
}
