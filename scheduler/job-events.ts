import { EVENTS, newEvent, type EventDescriptor } from "../analyzer/index.ts";
import { workKindInfo } from "../proto/index.ts";
import type { JobRow, NewEvent } from "../storage/index.ts";

type JobEnd = EventDescriptor<EVENTS.JobEndFacts>;

/**
 * A job's events by how its kind's row lists it (proto/work-kinds.ts): an analysis ends as
 * analysis.*, a crawl as crawl.*, any job not listed (a page check, live TLS and DNS checks,
 * webhook attempts) as check.*, of which only a page check's reaches a webhook
 * (analyzer/events/catalogue.ts).
 */
const JOB_END: Readonly<Record<"analyze" | "crawl", { done: JobEnd; error: JobEnd }>> = {
  analyze: { done: EVENTS.ANALYSIS_DONE, error: EVENTS.ANALYSIS_ERROR },
  crawl: { done: EVENTS.CRAWL_DONE, error: EVENTS.CRAWL_ERROR },
};
const CHECK_END = { done: EVENTS.CHECK_DONE, error: EVENTS.CHECK_ERROR };

/**
 * The event of a job that ended (done or error), keyed by the job so a repeated completion adds
 * nothing; `extra` goes to its data (a failure's error and detail; a run's run, rank and, when the
 * site gave no answer, `unanswered`: why).
 */
export function jobEvent(job: JobRow, state: "done" | "error", extra: Record<string, unknown>): NewEvent {
  const listedAs = workKindInfo(job.kind)?.listedAs ?? null;
  const end = (listedAs === null ? CHECK_END : JOB_END[listedAs])[state];
  return newEvent(end, { job: { id: job.id, kind: job.kind, host: job.host }, extra }, { accountId: job.account_id, host: job.host });
}
