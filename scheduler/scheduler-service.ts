import type { sendUnaryData, ServerUnaryCall, UntypedHandleCall } from "@grpc/grpc-js";
import {
  CheckpointResponse,
  CompleteResponse,
  CrawledPage,
  CrawlPagesResponse,
  HeartbeatResponse,
  JobState,
  LeaseResponse,
  PutPagesResponse,
  Retry,
  RunCheckResponse,
  StartAnalysisResponse,
  StartCrawlResponse,
  type CheckpointRequest,
  type CompleteRequest,
  type CrawlPagesRequest,
  type HeartbeatRequest,
  type LeaseRequest,
  type LeaseTask,
  type PutPagesRequest,
  type RunCheckRequest,
  type SchedulerServiceServer,
  type StartAnalysisRequest,
  type StartCrawlRequest,
  type SyncKind,
  type SyncResult,
  type SyncTask,
  WORK_KIND_INFO,
} from "../proto/index.ts";
import type { Clock, Config, Logger } from "../runtime/index.ts";
import { unixSeconds } from "../runtime/index.ts";
import { unavailableEngine, type AttemptFailure, type JobRow, type RetryRule, type Store } from "../storage/index.ts";
import { grpcError, status } from "./grpc-errors.ts";
import { jobEvent } from "./job-events.ts";
import { completeJob, failJob } from "./job-settlement.ts";
import { encodeTask, reposOf, schedulerKind, type KindContext, type Lane, type SchedulerKind } from "./kinds/index.ts";
import { workMessage } from "./messages.ts";
import type { FailoverEvents } from "./failover.ts";
import type { OutboxRelay } from "./relay.ts";
import { Waiters } from "./waiters.ts";

export interface SchedulerCore {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly relay: OutboxRelay;
  /** This replica's name: the reply address of its synchronous checks. */
  readonly replica: string;
  readonly failover?: FailoverEvents;
}

type Handler<Req, Res> = (call: ServerUnaryCall<Req, Res>, cb: sendUnaryData<Res>) => void;

function unary<Req, Res>(logger: Logger, fn: (req: Req) => Promise<Res>): Handler<Req, Res> {
  return (call, cb) => {
    fn(call.request).then(
      (res) => cb(null, res),
      (err: unknown) => {
        const e = err as { code?: number; metadata?: unknown };
        if (typeof e.code === "number" && e.metadata) cb(err as Error, null);
        else if (unavailableEngine(err)) {
          // A store restarting (a failover, a maintenance) is not the call's fault: UNAVAILABLE
          // without a catalogue code, which callers retry with backoff (crawlers until their
          // lease's end). The outage itself is logged once, by the store's engine states.
          cb(grpcError(status.UNAVAILABLE, "", (err as Error).message), null);
        } else {
          logger.error({ err }, "scheduler call failed");
          cb(grpcError(status.INTERNAL, "server", "scheduler fault"), null);
        }
      },
    );
  };
}

const RETRY_RULES: Readonly<Record<Retry, RetryRule>> = {
  [Retry.RETRY_UNSPECIFIED]: "retryable",
  [Retry.RETRY_RETRYABLE]: "retryable",
  [Retry.RETRY_NEVER]: "never",
  [Retry.RETRY_THROTTLED]: "throttled",
  [Retry.RETRY_FATAL]: "fatal",
  [Retry.UNRECOGNIZED]: "retryable",
};

/**
 * The Scheduler gRPC service over Postgres: jobs, leases and results. It dispatches on a job's
 * kind through the kind table (scheduler/kinds/) and never branches on a kind's name.
 */
export function schedulerHandlers(core: SchedulerCore): SchedulerServiceServer & Record<string, UntypedHandleCall> {
  const { store, config, clock, logger, relay } = core;
  const waiters = new Waiters();
  const now = () => unixSeconds(clock);
  const ctx: KindContext = { config, clock, logger, now };
  const message = (job: JobRow) => workMessage(job, core.replica);

  /**
   * Starts a job of a kind on a lane: a fresh earlier result answers when the kind has one (a done
   * job, not charged); otherwise the kind's cost is charged and a queued job with its outbox
   * message is written in one transaction. The row keeps the caller's task (none: the kind makes
   * it at lease, as analyses and crawls started on the job lane do).
   */
  async function start(name: string, accountId: number, host: string, task: LeaseTask | null, o: { fresh: boolean; charge: boolean; lane: Lane }): Promise<{ job: JobRow; cached: boolean }> {
    const kind = schedulerKind(name);
    if (!kind) throw grpcError(status.INVALID_ARGUMENT, "bad_param", `no work kind named ${name}`);
    if (!WORK_KIND_INFO[kind.name].lanes.includes(o.lane)) throw grpcError(status.INVALID_ARGUMENT, "bad_param", `${name} work does not travel the ${o.lane} lane`);
    if (!o.fresh && kind.reuse) {
      const runId = await kind.reuse(ctx, reposOf(kind, store), host);
      if (runId !== null) return { job: await store.jobs.createCached(accountId, kind.name, host, runId, now()), cached: true };
    }
    if (o.charge && kind.cost > 0) await chargeChecks(accountId, kind.cost);
    const job = await store.jobs.createQueued(
      { accountId, kind: kind.name, host, sync: o.lane === "sync", maxAttempts: config.maxAttempts, task: task ? encodeTask(task) : null },
      now(),
      message,
    );
    relay.kick();
    return { job, cached: false };
  }

  /** A synchronous call: the task's job, waited for up to waitMs, answered with its state and its result arm. */
  async function runSync(req: RunCheckRequest): Promise<RunCheckResponse> {
    if (!req.task) throw grpcError(status.INVALID_ARGUMENT, "bad_param", "a synchronous call without a task");
    const name = req.task.$case;
    const kind = schedulerKind(name) as SchedulerKind<SyncKind> | null;
    const host = hostOf(kind, req.task, req.host);
    // uncharged: a task re-check's narrow run, counted by the gateway against rechecks_per_day.
    const { job, cached } = await start(name, req.accountId, host, req.task, { fresh: req.fresh, charge: !req.uncharged, lane: "sync" });
    if (cached) return answered(req, job, true);
    await waiters.wait(job.id, Math.max(100, req.waitMs), async () => {
      const j = await store.jobs.get(job.id);
      return j?.state === "done" || j?.state === "error";
    });
    // The job as it ended, whoever told the wait (a completion on this replica, or a poll).
    const j = await store.jobs.get(job.id);
    if (!j || (j.state !== "done" && j.state !== "error")) return RunCheckResponse.fromPartial({ jobId: job.id, state: JobState.JOB_STATE_RUNNING });
    if (j.state === "error") return RunCheckResponse.fromPartial({ jobId: j.id, state: JobState.JOB_STATE_ERROR, error: j.error ?? "failed", errorDetail: j.error_detail ?? "", finished: j.finished ?? j.updated });
    return answered(req, j, false);
  }

  /** The answer of a done job: its kind's result arm, rebuilt from what settle left on the row (taken from it when the kind keeps nothing). */
  async function answered(req: RunCheckRequest, j: JobRow, cached: boolean): Promise<RunCheckResponse> {
    const kind = schedulerKind(j.kind);
    const doc = await (kind?.answerOnce ? store.jobs.takeResult(req.accountId, j.id) : store.jobs.result(req.accountId, j.id));
    const result = kind?.answer ? ({ $case: kind.name, value: kind.answer(doc ?? {}) } as SyncResult) : undefined;
    return RunCheckResponse.fromPartial({ jobId: j.id, cached, state: JobState.JOB_STATE_DONE, runId: j.run_id ?? 0, finished: j.finished ?? j.updated, result });
  }

  async function chargeChecks(accountId: number, cost: number): Promise<void> {
    const plan = await store.accounts.planOfAccount(accountId);
    const perDay = plan?.checks_per_day ?? 0;
    const day = Math.floor(now() / 86400);
    const n = await store.auth.charge(`d:checks:${accountId}`, day, cost, perDay);
    if (n === null) {
      const untilTomorrow = (day + 1) * 86400 - now();
      throw grpcError(status.RESOURCE_EXHAUSTED, "limit", `your plan allows ${perDay} checks a day`, untilTomorrow);
    }
  }

  /** A kind's task for the lease, as the proto's arm of the same name. */
  async function leaseTask(job: JobRow): Promise<LeaseTask> {
    const kind = schedulerKind(job.kind);
    if (!kind) throw grpcError(status.FAILED_PRECONDITION, "server", `job ${job.id} has an unknown kind ${job.kind}`);
    return { $case: kind.name, value: await kind.task(ctx, reposOf(kind, store), job) } as LeaseTask;
  }

  /** The completion of a failure: what the crawler said the next attempt is worth decides. */
  function fail(req: CompleteRequest): Promise<"requeued" | "failed" | "not_held"> {
    const failure: AttemptFailure = { error: req.error || "failed", detail: req.errorDetail, retry: RETRY_RULES[req.retry] ?? "retryable", delayMs: req.retryAfterMs };
    return failJob(ctx, store, req.jobId, req.worker, failure, message);
  }

  return {
    startAnalysis: unary(logger, async (req: StartAnalysisRequest) => {
      const { job, cached } = await start("analyze", req.accountId, req.host, null, { fresh: req.fresh, charge: req.charge, lane: "job" });
      return StartAnalysisResponse.fromPartial({ jobId: job.id, cached });
    }),

    startCrawl: unary(logger, async (req: StartCrawlRequest) => {
      const { job, cached } = await start("crawl", req.accountId, req.host, null, { fresh: req.fresh, charge: true, lane: "job" });
      return StartCrawlResponse.fromPartial({ jobId: job.id, cached });
    }),

    runCheck: unary(logger, runSync),

    putPages: unary(logger, async (req: PutPagesRequest) => {
      const pages = req.pages.map((p) => ({
        url: p.url,
        depth: p.depth,
        status: p.status,
        skipped: p.skipped,
        title: p.title,
        words: p.words,
        outlinks: p.internalLinks.length + p.externalLinks.length,
        issues: p.issues,
        data: CrawledPage.toJSON(p),
      }));
      // The lease is checked and renewed here, on the account database, in one statement; the page
      // store (ClickHouse in the distributed mode) is given the attempt it holds. A write that fails
      // after the renewal fails the call (the crawler retries it, or abandons the attempt); a lease
      // lost between the renewal and the write leaves rows of an older attempt, which the next
      // attempt's rows outrank.
      const lease = await store.jobs.renewHolding(req.jobId, req.worker, clock.nowMs(), config.leaseMs, req.progress, req.step || "crawling");
      if (!lease) return PutPagesResponse.fromPartial({ keepGoing: false });
      await store.crawlPages.put(lease, pages);
      return PutPagesResponse.fromPartial({ keepGoing: true });
    }),

    crawlPages: unary(logger, async (req: CrawlPagesRequest) => {
      const job = await store.jobs.get(req.jobId);
      if (!job || job.worker !== req.worker || job.state !== "running") return CrawlPagesResponse.fromPartial({ pages: [], more: false });
      const limit = Math.max(1, Math.min(1000, req.limit || 500));
      const rows = await store.crawlPages.jobPages(req.jobId, Math.max(0, req.offset), limit + 1);
      return CrawlPagesResponse.fromPartial({ pages: rows.slice(0, limit).map((r) => CrawledPage.fromJSON(r)), more: rows.length > limit });
    }),

    lease: unary(logger, async (req: LeaseRequest) => {
      const out = await store.jobs.lease(req.jobId, req.worker, clock.nowMs(), config.leaseMs);
      if (!out.granted) {
        if (out.reason === "exhausted") {
          const job = await store.jobs.get(req.jobId);
          if (job) await store.events.add([jobEvent(job, "error", { error: "attempts_exhausted" })], now());
          waiters.done(req.jobId);
        }
        return LeaseResponse.fromPartial({ granted: false });
      }
      const j = out.job;
      core.failover?.granted(j);
      return LeaseResponse.fromPartial({
        granted: true,
        leaseUntilMs: j.lease_until_ms ?? 0,
        attempt: j.attempt,
        checkpoint: Buffer.from(j.checkpoint ?? new Uint8Array()),
        host: j.host,
        task: await leaseTask(j),
      });
    }),

    heartbeat: unary(logger, async (req: HeartbeatRequest) => {
      const ok = await store.jobs.heartbeat(req.jobId, req.worker, clock.nowMs(), config.leaseMs, req.progress, req.step);
      return HeartbeatResponse.fromPartial({ keepGoing: ok, leaseUntilMs: ok ? clock.nowMs() + config.leaseMs : 0 });
    }),

    checkpoint: unary(logger, async (req: CheckpointRequest) => {
      const ok = await store.jobs.heartbeat(req.jobId, req.worker, clock.nowMs(), config.leaseMs, req.progress, req.step, req.state);
      return CheckpointResponse.fromPartial({ keepGoing: ok });
    }),

    complete: unary(logger, async (req: CompleteRequest) => {
      if (req.result && !req.error) {
        const accepted = await completeJob(ctx, store, req.jobId, req.worker, req.result);
        waiters.done(req.jobId);
        return CompleteResponse.fromPartial({ accepted });
      }
      const outcome = await fail(req);
      // Another attempt follows: a synchronous caller keeps waiting for it.
      if (outcome === "requeued") relay.kick();
      else waiters.done(req.jobId);
      return CompleteResponse.fromPartial({ accepted: outcome !== "not_held" });
    }),
  };
}

/** The host of a caller's task, refused as a bad parameter when the task names no usable target (e.g. a page URL that does not parse). */
function hostOf(kind: SchedulerKind<SyncKind> | null, task: SyncTask, site: string): string {
  if (!kind?.hostOf) return site;
  try {
    return kind.hostOf(task.value, site);
  } catch {
    throw grpcError(status.INVALID_ARGUMENT, "bad_param", `no target of ${task.$case} work in the task`);
  }
}
