import type { ServiceError } from "@grpc/grpc-js";
import { RunCheckRequest, StartAnalysisRequest, StartCrawlRequest, type SchedulerServiceClient } from "../proto/index.ts";
import { callUnary, catalogueCode, grpcStatus } from "../runtime/index.ts";
import { ApiError, ERROR_CODES, type ErrorCode } from "./errors.ts";

/** What the gateway asks of the scheduler: everything that runs work goes this way, over gRPC. */
export interface SchedulerPort {
  /** charge false: not counted against the plan's daily checks (a task re-check counts against its own limit). */
  startAnalysis(accountId: number, host: string, fresh: boolean, charge?: boolean): Promise<{ jobId: number; cached: boolean }>;
  startCrawl(accountId: number, host: string, fresh: boolean): Promise<{ jobId: number; cached: boolean }>;
  runCheck(accountId: number, host: string, fresh: boolean, waitMs: number): Promise<{ jobId: number; done: boolean; cached: boolean }>;
  /** A single live check (page URL, certificate or DNS of a host, a network utility's run, a re-check's look) in the synchronous lane; kind is the work kind's name. */
  runSingle(accountId: number, kind: "page" | "tls" | "dns" | "utility" | "recheck", target: string, waitMs: number, charge?: boolean): Promise<{ jobId: number; done: boolean }>;
  /** One attempt of a test delivery in the synchronous lane (the webhook kind's target: "<delivery>@<receiver host>"). */
  sendWebhookTest(accountId: number, deliveryId: number, receiverHost: string, waitMs: number): Promise<{ jobId: number; done: boolean }>;
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

export function grpcSchedulerPort(client: SchedulerServiceClient): SchedulerPort {
  return {
    async startAnalysis(accountId, host, fresh, charge = true) {
      try {
        const res = await callUnary(client.startAnalysis.bind(client), StartAnalysisRequest.fromPartial({ accountId, host, fresh, charge }), { deadlineMs: 5000, retries: 2, waitForReady: true });
        return { jobId: res.jobId, cached: res.cached };
      } catch (err) {
        throw toApiError(err);
      }
    },
    async startCrawl(accountId, host, fresh) {
      try {
        // Not retried: a retry after a lost answer would charge and start a second crawl.
        const res = await callUnary(client.startCrawl.bind(client), StartCrawlRequest.fromPartial({ accountId, host, fresh }), { deadlineMs: 5000, retries: 0, waitForReady: true });
        return { jobId: res.jobId, cached: res.cached };
      } catch (err) {
        throw toApiError(err);
      }
    },
    async runCheck(accountId, host, fresh, waitMs) {
      try {
        const res = await callUnary(
          client.runCheck.bind(client),
          RunCheckRequest.fromPartial({ accountId, kind: "analyze", target: host, fresh, waitMs }),
          // Not retried: a retry would start a second check.
          { deadlineMs: waitMs + 5000, retries: 0, waitForReady: true },
        );
        return { jobId: res.jobId, done: res.done, cached: res.cached };
      } catch (err) {
        throw toApiError(err);
      }
    },
    async runSingle(accountId, kind, target, waitMs, charge = true) {
      try {
        const res = await callUnary(
          client.runCheck.bind(client),
          RunCheckRequest.fromPartial({ accountId, kind, target, waitMs, uncharged: !charge }),
          { deadlineMs: waitMs + 5000, retries: 0, waitForReady: true },
        );
        return { jobId: res.jobId, done: res.done };
      } catch (err) {
        throw toApiError(err);
      }
    },
    async sendWebhookTest(accountId, deliveryId, receiverHost, waitMs) {
      try {
        const res = await callUnary(
          client.runCheck.bind(client),
          RunCheckRequest.fromPartial({ accountId, kind: "webhook", target: `${deliveryId}@${receiverHost}`, waitMs }),
          // Not retried: a retry would send the test twice.
          { deadlineMs: waitMs + 5000, retries: 0, waitForReady: true },
        );
        return { jobId: res.jobId, done: res.done };
      } catch (err) {
        throw toApiError(err);
      }
    },
  };
}
