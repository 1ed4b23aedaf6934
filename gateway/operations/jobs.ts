import { setTimeout as sleep } from "node:timers/promises";
import type { JobRow } from "../../storage/index.ts";
import { AnalyzeTask, LISTED_KINDS, workKindInfo } from "../../proto/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { renderReport } from "./report-view.ts";

/**
 * The spec's job kinds (analyze or crawl, as a work kind's row lists it; import for a gateway-held
 * upload) and the links a finished job answers with. Single checks are jobs of the synchronous
 * lane: shown as analyze, their answer is the call's.
 */
const JOB_VIEWS: Readonly<Record<string, { kind: "analyze" | "crawl" | "import"; links: (host: string, result: unknown) => Record<string, unknown> }>> = {
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
  // Large uploads to POST /imports/{host} (extension): the job's result document names the batch.
  import: {
    kind: "import",
    links: (host, result) => {
      const r = result as { import?: number; created?: boolean } | null;
      return { imports: `/api/v1/imports/${host}`, import: r?.import ?? 0, created: r?.created ?? true };
    },
  },
};

/** A job as the API shows it; a gateway-held job's result document (an import's batch) is `job.result`. */
export function jobView(job: JobRow, now: number) {
  // A work kind is shown as its row lists it; a gateway-held job (an import) by its own name.
  const info = workKindInfo(job.kind);
  const shownAs = info ? info.listedAs : job.kind;
  const view = shownAs !== null && Object.hasOwn(JOB_VIEWS, shownAs) ? JOB_VIEWS[shownAs] : undefined;
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
    result: job.state === "done" && view ? view.links(host, job.result ?? null) : null,
    error: job.state === "error" ? { reason: job.error ?? "failed", detail: job.error_detail } : null,
    self: `/api/v1/jobs/${job.id}`,
  };
}

export const startAnalysis = implement(contracts.startAnalysis, { repos: ["jobs"] }, async ({ auth, repos, deps, body, now }) => {
  const { jobId } = await deps.scheduler.startAnalysis(auth!.accountId, body.host, body.fresh ?? false);
  const job = await repos.jobs.getOwned(auth!.accountId, jobId);
  if (!job) throw new ApiError("server", "the job just created is missing");
  return { status: 202, body: { job: jobView(job, now) } };
});

export const analyzeSiteSync = implement(contracts.analyzeSiteSync, { repos: ["runs"] }, async ({ auth, repos, deps, query }) => {
  const task = { $case: "analyze" as const, value: AnalyzeTask.fromPartial({}) };
  const answer = await deps.scheduler.runSync(auth!.accountId, task, { waitMs: deps.config.syncWaitMs, host: query.d, fresh: query.fresh === 1 });
  if (answer.state === "error") {
    const reason = answer.error;
    if (reason === "blocked_private_address") throw new ApiError("bad_host", `${query.d} resolves to a private address`, { param: "d", details: { reason, job: answer.jobId } });
    throw new ApiError("not_ready", `the check of ${query.d} failed: ${reason}`, { retryAfter: 60, details: { job: answer.jobId, reason } });
  }
  if (answer.state === "running" || answer.runId === null) {
    throw new ApiError("not_ready", `the check of ${query.d} is still running; poll the job`, { retryAfter: 3, details: { job: answer.jobId, self: `/api/v1/jobs/${answer.jobId}` } });
  }
  const run = await repos.runs.byId(answer.runId);
  if (!run) throw new ApiError("server", "the finished run is missing");
  return { body: renderReport(run, await repos.runs.checkInFlight(run.host)) };
});

export const listJobs = implement(contracts.listJobs, { repos: ["jobs"] }, async ({ auth, repos, deps, query, now }) => {
  const { rows, total } = await repos.jobs.list(auth!.accountId, LISTED_KINDS, query.limit, query.offset, deps.clock.nowMs());
  return { body: { jobs: rows.map((j) => jobView(j, now)), page: page(query.limit, query.offset, total) } };
});

export const getJob = implement(contracts.getJob, { repos: ["jobs"] }, async ({ auth, repos, deps, params, query, now, request }) => {
  const read = () => repos.jobs.getOwned(auth!.accountId, params.id, deps.clock.nowMs());
  let job = await read();
  if (!job) throw new ApiError("not_found", `no job ${params.id} in your account`);
  const waitMs = Math.min(query.wait ?? 0, contracts.JOB_WAIT_MAX_S) * 1000;
  if (waitMs > 0 && !finished(job)) job = (await holdUntilFinished(job, read, waitMs, deps.switches, request.raw.socket)) ?? job;
  return { body: { job: jobView(job, Math.max(now, Math.floor(deps.clock.nowMs() / 1000))) } };
});

/** How often a held GET /jobs/{id}?wait=N looks at its job again: one indexed read per waiting client. */
const HOLD_POLL_MS = 500;

const finished = (job: JobRow) => job.state === "done" || job.state === "error";

/**
 * Reads the job again every HOLD_POLL_MS until it finishes, waitMs have passed (counted in sleeps,
 * so that an injected clock that stands still cannot hold a request for ever), the client has gone
 * or the gateway drains. Answers the job as last read (null when it disappeared meanwhile).
 */
async function holdUntilFinished(
  first: JobRow,
  read: () => Promise<JobRow | null>,
  waitMs: number,
  switches: { readonly draining: boolean },
  socket: NodeJS.EventEmitter | null | undefined,
): Promise<JobRow | null> {
  let gone = false;
  const onClose = () => {
    gone = true;
  };
  const watching = typeof socket?.once === "function";
  if (watching) socket.once("close", onClose);
  try {
    let job: JobRow | null = first;
    for (let waited = 0; waited < waitMs && job && !finished(job) && !gone && !switches.draining; ) {
      const step = Math.min(HOLD_POLL_MS, waitMs - waited);
      await sleep(step);
      waited += step;
      job = await read();
    }
    return job;
  } finally {
    if (watching) socket.removeListener("close", onClose);
  }
}

export const jobsHandlers = [startAnalysis, analyzeSiteSync, listJobs, getJob];
