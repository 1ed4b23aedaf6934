import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page } from "../harness/sites/small-site.ts";
import { startScenarioSite, type ScenarioSite } from "./scenario-site.ts";

// A site down (503) during an analysis, then back, then a task re-checked (depth audit D15): the
// outage's report measured almost nothing, so the report after it "fails" many checks that were
// merely unmeasured. Those are not new tasks: every one of them was opened by the first analysis.
// Truth by construction: the re-check says new_tasks 0, and no task.new event follows the outage.

let gw: TestGateway;
let site: ScenarioSite;

beforeAll(async () => {
  site = await startScenarioSite();
  site.pages.set("/", page({ title: "Furniture shop home page, chairs and tables", links: ["/about", "/contact"] }));
  site.pages.set("/about", page({ title: "About the furniture shop and its workshop", links: ["/"] }));
  site.pages.set("/contact", page({ title: "Contact the furniture shop by phone or mail", links: ["/"] }));
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "5", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000", SVC_PLAN_CHECKS_PER_DAY: "20" } });
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

async function analyze(): Promise<number> {
  const job = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host, fresh: true } })).json().job;
  const done = await untilJobDone(gw, job.id as number);
  expect(done.state).toBe("done");
  return (await gw.call("GET", `/api/v1/history/${site.host}`)).json().runs[0].id as number;
}

/** The task.new events by the run that opened them. */
async function taskNews(): Promise<Map<number, string[]>> {
  const events = (await gw.call("GET", `/api/v1/events?type=events&limit=200`)).json<{ events: { kind: string; data: { run: number; code: string } }[] }>().events;
  const byRun = new Map<number, string[]>();
  for (const e of events.filter((e) => e.kind === "task.new")) byRun.set(e.data.run, [...(byRun.get(e.data.run) ?? []), e.data.code].sort());
  return byRun;
}

describe("a re-check after an outage", () => {
  it("counts no unmeasured check as a new task", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
    const first = await analyze();
    const tasks = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json<{ tasks: { id: number; code: string }[] }>().tasks;
    expect((await taskNews()).get(first)).toEqual(tasks.map((t) => t.code).sort());
    const task = tasks.find((t) => t.code === "description_present")!;
    expect(task).toBeDefined();

    gw.clock.advance(3600_000);
    site.down = 503;
    const outage = await analyze();
    const outageItems = (await gw.call("GET", `/api/v1/report/${site.host}`)).json<{ items: { status: string }[] }>().items;
    // The outage's report measured little: most checks say na.
    expect(outageItems.filter((i) => i.status === "na").length).toBeGreaterThan(outageItems.length / 2);

    gw.clock.advance(3600_000);
    site.down = null;
    const back = await analyze();
    expect(back).toBeGreaterThan(outage);
    // The site is as it was before the outage: the run after it opens no task.
    expect((await taskNews()).get(back)).toBeUndefined();

    // The report is seconds old: the re-check reuses it and compares it with the outage's.
    const res = await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ outcome: "still", reused_fresh_report: true, new_tasks: 0 });
  });

  it("counts a task the re-check's report opened", async () => {
    // A real new failure: /about's title shrinks to 5 characters.
    gw.clock.advance(3600_000);
    site.pages.set("/about", page({ title: "About", links: ["/"] }));
    const run = await analyze();
    expect((await taskNews()).get(run)).toEqual(["title_length"]);
    const task = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json<{ tasks: { id: number; code: string }[] }>().tasks.find((t) => t.code === "description_present")!;
    const res = await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`);
    expect(res.json()).toMatchObject({ outcome: "still", reused_fresh_report: true, new_tasks: 1 });
  });
});
