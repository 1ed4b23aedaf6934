// A consumer kafkajs gives up on is started again by the bus. kafkajs restarts its consumer after
// errors it calls retriable only; "Failed to find group coordinator" (a member joining while the
// broker is away, as the cluster test's Kafka outage once hit) is not one, and the member stayed
// gone for good, its partitions left to the other members or to no one. That crash depends on when
// the member joins relative to the outage, which a real broker does not do on cue, so here the
// kafkajs client is a stand-in whose consumers crash when told to.
import { EventEmitter } from "node:events";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { Kafka } from "kafkajs";
import { describe, expect, it } from "vitest";
import { createLogger, KafkaBus, type KafkaBusOptions } from "../../../runtime/index.ts";
import { waitFor } from "../../harness/svc-process.ts";

const EVENTS = { GROUP_JOIN: "consumer.group_join", CRASH: "consumer.crash" } as const;

/** A kafkajs consumer that records its calls; crash() emits CRASH after disconnecting itself, as kafkajs does. */
class StandInConsumer {
  readonly events = EVENTS;
  readonly calls: string[] = [];
  private readonly emitter = new EventEmitter();

  on(event: string, listener: (e: unknown) => void): void {
    this.emitter.on(event, listener);
  }
  async connect(): Promise<void> {
    this.calls.push("connect");
  }
  async subscribe(): Promise<void> {
    this.calls.push("subscribe");
  }
  async run(): Promise<void> {
    this.calls.push("run");
  }
  async disconnect(): Promise<void> {
    this.calls.push("disconnect");
  }
  async commitOffsets(): Promise<void> {}
  pause(): void {}
  resume(): void {}
  crash(restart: boolean): void {
    this.calls.push(`crash(restart ${restart})`);
    const error = Object.assign(new Error("Failed to find group coordinator"), { name: "KafkaJSNonRetriableError", retriable: false });
    this.emitter.emit(EVENTS.CRASH, { payload: { error, groupId: "crawler", restart } });
  }
  join(): void {
    this.emitter.emit(EVENTS.GROUP_JOIN, { payload: { groupId: "crawler", memberAssignment: { work: [0] }, isLeader: true, duration: 1 } });
  }
}

function busWith(consumer: StandInConsumer, more: Partial<KafkaBusOptions> = {}): KafkaBus {
  const client = { consumer: () => consumer } as unknown as Kafka;
  return new KafkaBus({ brokers: ["127.0.0.1:1"], client, retryInitialMs: 20, retryMaxMs: 80, drainTimeoutMs: 100, ...more });
}

/** A consumer caught rejoining its group after a broker outage: its disconnect does not come back. */
class StuckConsumer extends StandInConsumer {
  override async disconnect(): Promise<void> {
    this.calls.push("disconnect");
    await new Promise(() => undefined);
  }
}

describe("a Kafka consumer kafkajs does not restart", () => {
  it("is connected and run again by the bus, with backoff, until it joins; once closed, never", async () => {
    const consumer = new StandInConsumer();
    const bus = busWith(consumer);
    await bus.subscribe("work", "crawler", async () => undefined);
    expect(consumer.calls).toEqual(["connect", "subscribe", "run"]);
    consumer.join();

    consumer.crash(false);
    await waitFor("the bus starting it again", 2000, async () => (consumer.calls.filter((c) => c === "run").length === 2 ? true : undefined), 5);
    expect(consumer.calls.slice(3)).toEqual(["crash(restart false)", "connect", "run"]);
    // It fails to join again (the broker still away): started again once more, after a longer wait.
    consumer.crash(false);
    await waitFor("the bus starting it a third time", 2000, async () => (consumer.calls.filter((c) => c === "run").length === 3 ? true : undefined), 5);
    consumer.join();

    // A crash kafkajs restarts from itself is left to kafkajs.
    consumer.crash(true);
    await sleep(200);
    expect(consumer.calls.filter((c) => c === "run")).toHaveLength(3);

    // Closing while a restart waits: it never comes.
    consumer.crash(false);
    await bus.close();
    const after = consumer.calls.length;
    await sleep(200);
    expect(consumer.calls.slice(after)).toEqual([]);
    expect(consumer.calls.filter((c) => c === "run")).toHaveLength(3);
  });
});

describe("closing a Kafka consumer that does not disconnect", () => {
  it("gives it the longest fetch wait and a second, then leaves it to the broker's session timeout, and says so", async () => {
    const consumer = new StuckConsumer();
    const lines: string[] = [];
    const logger = createLogger("info", new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(...chunk.toString().split("\n").filter(Boolean)), done()) }));
    const bus = busWith(consumer, { maxWaitMs: 200, logger });
    await bus.subscribe("work", "crawler", async () => undefined);
    consumer.join();
    const started = performance.now();
    await bus.close();
    const ms = performance.now() - started;
    expect(consumer.calls).toContain("disconnect");
    // The wait is maxWaitMs (200) plus 1,000 ms: it ends, and not before.
    expect(ms).toBeGreaterThanOrEqual(1150);
    expect(ms).toBeLessThan(5000);
    const warned = lines.map((l) => JSON.parse(l) as { msg: string; waitMs?: number }).find((l) => l.msg.includes("did not disconnect in time"));
    expect(warned).toMatchObject({ waitMs: 1200 });
  });

  it("still waits for a disconnect that comes, and passes on one that fails", async () => {
    const consumer = new StandInConsumer();
    const bus = busWith(consumer, { maxWaitMs: 200 });
    await bus.subscribe("work", "crawler", async () => undefined);
    await bus.close();
    expect(consumer.calls.at(-1)).toBe("disconnect");

    const failing = new (class extends StandInConsumer {
      override async disconnect(): Promise<void> {
        throw new Error("connection lost while leaving");
      }
    })();
    const other = busWith(failing, { maxWaitMs: 200 });
    await other.subscribe("work", "crawler", async () => undefined);
    await expect(other.close()).rejects.toThrow("connection lost while leaving");
  });
});
