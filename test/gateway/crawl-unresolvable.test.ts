import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type FixtureDnsServer } from "../harness/fixture-web/dns-server.ts";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";

// The crawler asks a DNS server of the test's own, which knows one zone: a name in it that has
// no records is NXDOMAIN, as a mistyped host would be on the internet.

let gw: TestGateway;
let dns: FixtureDnsServer;
beforeAll(async () => {
  dns = await startDnsServer([{ origin: "fixture.test", names: { "@": { A: ["127.0.0.1"] } } }]);
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_DNS_SERVERS: dns.address, SVC_PLAN_EVERY_S: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
});
afterAll(async () => {
  await gw.close();
  await dns.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

describe("a crawl of a host that does not resolve", () => {
  it("ends in error saying so, at the first attempt, with nothing fetched", async () => {
    const started = await gw.call("POST", "/api/v1/crawl/missing.fixture.test");
    expect(started.statusCode).toBe(202);
    const job = await untilJobDone(gw, started.json().job.id as number);
    expect(job.state).toBe("error");
    expect(JSON.stringify(job)).toContain("missing.fixture.test does not resolve (ENOTFOUND)");
  });

  it("takes fresh as 1/0 or true/false in the query, or in a JSON body, and refuses other body fields", async () => {
    const host = "also-missing.fixture.test";
    for (const [url, body] of [
      [`/api/v1/crawl/${host}?fresh=1`, undefined],
      [`/api/v1/crawl/${host}?fresh=true`, undefined],
      [`/api/v1/crawl/${host}?fresh=0`, undefined],
      [`/api/v1/crawl/${host}`, { fresh: true }],
      [`/api/v1/crawl/${host}`, undefined],
    ] as const) {
      const res = await gw.call("POST", url, body ? { body } : {});
      expect([url, body, res.statusCode]).toEqual([url, body, 202]);
    }
    const typo = await gw.call("POST", `/api/v1/crawl/${host}`, { body: { frsh: true } });
    expect(typo.json()).toMatchObject({ code: "bad_param", param: "frsh" });
    const two = await gw.call("POST", `/api/v1/crawl/${host}?fresh=2`);
    expect(two.json()).toMatchObject({ code: "bad_param", param: "fresh" });
  });
});
