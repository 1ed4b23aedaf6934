import { createRequire } from "node:module";

/** What the fix touches of kafkajs's per-connection request queue (kafkajs/src/network/requestQueue). */
interface RequestQueueLike {
  pending: unknown[];
  inflight: Map<number, { sentAt: number; requestTimeout: number; timeoutRequest(): void }>;
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  requestTimeout: number;
  enforceRequestTimeout: boolean;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  isConnected(): boolean;
  destroy(): void;
}

type RequestQueueClass = { prototype: RequestQueueLike } & (new (options: Record<string, unknown>) => RequestQueueLike);

/** How long a queue waits before it looks at its pending requests again while throttled (kafkajs's own 10 ms). */
const CHECK_PENDING_MS = 10;
/**
 * How often a connection looks for requests past their timeout. kafkajs looks every 100 ms (or
 * the request timeout, if shorter), on every connection, idle or not: ten wake-ups a second per
 * broker connection. A second is enough for timeouts of seconds (kafkajs's requests time out after
 * 30 s by default, a fetch after its wait plus that): a request is failed at most a second after
 * its timeout instead of 0.1 s.
 */
export const REQUEST_TIMEOUT_CHECK_MS = 1000;

let applied: boolean | null = null;

/** kafkajs's RequestQueue class, or null when this kafkajs has none where 2.2.x keeps it. */
export function kafkajsRequestQueue(): RequestQueueClass | null {
  try {
    const RequestQueue = createRequire(import.meta.url)("kafkajs/src/network/requestQueue/index.js") as RequestQueueClass;
    const p = RequestQueue.prototype as unknown as Record<string, unknown>;
    const shaped = ["scheduleCheckPendingRequests", "scheduleRequestTimeoutCheck", "checkPendingRequests", "destroy"].every((m) => typeof p[m] === "function");
    return shaped ? RequestQueue : null;
  } catch {
    return null;
  }
}

/**
 * Mends two idle costs of kafkajs 2.2.4's request queue (one per broker connection), the whole
 * idle CPU of a crawler node once measured (docs/benchmarks.md, "Idle of the whole cluster"):
 *
 * - After every response it schedules a look at its pending requests even when none is pending,
 *   with a delay of `throttledUntil - now`, negative when not throttled: a 1 ms timer that re-arms
 *   itself for as long as the connection lives (kafkajs issues 1556 and 1704, unreleased fixes).
 *   Here a queue with nothing pending arms no timer; a request queued later arms one (push does),
 *   and a response or a timeout looks at the queue at once (fulfillRequest, the timeout handler),
 *   as before.
 * - Its request-timeout check runs every 100 ms per connection; here every
 *   REQUEST_TIMEOUT_CHECK_MS (or the request timeout, if shorter).
 *
 * Applied once per process, before the first Kafka client connects; returns whether it was (false
 * when kafkajs's internals are not where 2.2.x has them: then nothing is changed).
 */
export function mendKafkajsRequestQueue(): boolean {
  if (applied !== null) return applied;
  const RequestQueue = kafkajsRequestQueue();
  applied = RequestQueue !== null;
  if (!RequestQueue) return applied;
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueueLike) {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, Math.max(CHECK_PENDING_MS, this.throttledUntil - Date.now()));
  };
  RequestQueue.prototype.scheduleRequestTimeoutCheck = function (this: RequestQueueLike) {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this.requestTimeoutIntervalId = setInterval(
      () => {
        const now = Date.now();
        for (const request of this.inflight.values()) if (now - request.sentAt > request.requestTimeout) request.timeoutRequest();
        if (!this.isConnected()) this.destroy();
      },
      Math.min(this.requestTimeout, REQUEST_TIMEOUT_CHECK_MS),
    );
  };
  return applied;
}
