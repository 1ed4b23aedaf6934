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
 * nothing; a failure says its detail when the worker gave one. A job done on a site that gave no answer (`extra.unanswered`: why) is done, but bad
 * news: the analysis measured only that the site is unreachable, and says so.
 */
export function jobEvent(job: JobRow, state: "done" | "error", extra: Record<string, unknown>): NewEvent {
  const view = JOB_EVENTS[job.kind] ?? { type: "events", kind: "check", what: `Check (${job.kind})` };
  const unanswered = state === "done" && typeof extra.unanswered === "string" ? extra.unanswered : null;
  const rank = typeof extra.rank === "number" ? `rank ${extra.rank}` : "";
  const detail =
    state === "error" ? `: ${typeof extra.detail === "string" ? extra.detail : typeof extra.error === "string" ? extra.error : "failed"}` : unanswered !== null ? `: the site did not answer (${unanswered})${rank ? `; ${rank}` : ""}` : rank ? `: ${rank}` : "";
  return {
    eventKey: `job:${job.id}:${state}`,
    accountId: job.account_id,
    host: job.host,
    type: view.type,
    kind: `${view.kind}.${state}`,
    level: state === "done" && unanswered === null ? "good" : "bad",
    text: `${view.what} of ${job.host} ${state === "done" ? "done" : "failed"}${detail}`,
    payload: { job: job.id, kind: job.kind, state, ...extra },
  };
}
