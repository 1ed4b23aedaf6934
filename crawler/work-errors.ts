import { Retry } from "../proto/index.ts";
import { EgressBlockedError } from "./fetch/egress.ts";

/*
 * A worker's errors carry their retry semantics in their type, and one function (failureOf)
 * reads them: what the attempt's completion tells the scheduler, and whether the bus should hand
 * the message out again. Kinds throw these; anything else a kind throws is unexpected and worth
 * another attempt.
 */

/** Another attempt may succeed; this one counts against the job's attempts. */
export class RetryableWorkError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = "RetryableWorkError";
  }
}

/** No attempt can succeed: the job ends with this reason. */
export class NonRetryableWorkError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = "NonRetryableWorkError";
  }
}

/** The target asked us to wait (429, 503 with Retry-After): queued again after delayMs, the attempt not counted. */
export class ThrottledWorkError extends Error {
  constructor(readonly reason: string, readonly delayMs: number, message: string) {
    super(message);
    this.name = "ThrottledWorkError";
  }
}

/** No attempt can succeed and the work's source is unusable (a revoked token, an address gone for good): the kind decides what follows. */
export class FatalWorkError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = "FatalWorkError";
  }
}

/** The worker is closing: the message was not taken and goes to another node. */
export class WorkerClosingError extends Error {
  constructor() {
    super("worker closing");
    this.name = "WorkerClosingError";
  }
}

/** A bus message that is no WorkItem: no attempt can succeed, so it is a dead letter at once. */
export class UndecodableWorkItemError extends Error {
  constructor(cause: unknown) {
    super(`not a WorkItem: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = "UndecodableWorkItemError";
  }
}

export interface Failure {
  readonly error: string;
  readonly detail: string;
  readonly retry: Retry;
  readonly retryAfterMs: number;
}

/** The one predicate: what an error means for the next attempt. */
export function failureOf(err: unknown): Failure {
  const detail = (err as Error)?.message ?? String(err);
  if (err instanceof ThrottledWorkError) return { error: err.reason, detail, retry: Retry.RETRY_THROTTLED, retryAfterMs: Math.max(0, Math.round(err.delayMs)) };
  if (err instanceof FatalWorkError) return { error: err.reason, detail, retry: Retry.RETRY_FATAL, retryAfterMs: 0 };
  if (err instanceof NonRetryableWorkError) return { error: err.reason, detail, retry: Retry.RETRY_NEVER, retryAfterMs: 0 };
  // A refused address stays refused.
  if (err instanceof EgressBlockedError) return { error: err.reason, detail, retry: Retry.RETRY_NEVER, retryAfterMs: 0 };
  if (err instanceof UndecodableWorkItemError) return { error: "undecodable", detail, retry: Retry.RETRY_NEVER, retryAfterMs: 0 };
  if (err instanceof RetryableWorkError) return { error: err.reason, detail, retry: Retry.RETRY_RETRYABLE, retryAfterMs: 0 };
  // Unreachable sites are recorded in the facts; what throws is unexpected, and worth another attempt.
  return { error: "collect_failed", detail, retry: Retry.RETRY_RETRYABLE, retryAfterMs: 0 };
}

/** For the bus: whether a message whose handler threw this should be delivered again. */
export function isRetryableWorkError(err: unknown): boolean {
  const retry = failureOf(err).retry;
  return retry !== Retry.RETRY_NEVER && retry !== Retry.RETRY_FATAL;
}
