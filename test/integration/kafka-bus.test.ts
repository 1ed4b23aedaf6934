import { setTimeout as sleep } from "node:timers/promises";
import { Kafka, logLevel, type Admin, type IHeaders } from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { KafkaBus, type BusMessage, type KafkaBusOptions } from "../../runtime/index.ts";
import { startKafka, type KafkaBroker } from "../harness/kafka.ts";
import { waitFor } from "../harness/svc-process.ts";

// KafkaBus against the harness's real broker. Each test has topics of its own (a fresh prefix), so
// the tests share one broker without seeing each other's messages.

const TOPIC = "work";
const GROUP = "crawler";
const PARTITIONS = 4;

let broker: KafkaBroker;
let admin: Admin;
let testNo = 0;
const buses: KafkaBus[] = [];

beforeAll(async () => {
  broker = await startKafka();
  admin = new Kafka({ clientId: "bus-test-admin", brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
});

afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

afterAll(async () => {
  await admin?.disconnect();
  await broker?.stop();
});

/** A bus with the short timings of a test; the prefix keeps this test's topics apart. */
function newBus(prefix: string, options: Partial<KafkaBusOptions> = {}): KafkaBus {
  const bus = new KafkaBus({
    brokers: broker.brokers,
    clientId: "bus-test",
    topicPrefix: prefix,
    sessionTimeoutMs: 6000,
    heartbeatIntervalMs: 1000,
    rebalanceTimeoutMs: 5000,
    maxWaitMs: 200,
    retryInitialMs: 50,
    retryMaxMs: 200,
    drainTimeoutMs: 10_000,
    ...options,
  });
  buses.push(bus);
  return bus;
}

/** A fresh topic prefix with the work topic (and its dead-letter topic) created. */
async function freshTopics(): Promise<{ prefix: string; bus: KafkaBus }> {
  const prefix = `t${++testNo}.`;
  const bus = newBus(prefix);
  const created = await bus.ensureTopics([
    { topic: TOPIC, partitions: PARTITIONS, retentionMs: 3_600_000 },
    { topic: bus.deadLetterTopicOf(TOPIC), partitions: 1 },
  ]);
  expect(created).toEqual([TOPIC, `${TOPIC}.dlq`]);
  return { prefix, bus };
}

const text = (s: string) => new TextEncoder().encode(s);
const textOf = (m: BusMessage) => new TextDecoder().decode(m.payload);

/** count messages "<i>" over the given number of keys "site-<k>.test", k = i mod keys. */
function messages(count: number, keys: number): BusMessage[] {
  return Array.from({ length: count }, (_, i) => ({ topic: TOPIC, key: `site-${i % keys}.test`, payload: text(String(i)) }));
}

/** Resolves once the group's committed offset of every partition is the partition's end. */
async function allCommitted(group: string, topic: string): Promise<void> {
  await waitFor(`group ${group} committed ${topic} to its end`, 30_000, async () => {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    const at = new Map(committed?.partitions.map((p) => [p.partition, p.offset]));
    // An empty partition has nothing to commit (its committed offset stays -1).
    if (ends.every((e) => at.get(e.partition) === e.high || (e.high === "0" && at.get(e.partition) === "-1"))) return true;
    throw new Error(`committed ${JSON.stringify([...at])}, ends ${JSON.stringify(ends.map((e) => [e.partition, e.high]))}`);
  });
}

describe("KafkaBus on a real broker", () => {
  it("hands each key's messages over in the order they were published, bytes as they were", async () => {
    const { prefix, bus } = await freshTopics();
    const seen: { key: string; value: string }[] = [];
    let binary: Uint8Array | null = null;
    await bus.subscribe(TOPIC, GROUP, async (m) => {
      if (m.key === "binary.test") {
        binary = Uint8Array.from(m.payload);
        return;
      }
      // Uneven handling times: without per-key order, later messages would overtake earlier ones.
      await sleep(Number(textOf(m)) % 3);
      seen.push({ key: m.key, value: textOf(m) });
    });

    const sent = messages(200, 10);
    await bus.publish(sent);
    await bus.publish([{ topic: TOPIC, key: "binary.test", payload: Uint8Array.from([0, 255, 1, 128, 0]) }]);
    await waitFor("all messages handled", 30_000, async () => (seen.length >= 200 && binary ? true : undefined));

    expect(seen).toHaveLength(200);
    for (let k = 0; k < 10; k++) {
      const key = `site-${k}.test`;
      expect(seen.filter((s) => s.key === key).map((s) => s.value)).toEqual(sent.filter((m) => m.key === key).map(textOf));
    }
    expect(binary).toEqual(Uint8Array.from([0, 255, 1, 128, 0]));
    await allCommitted(GROUP, `${prefix}${TOPIC}`);
  });

  it("reports each subscription's consumer lag: what its group has not committed yet, then 0 once handled", async () => {
    const { prefix, bus } = await freshTopics();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let handled = 0;
    await bus.subscribe(TOPIC, GROUP, async () => {
      await gate;
      handled++;
    });
    await bus.publish(messages(10, 3));
    // A sample is not retried (the next sample is the retry): a fresh topic's leader may still be
    // moving when the first is taken, so the case takes the first sample that answers.
    const sample = () => bus.consumerLag().catch(() => undefined);
    expect(await waitFor("a lag sample", 15_000, sample)).toEqual([{ topic: TOPIC, group: GROUP, lag: 10 }]);
    release();
    await waitFor("all messages handled", 30_000, async () => (handled >= 10 ? true : undefined));
    await allCommitted(GROUP, `${prefix}${TOPIC}`);
    expect(await waitFor("a lag sample", 15_000, sample)).toEqual([{ topic: TOPIC, group: GROUP, lag: 0 }]);
  });

  it("shares a group's messages between two members, each key on one member", async () => {
    const { prefix, bus: a } = await freshTopics();
    const b = newBus(prefix);
    const handledBy: { member: string; key: string; value: string }[] = [];
    await a.subscribe(TOPIC, GROUP, async (m) => void handledBy.push({ member: "a", key: m.key, value: textOf(m) }));
    // Resolves once the group has rebalanced over both members.
    await b.subscribe(TOPIC, GROUP, async (m) => void handledBy.push({ member: "b", key: m.key, value: textOf(m) }));

    const sent = messages(400, 40);
    await a.publish(sent);
    await waitFor("all messages handled", 30_000, async () => (handledBy.length >= 400 ? true : undefined));

    expect(handledBy).toHaveLength(400);
    expect(new Set(handledBy.map((h) => h.value))).toEqual(new Set(sent.map(textOf)));
    const members = new Set(handledBy.map((h) => h.member));
    expect(members).toEqual(new Set(["a", "b"]));
    for (let k = 0; k < 40; k++) {
      expect(new Set(handledBy.filter((h) => h.key === `site-${k}.test`).map((h) => h.member)).size).toBe(1);
    }
    await allCommitted(GROUP, `${prefix}${TOPIC}`);
  });

  it("hands a message whose handler failed over again, and commits only after it succeeded", async () => {
    const { prefix, bus } = await freshTopics();
    const attempts = new Map<string, number>();
    const order: string[] = [];
    await bus.subscribe(TOPIC, GROUP, async (m) => {
      const value = textOf(m);
      const n = (attempts.get(value) ?? 0) + 1;
      attempts.set(value, n);
      if (value === "3" && n < 3) throw new Error("temporary failure");
      order.push(value);
    });

    const sent = messages(20, 2); // "3" and every other odd value share a key
    await bus.publish(sent);
    await waitFor("all messages handled", 30_000, async () => (order.length >= 20 ? true : undefined));

    expect(attempts.get("3")).toBe(3);
    expect([...attempts].filter(([v]) => v !== "3").every(([, n]) => n === 1)).toBe(true);
    // Its key waited for it: 1, 3, 5, … in order.
    expect(order.filter((v) => Number(v) % 2 === 1)).toEqual(sent.filter((_, i) => i % 2 === 1).map(textOf));
    await allCommitted(GROUP, `${prefix}${TOPIC}`);
    // A new member of the group gets only what is published now: everything before was committed.
    // (40 keys reach every partition, and on each a redelivered message would come first.)
    await bus.close();
    const again: string[] = [];
    const next = newBus(prefix);
    await next.subscribe(TOPIC, GROUP, async (m) => void again.push(textOf(m)));
    const later = messages(40, 40).map((m) => ({ ...m, payload: text(`later-${textOf(m)}`) }));
    await next.publish(later);
    await waitFor("the later messages handled", 30_000, async () => (again.length >= 40 ? true : undefined));
    expect(again.sort()).toEqual(later.map(textOf).sort());
  });

  it("moves a message to the dead-letter topic after its last attempt, with the error in headers", async () => {
    const { prefix } = await freshTopics();
    class PoisonError extends Error {}
    const bus = newBus(prefix, { maxAttempts: 3 });
    const attempts = new Map<string, number>();
    const handled: string[] = [];
    await bus.subscribe(TOPIC, GROUP, async (m) => {
      const value = textOf(m);
      attempts.set(value, (attempts.get(value) ?? 0) + 1);
      if (value === "poison") throw new PoisonError("cannot decode the work item");
      handled.push(value);
    });

    await bus.publish([
      { topic: TOPIC, key: "site.test", payload: text("before") },
      { topic: TOPIC, key: "site.test", payload: text("poison") },
      { topic: TOPIC, key: "site.test", payload: text("after") },
    ]);
    await waitFor("the message after the poison handled", 30_000, async () => (handled.includes("after") ? true : undefined));
    expect(handled).toEqual(["before", "after"]);
    expect(attempts.get("poison")).toBe(3);
    await allCommitted(GROUP, `${prefix}${TOPIC}`);

    const dead = await readAll(`${prefix}${TOPIC}.dlq`, 1);
    expect(dead).toHaveLength(1);
    const [letter] = dead;
    expect(letter?.key).toBe("site.test");
    expect(letter?.value).toBe("poison");
    expect(letter?.headers).toMatchObject({
      "svc-error-class": "PoisonError",
      "svc-error-message": "cannot decode the work item",
      "svc-attempts": "3",
      "svc-source-topic": `${prefix}${TOPIC}`,
      "svc-source-offset": "1",
      "svc-group": GROUP,
    });
  });

  it("never runs more than maxInFlight handlers at once, and takes the next message as soon as a slot frees, not after a fetch wait", async () => {
    const { prefix } = await freshTopics();
    // A fetch wait of 5 s: a subscription that paused while full would notice a free slot only
    // after one (40 messages, 3 at a time: over a minute); it waits inside its batch instead.
    const bus = newBus(prefix, { maxInFlight: 3, maxWaitMs: 5000 });
    let running = 0;
    let most = 0;
    const handled: string[] = [];
    await bus.subscribe(TOPIC, GROUP, async (m) => {
      running++;
      most = Math.max(most, running);
      await sleep(50);
      running--;
      handled.push(textOf(m));
    });

    const sent = messages(40, 40); // 40 keys: per-key order never holds a message back
    await bus.publish(sent);
    await waitFor("all messages handled", 15_000, async () => (handled.length >= 40 ? true : undefined));

    expect(most).toBe(3);
    expect(handled.sort()).toEqual(sent.map(textOf).sort());
    await allCommitted(GROUP, `${prefix}${TOPIC}`);
  });

  it("loses nothing when a member closes mid-stream and another carries on", async () => {
    const { prefix, bus: a } = await freshTopics();
    const b = newBus(prefix);
    const handled: { member: string; value: string }[] = [];
    const handler = (member: string) => async (m: BusMessage) => {
      await sleep(5);
      handled.push({ member, value: textOf(m) });
    };
    await a.subscribe(TOPIC, GROUP, handler("a"));
    await b.subscribe(TOPIC, GROUP, handler("b"));

    const sent = messages(600, 40);
    await a.publish(sent);
    await waitFor("member a under way", 30_000, async () => (handled.filter((h) => h.member === "a").length >= 30 ? true : undefined));
    await a.close();
    const byAAtClose = handled.filter((h) => h.member === "a").length;

    const want = new Set(sent.map(textOf));
    await waitFor("every message handled at least once", 60_000, async () => {
      const got = new Set(handled.map((h) => h.value));
      return [...want].every((v) => got.has(v)) ? true : undefined;
    });
    await allCommitted(GROUP, `${prefix}${TOPIC}`);

    expect(new Set(handled.map((h) => h.value))).toEqual(want);
    expect(byAAtClose).toBeLessThan(600);
    const duplicates = handled.length - want.size;
    process.stderr.write(`[kafka-bus] member a handled ${byAAtClose} before closing; b finished; duplicates: ${duplicates} of ${want.size}\n`);
  });
});

/** Reads a topic from its beginning until count messages arrived (a throwaway group). */
async function readAll(topic: string, count: number): Promise<{ key: string; value: string; headers: Record<string, string> }[]> {
  const kafka = new Kafka({ clientId: "bus-test-reader", brokers: broker.brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `reader-${topic}`, sessionTimeout: 6000, heartbeatInterval: 1000, maxWaitTimeInMs: 200 });
  const out: { key: string; value: string; headers: Record<string, string> }[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        out.push({ key: message.key?.toString() ?? "", value: message.value?.toString() ?? "", headers: headerText(message.headers ?? {}) });
      },
    });
    await waitFor(`${count} messages on ${topic}`, 30_000, async () => (out.length >= count ? true : undefined));
    return out;
  } finally {
    await consumer.disconnect();
  }
}

function headerText(headers: IHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.map(String).join(",") : String(v)]));
}
