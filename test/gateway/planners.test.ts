import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InProcessBus, loadConfig, ManualClock, createLogger } from "../../runtime/index.ts";
import { PlannerRunner, type Planner, type PlannerContext } from "../../scheduler/index.ts";
import { createStore, openPglite, type Db, type Store } from "../../storage/index.ts";
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

function runner(planner: Planner, who: string): PlannerRunner {
  const ctx = {
    store,
    config: loadConfig({}),
    clock,
    logger: createLogger("silent"),
    bus: new InProcessBus(),
    message: () => ({ topic: "t", key: "k", payload: new Uint8Array() }),
    kick: () => {},
    who,
  };
  return new PlannerRunner([planner], ctx, who, 20);
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
});
