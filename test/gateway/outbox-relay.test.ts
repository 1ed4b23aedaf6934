import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, type Bus, type BusMessage } from "../../runtime/index.ts";
import { OutboxRelay } from "../../scheduler/relay.ts";
import { createStore, openPglite, type Db, type OutboxRepo, type Repositories, type Store } from "../../storage/index.ts";
import { readPgliteTemplate } from "../harness/template.ts";

// The relay publishes the outbox at least once: a publish that fails leaves the messages to the
// next pass; a crash after the bus took them (before they were marked) publishes them again.

const T = 1_800_000_000_000;
let db: Db;
let store: Store;

beforeAll(async () => {
  db = await openPglite(null, readPgliteTemplate());
  store = createStore(db);
});
afterAll(() => db.close());

/** A bus that records what it took and refuses while `down` is set. */
function recordingBus(): Bus & { took: number[][]; down: boolean } {
  const bus = {
    took: [] as number[][],
    down: false,
    async publish(messages: readonly BusMessage[]) {
      if (bus.down) throw new Error("bus down");
      bus.took.push(messages.filter((m) => m.topic === "relay.test").map((m) => m.payload[0] as number));
    },
    subscribe: async () => undefined,
    close: async () => undefined,
  };
  return bus;
}

/** A store whose units of work die when they mark messages published (a scheduler that crashed right after the bus took them). */
function dyingOnMark(base: Store): Store {
  const bind = (t: Repositories): Repositories => ({
    ...t,
    outbox: Object.create(t.outbox, { markPublished: { value: async () => Promise.reject(new Error("crashed")) } }) as OutboxRepo,
  });
  return { ...base, tx: (work) => base.tx((t) => work(bind(t))) };
}

async function pass(relay: OutboxRelay): Promise<void> {
  relay.kick();
  await relay.close();
}

const unpublished = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE topic = 'relay.test' AND published IS NULL"))[0]?.n;

describe("the outbox relay", () => {
  it("leaves the messages unpublished when the bus refuses them, and publishes them on the next pass", async () => {
    await store.tx(async (t) => {
      await t.outbox.enqueue({ topic: "relay.test", key: "a", payload: new Uint8Array([1]) }, T / 1000);
      await t.outbox.enqueue({ topic: "relay.test", key: "a", payload: new Uint8Array([2]) }, T / 1000);
    });
    const bus = recordingBus();
    bus.down = true;
    await pass(new OutboxRelay(store, bus, new ManualClock(T)));
    expect(bus.took).toEqual([]);
    expect(await unpublished()).toBe(2);
    bus.down = false;
    await pass(new OutboxRelay(store, bus, new ManualClock(T)));
    expect(bus.took).toEqual([[1, 2]]);
    expect(await unpublished()).toBe(0);
  });

  it("publishes again what a crash between the publish and its mark left unmarked (at least once, never lost)", async () => {
    await store.tx((t) => t.outbox.enqueue({ topic: "relay.test", key: "b", payload: new Uint8Array([3]) }, T / 1000));
    const bus = recordingBus();
    await pass(new OutboxRelay(dyingOnMark(store), bus, new ManualClock(T)));
    expect(bus.took).toEqual([[3]]);
    expect(await unpublished()).toBe(1);
    await pass(new OutboxRelay(store, bus, new ManualClock(T)));
    expect(bus.took).toEqual([[3], [3]]);
    expect(await unpublished()).toBe(0);
  });
});
