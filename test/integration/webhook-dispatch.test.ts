import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createLogger, InProcessBus, loadConfig, ManualClock, unixSeconds } from "../../runtime/index.ts";
import { webhooksPlanner, type PlannerContext } from "../../scheduler/index.ts";
import { createStore, migrate, openPostgres, type Db, type Store } from "../../storage/index.ts";
import { freshDatabase } from "../harness/databases.ts";

// Two schedulers (two pools on one PostgreSQL server) run the webhooks planner at the same time,
// as they would for a moment when the planners' leadership changes hands: every event becomes one
// delivery per subscription, and every due attempt one job, never two.

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

describe("the webhooks planner on two schedulers at once", () => {
  it("plans 300 events into 600 deliveries and hands each attempt out once", async () => {
    const [s] = stores as [Store];
    const events = Array.from({ length: 300 }, (_, i) => ({ eventKey: `two:${i}`, accountId, host: `s${i}.example.com`, type: "rank" as const, kind: "rank.changed", level: "bad" as const, text: `Rank of s${i}.example.com fell from 60 to 50`, payload: { from: 60, to: 50 } }));
    // Appended in several transactions while both planners run.
    const appending = (async () => {
      for (let i = 0; i < events.length; i += 30) await s.events.appendAlone(events.slice(i, i + 30), unixSeconds(clock));
    })();
    const rounds = async (store: Store) => {
      for (let i = 0; i < 40; i++) await webhooksPlanner.run(ctx(store));
    };
    await Promise.all([appending, ...stores.map(rounds)]);
    await Promise.all(stores.map((st) => webhooksPlanner.run(ctx(st))));
    const hooks = (await s.webhooks.list(accountId, 10, 0)).rows;
    let jobs = 0;
    for (const hook of hooks) {
      const { rows, total } = await s.webhooks.deliveries(accountId, hook.id, 1000, 0);
      expect(total).toBe(300);
      expect(new Set(rows.map((r) => r.event_id)).size).toBe(300);
      expect(rows.every((r) => r.state === "sending" && r.job_id !== null)).toBe(true);
      jobs += new Set(rows.map((r) => r.job_id)).size;
    }
    expect(jobs).toBe(600);
    expect((await s.jobs.liveCounts()).queued).toBe(600);
  });
});
