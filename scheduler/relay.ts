import type { ActiveSpan, Bus, BusMessage, Clock } from "../runtime/index.ts";
import { headersOf, parseTraceparent, startSpan, unixSeconds } from "../runtime/index.ts";
import type { JobsRepo, OutboxRow } from "../storage/index.ts";

/**
 * Publishes the outbox to the bus. Kicked after each write, and on a timer so that rows written by
 * another scheduler process (or before a crash) go out too.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly jobs: JobsRepo,
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
    const due = await this.jobs.outboxDue(unixSeconds(this.clock)).catch(() => true);
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
      const n = await this.jobs.relayOutbox(100, unixSeconds(this.clock), async (rows) => {
        const spans: ActiveSpan[] = [];
        try {
          await this.bus.publish(rows.map((r) => busMessageOf(r, spans)));
          for (const span of spans) span.end();
        } catch (err) {
          for (const span of spans) span.end(err);
          throw err;
        }
      });
      if (n < 100) return;
    }
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
