import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../runtime/index.ts";
import { digestPlanner, routeEvent, type PlannerContext } from "../../scheduler/index.ts";
import type { EventRecord, WebhookRow } from "../../storage/index.ts";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page } from "../harness/sites/small-site.ts";
import { startScenarioSite, type ScenarioSite } from "./scenario-site.ts";

// The daily digest (depth audit D10): once a UTC day, one `digest` event per account that had
// events the day before, counting them exactly; none for an account whose day was empty, none
// twice; routed to the webhooks subscribed to digest only.

let gw: TestGateway;
let site: ScenarioSite;

beforeAll(async () => {
  site = await startScenarioSite();
  site.pages.set("/", page({ title: "Furniture shop home page, chairs and tables", links: ["/about"] }));
  site.pages.set("/about", page({ title: "About the furniture shop and its workshop", links: ["/"] }));
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "2", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

interface Event {
  id: number;
  type: string;
  kind: string;
  level: string;
  host: string | null;
  text: string;
  data: Record<string, unknown>;
}

describe("the daily digest", () => {
  it("summarises yesterday's events of each account once, and reaches the webhooks subscribed to it", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host } })).json().job;
    expect((await untilJobDone(gw, job.id as number)).state).toBe("done");
    const day = (await gw.call("GET", "/api/v1/events?limit=200")).json<{ events: Event[] }>().events;
    const newTasks = day.filter((e) => e.kind === "task.new").length;
    expect(newTasks).toBeGreaterThan(0);
    const quiet = await gw.newAccount("quiet@example.com");

    // The next UTC day: the digest of 2026-11-22 is written once.
    gw.clock.advance(86_400_000);
    const ctx = { store: gw.store, clock: gw.clock, config: gw.config, logger: createLogger("silent") } as unknown as PlannerContext;
    const planner = digestPlanner();
    expect(await planner.run(ctx)).toBe(1);
    expect(await planner.run(ctx)).toBe(0);
    expect(await digestPlanner().run(ctx)).toBe(1); // another scheduler after a takeover: the key holds
    const digests = (await gw.call("GET", "/api/v1/events?type=digest")).json<{ total: number; events: Event[] }>();
    expect(digests.total).toBe(1);
    const digest = digests.events[0]!;
    expect(digest).toMatchObject({
      type: "digest",
      kind: "digest.daily",
      level: "info",
      host: null,
      text: `Your day, 2026-11-22 (UTC): 1 analysis, ${newTasks} new tasks.`,
      data: { day: "2026-11-22", events: day.length, levels: { bad: 0, warn: 0, good: 1, info: newTasks }, kinds: { "analysis.done": 1, "task.new": newTasks } },
    });
    expect((await gw.call("GET", "/api/v1/events?type=digest", { key: quiet.key })).json().total).toBe(0);

    // Delivered to a webhook subscribed to digest, not to one of other types or limited to sites.
    const hook = (id: number, events: string[], hosts: string[] = []) => ({ id, events, hosts }) as unknown as WebhookRow;
    const record = { id: digest.id, account_id: 1, host: null, type: "digest", kind: digest.kind, text: digest.text, level: "info", payload: digest.data, created: 0 } as EventRecord;
    expect(routeEvent(record, [hook(1, ["digest"]), hook(2, ["events", "rank"]), hook(3, ["digest"], [site.host])]).map((r) => [r.webhook.id, r.event])).toEqual([[1, "digest"]]);
  });
});
