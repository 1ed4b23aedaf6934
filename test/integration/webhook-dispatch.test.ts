import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createLogger, InProcessBus, loadConfig, ManualClock, unixSeconds } from "../../runtime/index.ts";
import { StreamItem, TOPICS, type WebhookBatch } from "../../proto/index.ts";
import { SCHEDULER_STREAM_KINDS, webhooksPlanner, type PlannerContext } from "../../scheduler/index.ts";
import { createStore, migrate, openPostgres, type Db, type Store } from "../../storage/index.ts";
import { freshDatabase } from "../harness/databases.ts";

// Two schedulers (two pools on one PostgreSQL server) run the webhooks planner at the same time,
// as they would for a moment when the planners' leadership changes hands: every event becomes one
// delivery per subscription, and every due attempt goes out in one batch, never two; a batch's
// result recorded twice (the results topic hands it out again) records each attempt once.

let a: Db;
let b: Db;
let stores: Store[];
const clock = new ManualClock(1_800_000_000_000);
let accountId: number;

beforeAll(async () => {
  const url = await freshDatabase(inject("postgresUrl"));
  a = openPostgres({ url, poolSize: 4 });
  await migrate(a, 1_700_000_000);
  b = openPostgres({ url, poolSize: 4 });
  stores = [createStore(a), createStore(b)];
  const [s] = stores as [Store];
  const plan = await s.accounts.upsertPlan("two", { sites: 1, checks_per_day: 1, rechecks_per_day: 1, webhooks: 5, api_keys: 1 });
  accountId = (await s.accounts.createAccount("two@example.com", plan, false, unixSeconds(clock))).id;
  for (const path of ["a", "b"]) {
    await s.webhooks.createWithinPlan({ accountId, name: path, url: `https://hooks.example.net/${path}`, events: ["rank"], hosts: [], secret: "whsec_x" }, unixSeconds(clock));
  }
});

afterAll(async () => {
  await a?.close();
  await b?.close();
});

function ctx(store: Store): PlannerContext {
  return {
    store,
    config: loadConfig({}, "serve"),
    clock,
    logger: createLogger("silent"),
    bus: new InProcessBus(),
    message: (job) => ({ topic: "svc.work.v1", key: job.host, payload: new Uint8Array() }),
    kick: () => {},
  };
}

/** The webhook batches in the outbox after id `after`: their ids and attempts. */
async function batchesAfter(db: Db, after: number): Promise<{ id: number; batch: WebhookBatch }[]> {
  const rows = await db.query<{ id: number; payload: Uint8Array }>("SELECT id, payload FROM outbox WHERE topic = $1 AND id > $2 ORDER BY id", [TOPICS.webhooks, after]);
  return rows.map((r) => {
    const task = StreamItem.decode(r.payload).task;
    if (task?.$case !== "webhook") throw new Error("not a webhook batch");
    return { id: Number(r.id), batch: task.value };
  });
}

describe("the webhooks planner on two schedulers at once", () => {
  it("plans 300 events into 600 deliveries and hands each attempt out once, in batches per webhook, one batch of a webhook at a time", async () => {
    const [s] = stores as [Store];
    const events = Array.from({ length: 300 }, (_, i) => ({ eventKey: `two:${i}`, accountId, host: `s${i}.example.com`, type: "rank" as const, kind: "rank.changed", level: "bad" as const, text: `Rank of s${i}.example.com fell from 60 to 50`, payload: { from: 60, to: 50 } }));
    // Appended in several transactions while both planners run.
    const appending = (async () => {
      for (let i = 0; i < events.length; i += 30) await s.events.add(events.slice(i, i + 30), unixSeconds(clock));
    })();
    const rounds = async (store: Store, n: number) => {
      for (let i = 0; i < n; i++) await webhooksPlanner.run(ctx(store));
    };
    await Promise.all([appending, ...stores.map((st) => rounds(st, 40))]);
    const hooks = (await s.webhooks.list(accountId, 10, 0)).rows;
    const sent = new Map<number, number>();
    const settleCtx = { config: loadConfig({}, "serve"), clock, logger: createLogger("silent"), now: () => unixSeconds(clock) };
    let seen = 0;
    for (let round = 0; round < 10; round++) {
      await Promise.all(stores.map((st) => rounds(st, 3)));
      const batches = await batchesAfter(a, seen);
      if (batches.length === 0) break;
      seen = batches[batches.length - 1]!.id;
      // One batch of each webhook at a time (until it is settled), its attempts in the deliveries' order.
      expect(new Set(batches.map((b) => b.batch.webhook)).size).toBe(batches.length);
      for (const { batch } of batches) {
        const ids = batch.attempts.map((x) => x.delivery);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        for (const id of ids) sent.set(id, (sent.get(id) ?? 0) + 1);
        const result = { webhook: batch.webhook, outcomes: batch.attempts.map((x) => ({ delivery: x.delivery, n: x.n, code: 204, error: "", durationMs: 3, sentAt: unixSeconds(clock) })) };
        // Recorded twice: the second records nothing.
        await SCHEDULER_STREAM_KINDS.webhook.settle(settleCtx, s, result, "crawler-a");
        await SCHEDULER_STREAM_KINDS.webhook.settle(settleCtx, s, result, "crawler-b");
      }
    }
    expect(sent.size).toBe(600);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    for (const hook of hooks) {
      const { rows, total } = await s.webhooks.deliveries(accountId, hook.id, 1000, 0);
      expect(total).toBe(300);
      expect(new Set(rows.map((r) => r.event_id)).size).toBe(300);
      expect(rows.every((r) => r.state === "delivered" && r.attempts === 1 && r.job_id === null)).toBe(true);
    }
    const attempts = await s.webhooks.attemptsOf([...sent.keys()]);
    expect(attempts).toHaveLength(600);
    // No job for any of it.
    expect((await s.jobs.liveCounts()).queued).toBe(0);
  });
});
