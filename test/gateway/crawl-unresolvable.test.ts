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
});
