import type { ActiveSpan, Bus, BusMessage, Clock } from "../runtime/index.ts";
import { headersOf, parseTraceparent, startSpan, unixSeconds } from "../runtime/index.ts";
import type { OutboxRow, Store } from "../storage/index.ts";

/** Messages a relay pass takes: passes go on while they are full. */
const RELAY_BATCH = 100;

/**
 * Publishes the outbox to the bus. Kicked after each write, and on a timer so that rows written by
 * another scheduler process (or before a crash) go out too. Each pass is a unit of work that locks
 * the due rows, publishes them, then marks them published: a crash (or a failed mark) after the
 * bus took them publishes them again, never loses them (at least once); a publish that throws
 * leaves them unpublished.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly store: Pick<Store, "tx" | "outbox">,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  start(everyMs: number): void {
    this.timer ??= setInterval(() => void this.poll(), everyMs);
    this.timer.unref();
    this.kick();
  }

  /**
   * The timer's pass: a read first, the relay's transaction only when a message is due (an idle
   * scheduler polled with three statements a second). A failed read runs the pass anyway.
   */
  private async poll(): Promise<void> {
    if (this.running) return;
    const due = await this.store.outbox.due(unixSeconds(this.clock)).catch(() => true);
    if (due) this.kick();
  }

  /** Runs a relay pass now (or right after the one in progress). */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    for (;;) {
      const n = await this.store.tx((t) => this.pass(t.outbox, RELAY_BATCH, unixSeconds(this.clock)));
      if (n < RELAY_BATCH) return;
    }
  }

  /** One pass in the unit of work of `outbox`: publish first, mark after. */
  private async pass(outbox: Store["outbox"], limit: number, now: number): Promise<number> {
    const rows = await outbox.lockDue(limit, now);
    if (rows.length === 0) return 0;
    const spans: ActiveSpan[] = [];
    try {
      await this.bus.publish(rows.map((r) => busMessageOf(r, spans)));
      for (const span of spans) span.end();
    } catch (err) {
      for (const span of spans) span.end(err);
      throw err;
    }
    await outbox.markPublished(rows.map((r) => r.id), now);
    return rows.length;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/**
 * An outbox row as a bus message. A row written by traced work carries its trace on: the publish
 * is a producer span of that trace, and the message's headers name it as the parent.
 */
function busMessageOf(r: OutboxRow, spans: ActiveSpan[]): BusMessage {
  const parent = parseTraceparent(r.traceparent, r.tracestate);
  if (!parent) return { topic: r.topic, key: r.key, payload: r.payload };
  const span = startSpan(`publish ${r.topic}`, { kind: "producer", parent, attributes: { "messaging.destination.name": r.topic } });
  spans.push(span);
  return { topic: r.topic, key: r.key, payload: r.payload, headers: headersOf(span.scope) };
}
