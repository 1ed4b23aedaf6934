import { createRequire } from "node:module";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { kafkajsRequestQueue, mendKafkajsRequestQueue, REQUEST_TIMEOUT_CHECK_MS } from "../../../runtime/kafkajs-request-queue.ts";

// kafkajs's per-connection request queue, driven as a broker connection drives it (push a request,
// the broker answers, fulfillRequest) under fake timers. Unmended, kafkajs 2.2.4 keeps a 1 ms
// timer re-arming itself after the first answer, for as long as the connection lives.

type Queue = {
  push(r: { entry: Entry; expectResponse: boolean; sendRequest: () => void; requestTimeout?: number }): void;
  fulfillRequest(r: { correlationId: number; payload: Buffer; size: number }): void;
  checkPendingRequests(): void;
  maybeThrottle(ms: number | null): void;
  destroy(): void;
  pending: unknown[];
};
type Entry = { correlationId: number; apiName: string; apiKey: number; apiVersion: number; resolve: (v: unknown) => void; reject: (e: unknown) => void };

type QueueClass = new (options: Record<string, unknown>) => unknown;
const RequestQueue = kafkajsRequestQueue() as unknown as QueueClass | null;

/** A copy of kafkajs's class loaded apart from the one the process uses (and mends): kafkajs as shipped. */
function unmendedRequestQueue(): QueueClass {
  const require = createRequire(import.meta.url);
  const path = require.resolve("kafkajs/src/network/requestQueue/index.js");
  const shared = require.cache[path];
  delete require.cache[path];
  try {
    return require(path) as QueueClass;
  } finally {
    if (shared) require.cache[path] = shared;
  }
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const queues: Queue[] = [];

function queue(options: { requestTimeout?: number; maxInFlightRequests?: number } = {}, Class = RequestQueue): Queue {
  if (!Class) throw new Error("kafkajs's RequestQueue not found");
  const q = new Class({ requestTimeout: options.requestTimeout ?? 30_000, enforceRequestTimeout: true, maxInFlightRequests: options.maxInFlightRequests ?? null, clientId: "t", broker: "b:9092", logger: silent }) as Queue;
  (q as unknown as { scheduleRequestTimeoutCheck(): void }).scheduleRequestTimeoutCheck();
  queues.push(q);
  return q;
}

let nextId = 1;
function request(q: Queue, sent: number[], outcome: { settled?: string } = {}): number {
  const correlationId = nextId++;
  const entry: Entry = { correlationId, apiName: "Fetch", apiKey: 1, apiVersion: 11, resolve: () => (outcome.settled = "answered"), reject: (e) => (outcome.settled = String((e as Error).name)) };
  q.push({ entry, expectResponse: true, sendRequest: () => sent.push(correlationId) });
  return correlationId;
}

/** How many times the queue looks at its pending requests during `ms` of fake time. */
function looksDuring(q: Queue, ms: number): number {
  const look = vi.spyOn(q, "checkPendingRequests");
  vi.advanceTimersByTime(ms);
  const n = look.mock.calls.length;
  look.mockRestore();
  return n;
}

describe("kafkajs's request queue, mended", () => {
  beforeAll(() => {
    expect(RequestQueue).not.toBeNull();
  });
  afterEach(() => {
    for (const q of queues.splice(0)) q.destroy();
    vi.useRealTimers();
  });

  it("unmended, an idle connection looks at its empty queue every millisecond", () => {
    vi.useFakeTimers();
    const q = queue({}, unmendedRequestQueue());
    const sent: number[] = [];
    const id = request(q, sent);
    q.fulfillRequest({ correlationId: id, payload: Buffer.alloc(0), size: 0 });
    expect(looksDuring(q, 1000)).toBeGreaterThan(500);
  });

  it("an idle connection arms no timer after an answer", () => {
    expect(mendKafkajsRequestQueue()).toBe(true);
    vi.useFakeTimers();
    const q = queue();
    const sent: number[] = [];
    const outcome: { settled?: string } = {};
    const id = request(q, sent, outcome);
    expect(sent).toEqual([id]);
    q.fulfillRequest({ correlationId: id, payload: Buffer.alloc(0), size: 0 });
    expect(outcome.settled).toBe("answered");
    expect(looksDuring(q, 10_000)).toBe(0);
  });

  it("a request queued behind the in-flight limit goes out when the one before it is answered", () => {
    mendKafkajsRequestQueue();
    vi.useFakeTimers();
    const q = queue({ maxInFlightRequests: 1 });
    const sent: number[] = [];
    const first = request(q, sent);
    const second = request(q, sent);
    expect(sent).toEqual([first]);
    q.fulfillRequest({ correlationId: first, payload: Buffer.alloc(0), size: 0 });
    expect(sent).toEqual([first, second]);
  });

  it("a request queued while the broker throttles goes out when the throttle ends, not before", () => {
    mendKafkajsRequestQueue();
    vi.useFakeTimers();
    const q = queue();
    const sent: number[] = [];
    q.maybeThrottle(250);
    const id = request(q, sent);
    vi.advanceTimersByTime(240);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(sent).toEqual([id]);
    expect(q.pending).toHaveLength(0);
  });

  it("a request past its timeout fails within a second of the timeout", () => {
    mendKafkajsRequestQueue();
    vi.useFakeTimers();
    const q = queue({ requestTimeout: 5000 });
    const sent: number[] = [];
    const outcome: { settled?: string } = {};
    request(q, sent, outcome);
    vi.advanceTimersByTime(5000);
    expect(outcome.settled).toBeUndefined();
    vi.advanceTimersByTime(REQUEST_TIMEOUT_CHECK_MS);
    expect(outcome.settled).toBe("KafkaJSRequestTimeoutError");
  });
});
