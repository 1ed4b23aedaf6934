import { Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { callUnary } from "../../../runtime/index.ts";
import { toApiError } from "../../../gateway/scheduler-port.ts";

// A scheduler restart seen from its clients: calls fail UNAVAILABLE for a while, then answer.

function unavailable(): ServiceError {
  return Object.assign(new Error("14 UNAVAILABLE: No connection established"), { code: status.UNAVAILABLE, details: "No connection established", metadata: new Metadata() });
}

/** A unary method that fails UNAVAILABLE `failures` times, then answers "ok"; counts its calls. */
function flaky(failures: number) {
  const calls = { n: 0 };
  const method = (_req: string, _md: Metadata, _opts: unknown, cb: (err: ServiceError | null, res: string) => void) => {
    calls.n += 1;
    queueMicrotask(() => (calls.n <= failures ? cb(unavailable(), "") : cb(null, "ok")));
  };
  return { method, calls };
}

describe("callUnary across a scheduler away", () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "Date"] }));
  afterEach(() => void vi.useRealTimers());

  it("gives up after its retries when no retry time is given (about 0.35 s of backoff for 3)", async () => {
    const { method, calls } = flaky(10);
    const call = callUnary(method, "req", { deadlineMs: 1000, retries: 3 });
    const outcome = call.then(() => "answered", (err: ServiceError) => err.code);
    await vi.runAllTimersAsync();
    expect(await outcome).toBe(status.UNAVAILABLE);
    expect(calls.n).toBe(4);
  });

  it("keeps retrying until the given time, then answers once the scheduler is back", async () => {
    const { method, calls } = flaky(10);
    const until = Date.now() + 30_000;
    const call = callUnary(method, "req", { deadlineMs: 1000, retries: 3, retryUntilMs: () => until });
    await vi.runAllTimersAsync();
    expect(await call).toBe("ok");
    expect(calls.n).toBe(11);
    // Backoff is capped at 2 s: ten failures fit well within the 30 s.
    expect(Date.now()).toBeLessThan(until);
  });

  it("stops retrying once the given time has passed", async () => {
    const { method, calls } = flaky(1000);
    const until = Date.now() + 5_000;
    const outcome = callUnary(method, "req", { deadlineMs: 1000, retries: 3, retryUntilMs: () => until }).then(() => "answered", (err: ServiceError) => err.code);
    await vi.runAllTimersAsync();
    expect(await outcome).toBe(status.UNAVAILABLE);
    expect(Date.now()).toBeLessThanOrEqual(until);
    expect(calls.n).toBeGreaterThan(4);
    expect(calls.n).toBeLessThan(20);
  });
});

describe("the gateway's answer while the scheduler is away", () => {
  it("is 503 maintenance with Retry-After, not 500 server", () => {
    const err = toApiError(unavailable());
    expect({ code: err.code, http: err.http, retry: err.retry, retryAfter: err.options.retryAfter }).toEqual({ code: "maintenance", http: 503, retry: true, retryAfter: 2 });
    const late = toApiError(Object.assign(new Error("4 DEADLINE_EXCEEDED"), { code: status.DEADLINE_EXCEEDED, details: "", metadata: new Metadata() }));
    expect([late.code, late.http]).toEqual(["maintenance", 503]);
    // A scheduler stopping cancels the calls still running past its drain budget.
    const cancelled = toApiError(Object.assign(new Error("1 CANCELLED: Call cancelled"), { code: status.CANCELLED, details: "Call cancelled", metadata: new Metadata() }));
    expect([cancelled.code, cancelled.http, cancelled.options.retryAfter]).toEqual(["maintenance", 503, 2]);
  });
});
