import { contextOfHeaders, currentTraceHeaders, TRACEPARENT, withSpan } from "./tracing.ts";

/** A message on the bus: protobuf bytes under a key (the registrable domain). */
export interface BusMessage {
  readonly topic: string;
  readonly key: string;
  readonly payload: Uint8Array;
  /**
   * Message headers (Kafka headers; carried as they are in process): the W3C trace context
   * (traceparent, tracestate) of the work that published it.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The message with the trace context of the work under way, unless it carries one already. */
export function withTraceHeaders(m: BusMessage): BusMessage {
  if (m.headers?.[TRACEPARENT]) return m;
  const trace = currentTraceHeaders();
  return trace[TRACEPARENT] ? { ...m, headers: { ...m.headers, ...trace } } : m;
}

/** Runs a handler on a message: in a consumer span of the message's trace when it carries one. */
export function deliverTraced(handler: BusHandler, m: BusMessage): Promise<void> {
  const parent = contextOfHeaders(m.headers);
  if (!parent) return handler(m);
  return withSpan(`consume ${m.topic}`, { kind: "consumer", parent, attributes: { "messaging.destination.name": m.topic } }, () => handler(m));
}

export type BusHandler = (message: BusMessage) => Promise<void>;

/**
 * The work transport between the scheduler and crawler nodes. Delivery is at least once: a handler
 * that throws gets the message again later. Kafka implements it in the distributed mode; the
 * embedded mode uses InProcessBus.
 */
export interface SubscribeOptions {
  /** Messages of this subscription handled at once (Kafka: its own bound instead of the bus's). */
  readonly maxInFlight?: number;
}

export interface Bus {
  publish(messages: readonly BusMessage[]): Promise<void>;
  /** One consumer group per role: each message of the topic reaches one handler of the group. */
  subscribe(topic: string, group: string, handler: BusHandler, options?: SubscribeOptions): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded bus: in memory, one process. Messages of one key are handled one at a time, in
 * order (as a Kafka partition would); a failed handler is retried after retryMs. Messages in
 * memory are lost with the process: the scheduler republishes unfinished jobs from Postgres.
 * Messages of a topic nobody has subscribed to yet are kept until someone does, as a broker keeps
 * them: the scheduler republishes at start, and the worker subscribes once its parse threads are
 * ready, a second or two later.
 */
export class InProcessBus implements Bus {
  /** topic → consumer group → its handlers (round robin). */
  private readonly groups = new Map<string, Map<string, { handlers: BusHandler[]; next: number }>>();
  private readonly chains = new Map<string, Promise<void>>();
  /** topic → messages published while it had no subscriber, in order. */
  private readonly unclaimed = new Map<string, BusMessage[]>();
  private closed = false;

  constructor(private readonly retryMs = 1000) {}

  async publish(messages: readonly BusMessage[]): Promise<void> {
    if (this.closed) throw new Error("bus closed");
    for (const published of messages) {
      const m = withTraceHeaders(published);
      const groups = this.groups.get(m.topic);
      if (!groups || groups.size === 0) {
        const kept = this.unclaimed.get(m.topic) ?? [];
        kept.push(m);
        this.unclaimed.set(m.topic, kept);
        continue;
      }
      for (const group of groups.values()) this.handTo(group, m);
    }
  }

  private handTo(group: { handlers: BusHandler[]; next: number }, m: BusMessage): void {
    const handler = group.handlers[group.next++ % group.handlers.length];
    if (handler) this.deliver(`${m.topic}|${m.key}|${group.handlers.length}`, m, handler);
  }

  async subscribe(topic: string, group: string, handler: BusHandler): Promise<void> {
    const groups = this.groups.get(topic) ?? new Map<string, { handlers: BusHandler[]; next: number }>();
    const existing = groups.get(group);
    if (existing) existing.handlers.push(handler);
    else groups.set(group, { handlers: [handler], next: 0 });
    this.groups.set(topic, groups);
    const kept = this.unclaimed.get(topic);
    if (kept) {
      this.unclaimed.delete(topic);
      const first = groups.get(group)!;
      for (const m of kept) this.handTo(first, m);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.chains.values()]);
  }

  private deliver(chainKey: string, message: BusMessage, handler: BusHandler): void {
    const previous = this.chains.get(chainKey) ?? Promise.resolve();
    const run = previous.then(async () => {
      for (let attempt = 0; !this.closed; attempt++) {
        try {
          await deliverTraced(handler, message);
          return;
        } catch {
          await new Promise((r) => setTimeout(r, this.retryMs).unref());
        }
      }
    });
    this.chains.set(chainKey, run);
    void run.finally(() => {
      if (this.chains.get(chainKey) === run) this.chains.delete(chainKey);
    });
  }
}
