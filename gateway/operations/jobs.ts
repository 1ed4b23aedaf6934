import { Type } from "@sinclair/typebox";
import type { JobRow } from "../../storage/index.ts";
import { ApiError } from "../errors.ts";
import { defineOperation } from "../registry/operation.ts";
import { HostString, Nullable, PageEnvelope, StringEnum, UnixSeconds, page, pagedQuery } from "../schemas.ts";
import { renderReport, ReportSchema } from "./report-view.ts";

const JobState = StringEnum(["queued", "running", "done", "error"]);

export const JobSchema = Type.Object(
  {
    id: Type.Integer(),
    kind: StringEnum(["analyze", "crawl"]),
    host: Type.String(),
    state: JobState,
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    items: Type.Array(
      Type.Object(
        { host: Type.String(), state: JobState, progress: Type.Integer(), step: Nullable(Type.String()), error: Nullable(Type.String()), cached: Type.Boolean() },
        { additionalProperties: false },
      ),
    ),
    created: UnixSeconds,
    age_s: Type.Integer({ minimum: 0 }),
    poll_after_s: Nullable(Type.Integer({ description: "3 while queued or running; null when finished" })),
    result: Nullable(
      Type.Object(
        {
          report: Type.String(),
          issues: Type.String(),
          crawl: Type.Optional(Type.String({ description: "crawl jobs: GET /crawl/{host}" })),
          links: Type.Optional(Type.String({ description: "crawl jobs: GET /links/{host}" })),
          external: Type.Optional(Type.String({ description: "crawl jobs: GET /external/{host}" })),
        },
        { additionalProperties: false },
      ),
    ),
    error: Nullable(Type.Object({ reason: Type.String(), detail: Nullable(Type.String()) }, { additionalProperties: false, description: "Why a job ended in error (e.g. blocked_private_address, attempts_exhausted)" })),
    self: Type.String(),
  },
  { additionalProperties: false },
);

/** A job's answer without age_s, which only tells time: its ETag changes when the job does. */
function withoutAge(job: unknown): unknown {
  const { age_s: _age, ...rest } = job as Record<string, unknown>;
  return rest;
}

/**
 * The spec's job kinds (analyze or crawl) and the links a finished job answers with, by work kind.
 * Single checks are jobs of the synchronous lane: shown as analyze, their answer is the call's.
 */
const JOB_VIEWS: Readonly<Record<string, { kind: "analyze" | "crawl"; links: (host: string) => Record<string, string> }>> = {
  analyze: { kind: "analyze", links: (host) => ({ report: `/api/v1/report/${host}`, issues: `/api/v1/issues/${host}` }) },
  crawl: {
    kind: "crawl",
    links: (host) => ({
      report: `/api/v1/report/${host}`,
      issues: `/api/v1/issues/${host}`,
      crawl: `/api/v1/crawl/${host}`,
      links: `/api/v1/links/${host}`,
      external: `/api/v1/external/${host}`,
    }),
  },
};

/** A job as the API shows it. */
export function jobView(job: JobRow, now: number) {
  const view = Object.hasOwn(JOB_VIEWS, job.kind) ? JOB_VIEWS[job.kind] : undefined;
  const finished = job.state === "done" || job.state === "error";
  const host = encodeURIComponent(job.host).replace(/%3A/gi, ":");
  return {
    id: job.id,
    kind: view?.kind ?? "analyze",
    host: job.host,
    state: job.state,
    progress: job.progress,
    items: [{ host: job.host, state: job.state, progress: job.progress, step: job.step, error: job.error, cached: job.cached }],
    created: job.created,
    age_s: Math.max(0, now - job.created),
    poll_after_s: finished ? null : 3,
    result: job.state === "done" && view ? view.links(host) : null,
    error: job.state === "error" ? { reason: job.error ?? "failed", detail: job.error_detail } : null,
    self: `/api/v1/jobs/${job.id}`,
  };
}

export const startAnalysis = defineOperation({
  id: "start_analysis",
  method: "POST",
  path: "/analyze",
  scope: "run",
  cli: "analyze start",
  summary: "Start an analysis of a site (a background job)",
  description:
    "Answers 202 with the job. A report younger than SVC_REPORT_FRESH_S (3600 s) answers at once with a done job (items[].cached true), not charged; fresh true always runs. Charged one check against the plan's daily limit.",
  tags: ["Checks"],
  flags: { async: true },
  status: 202,
  errors: ["bad_host", "limit"],
  body: Type.Object({ host: HostString, fresh: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
  response: Type.Object({ job: JobSchema }, { additionalProperties: false }),
  handler: async ({ auth, deps, body, now }) => {
    const { jobId } = await deps.scheduler.startAnalysis(auth!.accountId, body.host, body.fresh ?? false);
    const job = await deps.store.jobs.getOwned(auth!.accountId, jobId);
    if (!job) throw new ApiError("server", "the job just created is missing");
    return { status: 202, body: { job: jobView(job, now) } };
  },
});

export const analyzeSiteSync = defineOperation({
  id: "analyze_site_sync",
  method: "GET",
  path: "/analyze",
  scope: "run",
  cli: "analyze",
  summary: "Analyse a site and wait for the report (synchronous)",
  description:
    "Same shape as GET /report/{host}. Waits up to SVC_SYNC_WAIT_MS (25 s); after that the answer is 409 not_ready with details.job, the job to poll. A fresh cached report answers at once unless fresh=1. Charged one check unless cached.",
  tags: ["Checks"],
  errors: ["bad_host", "limit", "not_ready"],
  query: Type.Object(
    { d: HostString, fresh: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: "1 ignores the cache" })) },
    { additionalProperties: false },
  ),
  response: ReportSchema,
  handler: async ({ auth, deps, query }) => {
    const res = await deps.scheduler.runCheck(auth!.accountId, query.d, query.fresh === 1, deps.config.syncWaitMs);
    const job = await deps.store.jobs.getOwned(auth!.accountId, res.jobId);
    if (!res.done || !job || job.state !== "done" || job.run_id === null) {
      if (job?.state === "error") {
        const reason = job.error ?? "failed";
        if (reason === "blocked_private_address") throw new ApiError("bad_host", `${query.d} resolves to a private address`, { param: "d", details: { reason, job: job.id } });
        throw new ApiError("not_ready", `the check of ${query.d} failed: ${reason}`, { retryAfter: 60, details: { job: job.id, reason } });
      }
      throw new ApiError("not_ready", `the check of ${query.d} is still running; poll the job`, { retryAfter: 3, details: { job: res.jobId, self: `/api/v1/jobs/${res.jobId}` } });
    }
    const run = await deps.store.runs.byId(job.run_id);
    if (!run) throw new ApiError("server", "the finished run is missing");
    return { body: renderReport(run) };
  },
});

export const listJobs = defineOperation({
  id: "list_jobs",
  method: "GET",
  path: "/jobs",
  scope: "read",
  cli: "jobs list",
  summary: "Recent background jobs started through the API (newest first)",
  tags: ["Jobs"],
  pageMax: 100,
  query: pagedQuery(100, {}),
  response: Type.Object({ jobs: Type.Array(JobSchema), page: PageEnvelope }, { additionalProperties: false }),
  etagOf: (body) => ({ ...(body as object), jobs: (body as { jobs: unknown[] }).jobs.map(withoutAge) }),
  handler: async ({ auth, deps, query, now }) => {
    const { rows, total } = await deps.store.jobs.list(auth!.accountId, query.limit, query.offset);
    return { body: { jobs: rows.map((j) => jobView(j, now)), page: page(query.limit, query.offset, total) } };
  },
});

export const getJob = defineOperation({
  id: "get_job",
  method: "GET",
  path: "/jobs/{id}",
  scope: "read",
  cli: "jobs get",
  summary: "One job; poll_after_s says when to ask again",
  tags: ["Jobs"],
  errors: ["not_found"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  response: Type.Object({ job: JobSchema }, { additionalProperties: false }),
  etagOf: (body) => withoutAge((body as { job: unknown }).job),
  handler: async ({ auth, deps, params, now }) => {
    const job = await deps.store.jobs.getOwned(auth!.accountId, params.id);
    if (!job) throw new ApiError("not_found", `no job ${params.id} in your account`);
    return { body: { job: jobView(job, now) } };
  },
});
