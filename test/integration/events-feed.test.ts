import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createStore, migrate, openPostgres, type Db, type NewEvent, type Queryable, type Store } from "../../storage/index.ts";
import { freshDatabase } from "../harness/databases.ts";

// The feed's cursor under concurrent writers, on a Postgres server with two pools (two processes'
// worth of connections). A poller that walks after_id must see every committed event exactly once,
// even when an event with a smaller id commits after one with a larger id would have.

const event = (key: string): NewEvent => ({ eventKey: key, accountId: 1, host: "example.com", type: "events", kind: "test", level: "info", text: key, payload: { key } });

/** An append without the repository's ordering lock: what a naive writer would do. */
async function naiveAppend(q: Queryable, events: readonly NewEvent[], now: number): Promise<void> {
  for (const e of events) {
    await q.query("INSERT INTO events (event_key, account_id, host, type, kind, text, level, payload, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", [
      e.eventKey,
      e.accountId,
      e.host,
      e.type,
      e.kind,
      e.text,
      e.level,
      JSON.stringify(e.payload),
      now,
    ]);
  }
}

/** Appends events in a transaction on one pool; `during` runs after the append, before the commit. */
type Append = (db: Db, events: readonly NewEvent[], during?: () => Promise<void>) => Promise<void>;

let a: Db;
let b: Db;
let store: Store;
const stores = new Map<Db, Store>();

/** The repository's append, in a unit of work of the pool's store. */
const repoAppend: Append = (db, events, during) =>
  (stores.get(db) as Store).tx(async (t) => {
    await t.events.add(events, 1);
    await during?.();
  });

const naive: Append = (db, events, during) =>
  db.tx(async (q) => {
    await naiveAppend(q, events, 1);
    await during?.();
  });

beforeAll(async () => {
  const url = await freshDatabase(inject("postgresUrl"));
  a = openPostgres({ url, poolSize: 6 });
  await migrate(a, 1_700_000_000);
  b = openPostgres({ url, poolSize: 6 });
  store = createStore(b);
  stores.set(a, createStore(a)).set(b, store);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
});

/** Walks the feed from a cursor, as a poller with after_id does. */
async function poll(cursor: number): Promise<{ keys: string[]; cursor: number }> {
  const { rows } = await store.events.list({ accountId: 1, afterId: cursor, limit: 1000, offset: 0 });
  return { keys: rows.map((r) => String(r.payload.key)), cursor: rows.length > 0 ? rows[rows.length - 1]!.id : cursor };
}

/**
 * Writer 1 inserts its event and holds its transaction open; writer 2 appends after it (a larger
 * id) and commits at once; a poller looks in between; writer 1 commits; the poller looks again.
 */
async function interleaving(append: Append, tag: string): Promise<{ seen: string[] }> {
  const { cursor: start } = await poll(0);
  let inserted!: () => void;
  const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const first = append(a, [event(`${tag}-first`)], async () => {
    inserted();
    await held;
  });
  await firstInserted;
  const second = append(b, [event(`${tag}-second`)]);
  // The second writer either committed (naive) or waits for the first (the repository's rule).
  await Promise.race([second, sleep(300)]);
  const mid = await poll(start);
  release();
  await Promise.all([first, second]);
  const end = await poll(mid.cursor);
  return { seen: [...mid.keys, ...end.keys] };
}

describe("the event feed's cursor with concurrent writers (Postgres server)", () => {
  it("never skips an event whose id commits late", async () => {
    const { seen } = await interleaving(repoAppend, "repo");
    expect(seen).toEqual(["repo-first", "repo-second"]);
  });

  it("would skip one without the repository's rule (the test can fail)", async () => {
    const { seen } = await interleaving(naive, "naive");
    expect(seen).toEqual(["naive-second"]);
  });

  it("delivers 400 events from 8 concurrent writers to a polling reader exactly once", async () => {
    const { cursor: start } = await poll(0);
    const writers = Array.from({ length: 8 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 50; i++) {
          const db = w % 2 === 0 ? a : b;
          // Other work of the causing transaction after its append, of varying length.
          await repoAppend(db, [event(`w${w}-${i}`)], async () => {
            if (i % 7 === w % 7) await sleep(5);
          });
        }
      })(),
    );
    let done = false;
    const all = Promise.all(writers).then(() => (done = true));
    const seen: string[] = [];
    let cursor = start;
    while (!done) {
      const r = await poll(cursor);
      seen.push(...r.keys);
      cursor = r.cursor;
    }
    await all;
    const rest = await poll(cursor);
    seen.push(...rest.keys);
    expect(seen).toHaveLength(400);
    expect(new Set(seen).size).toBe(400);
  });

  it("appends a repeated key once", async () => {
    await store.events.add([event("twice")], 1);
    await store.events.add([event("twice")], 1);
    const { rows } = await store.events.list({ accountId: 1, limit: 1000, offset: 0 });
    expect(rows.filter((r) => r.payload.key === "twice")).toHaveLength(1);
  });
});
