import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../harness/free-port.ts";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";

// A site that refuses connections (nothing listens on its port; depth audit D12). The user must
// see that it failed: an analysis stores what it measured (the home page did not answer, rank
// capped at 10) and its event is bad news; a crawl has nothing to crawl and ends in error, which
// the event, the job and GET /crawl say. Truth by construction: no "done" event of level good.

let gw: TestGateway;
let host = "";

beforeAll(async () => {
  host = `127.0.0.1:${await freePort()}`;
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "5", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
  expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

interface Event {
  kind: string;
  level: string;
  text: string;
}
const eventsOf = async (type: string) => (await gw.call("GET", `/api/v1/events?type=${type}&host=${host}`)).json<{ events: Event[] }>().events;

describe("a site that refuses connections", () => {
  it("an analysis reports that the site did not answer, as bad news", async () => {
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host } })).json().job;
    expect((await untilJobDone(gw, job.id as number)).state).toBe("done");
    const report = (await gw.call("GET", `/api/v1/report/${host}`)).json<{ rank: { value: number }; items: { code: string; status: string; detail: string }[] }>();
    expect(report.rank.value).toBe(10);
    expect(report.items.find((i) => i.code === "home_status")).toMatchObject({ status: "fail", detail: "the home page did not answer (refused)" });
    // Almost nothing was measured: the rank "if all were fixed" would be a guess, and says so.
    const na = report.items.filter((i) => i.status === "na").length;
    expect(na).toBeGreaterThan(report.items.length / 2);
    const issues = (await gw.call("GET", `/api/v1/issues/${host}`)).json();
    expect(issues).toMatchObject({
      rank: 10,
      after: null,
      gain_all: null,
      after_note: `${na} of ${report.items.length} checks were not measured in this check: a rank after fixing the issues found would rest on the few that were`,
    });
    const done = (await eventsOf("events")).filter((e) => e.kind === "analysis.done");
    expect(done).toEqual([expect.objectContaining({ level: "bad", text: `Analysis of ${host} done: the site did not answer (refused); rank 10` })]);
  });

  it("a crawl ends in error saying why, on the job, the event and GET /crawl", async () => {
    const job = (await gw.call("POST", `/api/v1/crawl/${host}`)).json().job;
    const ended = await untilJobDone(gw, job.id as number);
    const why = `${host} did not answer (refused): nothing to crawl`;
    expect(ended).toMatchObject({ state: "error", error: { reason: "unreachable", detail: why } });
    expect((await eventsOf("crawl")).map((e) => [e.kind, e.level, e.text])).toEqual([["crawl.error", "bad", `Crawl of ${host} failed: ${why}`]]);
    const crawl = await gw.call("GET", `/api/v1/crawl/${host}`);
    expect([crawl.statusCode, crawl.json().code, crawl.json().error]).toEqual([404, "not_found", `${host} has no finished crawl: the last one failed (${why})`]);
    // Nothing anywhere says good.
    expect((await gw.call("GET", `/api/v1/events?host=${host}&level=good`)).json().total).toBe(0);
  });
});
