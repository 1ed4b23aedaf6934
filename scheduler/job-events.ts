import type { JobRow, NewEvent } from "../storage/index.ts";

/**
 * A job's event by its kind: an analysis is a site event, a crawl a crawl event, a page check a
 * page event; other jobs (live TLS and DNS checks, webhook attempts) are check events, which no
 * webhook receives.
 */
const JOB_EVENTS: Readonly<Record<string, { type: NewEvent["type"]; kind: string; what: string }>> = {
  analyze: { type: "events", kind: "analysis", what: "Analysis" },
  crawl: { type: "crawl", kind: "crawl", what: "Crawl" },
  page: { type: "page", kind: "check", what: "Page check" },
};

/**
 * The event of a job that ended (done or error), keyed by the job so a repeated completion adds
 * nothing.
 */
export function jobEvent(job: JobRow, state: "done" | "error", extra: Record<string, unknown>): NewEvent {
  const view = JOB_EVENTS[job.kind] ?? { type: "events", kind: "check", what: `Check (${job.kind})` };
  const detail = state === "done" ? (typeof extra.rank === "number" ? `: rank ${extra.rank}` : "") : `: ${typeof extra.error === "string" ? extra.error : "failed"}`;
  return {
    eventKey: `job:${job.id}:${state}`,
    accountId: job.account_id,
    host: job.host,
    type: view.type,
    kind: `${view.kind}.${state}`,
    level: state === "done" ? "good" : "bad",
    text: `${view.what} of ${job.host} ${state === "done" ? "done" : "failed"}${detail}`,
    payload: { job: job.id, kind: job.kind, state, ...extra },
  };
}
