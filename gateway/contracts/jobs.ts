import { Type } from "@sinclair/typebox";
// ReportSchema is still defined beside renderReport, which fills it; it is pure (TypeBox only).
import { ReportSchema } from "../operations/report-view.ts";
import { HostString, Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

/** The longest a GET /jobs/{id}?wait=N holds its answer (seconds). */
export const JOB_WAIT_MAX_S = 30;

const JobState = StringEnum(["queued", "running", "done", "error"]);

export const JobSchema = Type.Object(
  {
    id: Type.Integer(),
    kind: StringEnum(["analyze", "crawl", "import"], { description: "import (extension): a large upload to POST /imports/{host}" }),
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
      Type.Union([
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
        Type.Object(
          {
            imports: Type.String({ description: "GET /imports/{host}" }),
            import: Type.Integer({ description: "The batch's id (DELETE /imports/batches/{id})" }),
            created: Type.Boolean({ description: "false: the same file was imported for this site before, and this is that batch" }),
          },
          { additionalProperties: false, description: "import jobs (extension)" },
        ),
      ]),
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

export const startAnalysis = defineContract({
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
});

export const analyzeSiteSync = defineContract({
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
});

export const listJobs = defineContract({
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
});

export const getJob = defineContract({
  id: "get_job",
  method: "GET",
  path: "/jobs/{id}",
  scope: "read",
  cli: "jobs get",
  summary: "One job; poll_after_s says when to ask again, or wait=N holds the answer until the job finishes",
  description:
    "wait (extension): while the job is queued or running, the answer is held until the job finishes or wait seconds pass (at most 30), whichever comes first; " +
    "then it is the job as it stands, or 304 without charging the request when If-None-Match still matches (nothing changed while the answer was held). " +
    "A client that sends the last ETag with wait=30 follows a job of a minute in two or three requests instead of twenty. Without wait the answer is at once.",
  tags: ["Jobs"],
  errors: ["not_found"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  query: Type.Object(
    {
      wait: Type.Optional(
        Type.Integer({ minimum: 0, maximum: JOB_WAIT_MAX_S, description: "Extension: hold the answer up to this many seconds while the job is unfinished (0: answer at once)" }),
      ),
    },
    { additionalProperties: false },
  ),
  response: Type.Object({ job: JobSchema }, { additionalProperties: false }),
  etagOf: (body) => withoutAge((body as { job: unknown }).job),
});
