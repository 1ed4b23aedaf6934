import type { JobRow, NewEvent } from "../storage/index.ts";

/**
 * The event of a job that ended (done or error), keyed by the job so a repeated completion adds
 * nothing: a crawl's is of type crawl, any other job's of type events.
 */
export function jobEvent(job: JobRow, state: "done" | "error", extra: Record<string, unknown>): NewEvent {
  const crawl = job.kind === "crawl";
  const what = crawl ? "Crawl" : job.kind === "analyze" ? "Analysis" : `Check (${job.kind})`;
  const detail = state === "done" ? (typeof extra.rank === "number" ? `: rank ${extra.rank}` : "") : `: ${typeof extra.error === "string" ? extra.error : "failed"}`;
  return {
    eventKey: `job:${job.id}:${state}`,
    accountId: job.account_id,
    host: job.host,
    type: crawl ? "crawl" : "events",
    kind: `${crawl ? "crawl" : "analysis"}.${state}`,
    level: state === "done" ? "good" : "bad",
    text: `${what} of ${job.host} ${state === "done" ? "done" : "failed"}${detail}`,
    payload: { job: job.id, kind: job.kind, state, ...extra },
  };
}
