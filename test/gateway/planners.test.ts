import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InProcessBus, loadConfig, ManualClock, createLogger } from "../../runtime/index.ts";
import { defaultPlanners, PlannerRunner, type Planner, type PlannerContext } from "../../scheduler/index.ts";
import { createStore, openPglite, type Db, type StoredReport, type Store } from "../../storage/index.ts";
import { readPgliteTemplate } from "../harness/template.ts";

// Periodic work runs on one scheduler at a time: the planners' leader. Two runners on one store
// stand for two scheduler processes.

let db: Db;
let store: Store;
const clock = new ManualClock(1_800_000_000_000);

beforeAll(async () => {
  db = await openPglite(null, readPgliteTemplate());
  store = createStore(db);
});
afterAll(() => db.close());

function counting(name: string, everyMs: number): Planner & { runs: string[] } {
  const runs: string[] = [];
  return { name, runs, everyMs: () => everyMs, run: async (ctx) => (runs.push((ctx as PlannerContext & { who: string }).who), 0) };
}

function runner(planner: Planner, who: string, tickMs = 20): PlannerRunner {
  const ctx = {
    store,
    config: loadConfig({}, "serve"),
    clock,
    logger: createLogger("silent"),
    bus: new InProcessBus(),
    message: () => ({ topic: "t", key: "k", payload: new Uint8Array() }),
    kick: () => {},
    who,
  };
  return new PlannerRunner([planner], ctx, who, tickMs);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("planners", () => {
  it("run on the leader only, and on another scheduler once the leader closes", async () => {
    const planner = counting("test", 30);
    const a = runner(planner, "A");
    const b = runner(planner, "B");
    await a.tick();
    await b.tick();
    expect([a.isLeader, b.isLeader]).toEqual([true, false]);
    for (let i = 0; i < 6; i++) {
      await sleep(20);
      await a.tick();
      await b.tick();
    }
    expect(planner.runs.length).toBeGreaterThan(0);
    expect(new Set(planner.runs)).toEqual(new Set(["A"]));
    await a.close();
    planner.runs.length = 0;
    for (let i = 0; i < 6; i++) {
      await sleep(20);
      await b.tick();
    }
    expect(b.isLeader).toBe(true);
    expect(planner.runs.length).toBeGreaterThan(0);
    expect(new Set(planner.runs)).toEqual(new Set(["B"]));
    await b.close();
  });

  it("take over from a leader that stopped renewing once its lease lapsed", async () => {
    const planner = counting("lapse", 1000);
    const a = runner(planner, "C");
    const b = runner(planner, "D");
    await a.tick();
    expect(a.isLeader).toBe(true);
    // C dies without closing: D waits for the lease to lapse.
    await b.tick();
    expect(b.isLeader).toBe(false);
    clock.advance(10_000);
    await b.tick();
    expect(b.isLeader).toBe(true);
    await b.close();
  });

  it("sync a stored run into the check series when the run is announced, not at the slow pass", async () => {
    const planner = defaultPlanners().find((p) => p.name === "check series");
    if (!planner) throw new Error("no check-series planner");
    // Its slow pass is a minute away; the runner ticks every 20 ms.
    expect(planner.everyMs(loadConfig({}, "serve"))).toBe(60_000);
    const report = { version: 1, items: [{ code: "title", status: "pass", value: "Home", group: "content" }], groups: [], caps: [], tech: [], tasks: [], origin: "https://woken.example", after: 90 } as unknown as StoredReport;
    const store1 = (host: string, jobId: number) => store.runs.insert({ host, jobId, checkedAt: 1_800_000_000, rank: 90, label: "A", color: "green", report });
    const tickFor = async (r: PlannerRunner, ms: number, until: () => Promise<boolean>) => {
      for (const end = performance.now() + ms; performance.now() < end; ) {
        await r.tick();
        if (await until()) return true;
        await sleep(20);
      }
      return false;
    };

    // A leader that does not listen: a run stored meanwhile waits for the slow pass.
    const deaf = runner(planner, "E");
    await deaf.tick();
    expect(deaf.isLeader).toBe(true);
    await store1("deaf.example", 9_000_001);
    expect(await tickFor(deaf, 500, async () => (await store.checks.count("deaf.example")) > 0)).toBe(false);
    await deaf.close();

    // A leader that listens: the run's announcement wakes the sync, which writes both runs' rows.
    const woken = runner(planner, "F");
    await woken.watch();
    await woken.tick();
    expect(woken.isLeader).toBe(true);
    await tickFor(woken, 100, async () => false);
    expect(await store.checks.count("deaf.example")).toBe(0);
    await store1("woken.example", 9_000_002);
    expect(await tickFor(woken, 5000, async () => (await store.checks.count("woken.example")) > 0)).toBe(true);
    expect([await store.checks.count("woken.example"), await store.checks.count("deaf.example")]).toEqual([1, 1]);
    await woken.close();
  });
});
