import type { ServiceError } from "@grpc/grpc-js";
import { JobState, RunCheckRequest, type RunCheckResponse, StartAnalysisRequest, StartCrawlRequest, type ResultOf, type SchedulerServiceClient, type SyncKind, type TaskOf } from "../proto/index.ts";
import { callUnary, catalogueCode, channelReady, grpcStatus } from "../runtime/index.ts";
import { ApiError, ERROR_CODES, type ErrorCode } from "./errors.ts";

/** A task of the synchronous lane, as the proto's arm. */
export interface SyncTaskOf<K extends SyncKind> {
  readonly $case: K;
  readonly value: TaskOf<K>;
}

export interface SyncOptions {
  readonly waitMs: number;
  /** The site, for a task that names none (analyze). */
  readonly host?: string;
  /** Ignore a fresh earlier result (analyze). */
  readonly fresh?: boolean;
  /** false: not counted against the plan's daily checks (a task re-check counts against its own limit). */
  readonly charge?: boolean;
}

/** What a synchronous run answers. finished: when the job ended (unix seconds); runId: the run an analysis wrote. */
export type SyncAnswer<K extends SyncKind> =
  | { readonly state: "done"; readonly jobId: number; readonly result: ResultOf<K>; readonly runId: number | null; readonly finished: number; readonly cached: boolean }
  | { readonly state: "running"; readonly jobId: number }
  | { readonly state: "error"; readonly jobId: number; readonly error: string; readonly detail: string; readonly finished: number };

/** What the gateway asks of the scheduler: everything that runs work goes this way, over gRPC. */
export interface SchedulerPort {
  /** charge false: not counted against the plan's daily checks (a task re-check counts against its own limit). */
  startAnalysis(accountId: number, host: string, fresh: boolean, charge?: boolean): Promise<{ jobId: number; cached: boolean }>;
  startCrawl(accountId: number, host: string, fresh: boolean): Promise<{ jobId: number; cached: boolean }>;
  /**
   * Runs a task in the synchronous lane and waits up to waitMs for it: the kind's result when its
   * job is done, the job to poll while it runs, or why it failed for good.
   */
  runSync<K extends SyncKind>(accountId: number, task: SyncTaskOf<K>, o: SyncOptions): Promise<SyncAnswer<K>>;
}

/** The scheduler's errors as the catalogue's, in this one place. */
export function toApiError(err: unknown): ApiError {
  const e = err as ServiceError;
  const code = typeof e.code === "number" ? catalogueCode(e) : null;
  if (code && (ERROR_CODES as string[]).includes(code)) {
    const retry = e.metadata?.get("svc-retry-after")[0];
    return new ApiError(code as ErrorCode, e.details || e.message, {
      ...(typeof retry === "string" ? { retryAfter: Number(retry) } : {}),
      ...(code === "limit" ? { details: { policy: "checks_per_day" } } : {}),
    });
  }
  // The scheduler away (a restart, a rollout) or too busy to answer in time is the service being
  // briefly unavailable, not a fault of the request: 503 with Retry-After, never 500.
  if (e.code === grpcStatus.UNAVAILABLE) {
    return new ApiError("maintenance", "the scheduler is restarting or unreachable; retry after Retry-After", { retryAfter: 2 });
  }
  // A scheduler stopping cancels the calls still running past its drain budget.
  if (e.code === grpcStatus.CANCELLED) {
    return new ApiError("maintenance", "the scheduler stopped during the call; retry after Retry-After", { retryAfter: 2 });
  }
  if (e.code === grpcStatus.DEADLINE_EXCEEDED) {
    return new ApiError("maintenance", "the scheduler did not answer in time (restarting, unreachable or busy); retry after Retry-After", { retryAfter: 2 });
  }
  return new ApiError("server", "the scheduler failed");
}

/**
 * How long a call that starts work waits for the scheduler to be reachable (a restart, a rollout,
 * the channel's reconnect backoff) before it answers 503 maintenance; the call itself is sent only
 * once connected, with its own deadline.
 */
export const SCHEDULER_CONNECT_WAIT_MS = 5000;

export function grpcSchedulerPort(client: SchedulerServiceClient): SchedulerPort {
  return {
    async startAnalysis(accountId, host, fresh, charge = true) {
      try {
        await channelReady(client, SCHEDULER_CONNECT_WAIT_MS);
        const res = await callUnary(client.startAnalysis.bind(client), StartAnalysisRequest.fromPartial({ accountId, host, fresh, charge }), { deadlineMs: 5000, retries: 2 });
        return { jobId: res.jobId, cached: res.cached };
      } catch (err) {
        throw toApiError(err);
      }
    },
    async startCrawl(accountId, host, fresh) {
      try {
        await channelReady(client, SCHEDULER_CONNECT_WAIT_MS);
        // Not retried: a retry after a lost answer would charge and start a second crawl.
        const res = await callUnary(client.startCrawl.bind(client), StartCrawlRequest.fromPartial({ accountId, host, fresh }), { deadlineMs: 5000, retries: 0 });
        return { jobId: res.jobId, cached: res.cached };
      } catch (err) {
        throw toApiError(err);
      }
    },
    async runSync<K extends SyncKind>(accountId: number, task: SyncTaskOf<K>, o: SyncOptions): Promise<SyncAnswer<K>> {
      let res;
      try {
        await channelReady(client, SCHEDULER_CONNECT_WAIT_MS);
        res = await callUnary(
          client.runCheck.bind(client),
          RunCheckRequest.fromPartial({ accountId, task: task as RunCheckRequest["task"], host: o.host ?? "", fresh: o.fresh ?? false, uncharged: o.charge === false, waitMs: o.waitMs }),
          // Not retried: a retry would start (and charge, and send) the work a second time.
          { deadlineMs: o.waitMs + 5000, retries: 0 },
        );
      } catch (err) {
        throw toApiError(err);
      }
      return answerOf(task.$case, res);
    },
  };
}

/** The scheduler's answer in the port's terms: a done job carries the arm of its task, or the answer is a fault. */
function answerOf<K extends SyncKind>(kind: K, res: RunCheckResponse): SyncAnswer<K> {
  const jobId = res.jobId;
  if (res.state === JobState.JOB_STATE_ERROR) return { state: "error", jobId, error: res.error || "failed", detail: res.errorDetail, finished: res.finished };
  if (res.state !== JobState.JOB_STATE_DONE) return { state: "running", jobId };
  if (res.result?.$case !== kind) throw new ApiError("server", `the scheduler answered ${kind} work without its result`);
  return { state: "done", jobId, result: res.result.value as ResultOf<K>, runId: res.runId || null, finished: res.finished, cached: res.cached };
}
