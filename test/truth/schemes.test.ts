import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa, type TestCa } from "../harness/fixture-web/ca.ts";
import type { TestGateway } from "../harness/gateway.ts";
import { events, httpSite, httpsSite, mixedSite, nextSlot, page, startMonitoringGateway, targetsSynced, uptime, type LoopbackSite } from "./monitoring-world.ts";

// Three healthy sites added fresh, as a new user adds them: one that speaks only http, one only
// https, one that answers both on its port (http redirecting to https). Nothing is wrong with any of
// them, so nothing may be reported: no incident and no site.down, before their first analysis
// (when Svc does not know their scheme yet) and after it. The probe's URL is the scheme each
// site answers on.

let gw: TestGateway;
let ca: TestCa;
const sites: LoopbackSite[] = [];
let httpOnly: string;
let httpsOnly: string;
let mixed: string;

beforeAll(async () => {
  ca = await createTestCa();
  const plain = await httpSite(page("Plain shop"));
  const secure = await httpsSite(ca.issue("valid", ["secure.localhost"]), page("Secure shop"));
  const both = await mixedSite(ca.issue("valid", ["mixed.localhost"]), "mixed.localhost", page("Mixed shop"));
  sites.push(plain, secure, both);
  httpOnly = `127.0.0.1:${plain.port}`;
  httpsOnly = `secure.localhost:${secure.port}`;
  mixed = `mixed.localhost:${both.port}`;
  gw = await startMonitoringGateway({ SVC_EXTRA_CA_FILE: ca.caFile });
});

afterAll(async () => {
  await gw?.close();
  for (const s of sites) await s.close();
  await ca?.close();
});

describe("sites added fresh, whatever their scheme", () => {
  it("are up from their first probe, before and after their first analysis, with no incident and no site.down", async () => {
    const hosts = [httpOnly, httpsOnly, mixed];
    for (const host of hosts) expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    await targetsSynced(gw, hosts);

    // Before any analysis: two slots, every site up from its first probe.
    const t1 = await nextSlot(gw, hosts);
    await nextSlot(gw, hosts);
    for (const host of hosts) expect(await uptime(gw, host)).toMatchObject({ up: true, state: "up", since: t1, uptime_24h: 100, incidents: [] });
    expect((await gw.store.uptime.target(httpOnly))?.url).toBe(`${"http"}://${httpOnly}/`);
    expect((await gw.store.uptime.target(httpsOnly))?.url).toBe(`https://${httpsOnly}/`);
    expect((await gw.store.uptime.target(mixed))?.url).toBe(`https://${mixed}/`);
    // Each probe ran once per slot and none failed (no TLS error counted against the http site).
    for (const host of hosts) expect((await uptime(gw, host)).probes.last_24h).toEqual({ probes: 2, failed: 0, avg_total_ms: expect.any(Number) });

    // The first analysis of each resolves the same scheme; two more slots change nothing.
    for (const host of hosts) expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    await nextSlot(gw, hosts);
    await nextSlot(gw, hosts);
    expect((await gw.store.uptime.target(httpOnly))).toMatchObject({ url: `http://${httpOnly}/`, url_known: true });
    expect((await gw.store.uptime.target(httpsOnly))).toMatchObject({ url: `https://${httpsOnly}/`, url_known: true });
    expect((await gw.store.uptime.target(mixed))).toMatchObject({ url: `https://${mixed}/`, url_known: true });
    for (const host of hosts) {
      expect(await uptime(gw, host)).toMatchObject({ up: true, state: "up", since: t1, uptime_24h: 100, incidents: [], probes: { last_24h: { probes: 4, failed: 0 } } });
      expect(await events(gw, host, "uptime")).toEqual([]);
    }
    expect((await gw.call("GET", "/api/v1/incidents?days=1&status=all")).json().incidents).toEqual([]);
  });
});
