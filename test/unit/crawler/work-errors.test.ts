import { describe, expect, it } from "vitest";
import {
  EgressBlockedError,
  FatalWorkError,
  failureOf,
  isRetryableWorkError,
  NonRetryableWorkError,
  RetryableWorkError,
  ThrottledWorkError,
  UndecodableWorkItemError,
  WorkerClosingError,
} from "../../../crawler/index.ts";
import { Retry } from "../../../proto/index.ts";

describe("worker errors carry their retry semantics", () => {
  it("one predicate reads them", () => {
    expect(failureOf(new RetryableWorkError("timeout", "slow"))).toEqual({ error: "timeout", detail: "slow", retry: Retry.RETRY_RETRYABLE, retryAfterMs: 0 });
    expect(failureOf(new NonRetryableWorkError("bad_task", "no url"))).toEqual({ error: "bad_task", detail: "no url", retry: Retry.RETRY_NEVER, retryAfterMs: 0 });
    expect(failureOf(new ThrottledWorkError("rate_limited", 1500.4, "429"))).toEqual({ error: "rate_limited", detail: "429", retry: Retry.RETRY_THROTTLED, retryAfterMs: 1500 });
    expect(failureOf(new FatalWorkError("token_revoked", "401"))).toEqual({ error: "token_revoked", detail: "401", retry: Retry.RETRY_FATAL, retryAfterMs: 0 });
    expect(failureOf(new Error("boom"))).toEqual({ error: "collect_failed", detail: "boom", retry: Retry.RETRY_RETRYABLE, retryAfterMs: 0 });
  });

  it("a refused address is never retried", () => {
    const blocked = new EgressBlockedError("intranet.example", "10.0.0.1", "private");
    expect(failureOf(blocked)).toMatchObject({ error: "blocked_private_address", retry: Retry.RETRY_NEVER });
  });

  it("decides for the bus too: what no attempt can fix is not delivered again", () => {
    expect(isRetryableWorkError(new WorkerClosingError())).toBe(true);
    expect(isRetryableWorkError(new ThrottledWorkError("x", 10, "x"))).toBe(true);
    expect(isRetryableWorkError(new UndecodableWorkItemError(new Error("junk")))).toBe(false);
    expect(isRetryableWorkError(new FatalWorkError("x", "x"))).toBe(false);
  });
});
