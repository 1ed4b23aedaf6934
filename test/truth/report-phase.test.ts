import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page } from "../harness/sites/small-site.ts";
import { startScenarioSite, type ScenarioSite } from "./scenario-site.ts";

// GET /report's phase (depth audit D16) tells whether the report served is the host's latest word:
// "running" while a newer analysis of the host is under way, "done" otherwise.

let gw: TestGateway;
let site: ScenarioSite;

beforeAll(async () => {
  site = await startScenarioSite();
  site.pages.set("/", page({ title: "Furniture shop home page, chairs and tables", links: [] }));
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "2", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "8000" } });
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const phase = async () => (await gw.call("GET", `/api/v1/report/${site.host}`)).json<{ phase: string; run: number }>();

describe("the report's phase", () => {
  it("is running while a newer analysis is under way, done once it ended", async () => {
    const first = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host } })).json().job;
    expect((await untilJobDone(gw, first.id as number)).state).toBe("done");
    const served = await phase();
    expect(served.phase).toBe("done");

    site.delayMs = 1500;
    const second = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host, fresh: true } })).json().job;
    expect(await phase()).toEqual(expect.objectContaining({ phase: "running", run: served.run }));
    site.delayMs = 0;
    expect((await untilJobDone(gw, second.id as number, 60_000)).state).toBe("done");
    const latest = await phase();
    expect(latest.phase).toBe("done");
    expect(latest.run).toBeGreaterThan(served.run);
  });
});
