import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestGateway } from "../harness/gateway.ts";
import { events, httpSite, nextSlot, startMonitoringGateway, targetsSynced, uptime, type LoopbackSite } from "./monitoring-world.ts";

// Sites that flap, with the truth of every request known: an incident exactly when a failure is
// confirmed, none for a failure the confirmation does not see again, and uptime to the second.

let gw: TestGateway;
const sites: LoopbackSite[] = [];
/** Per site: the answers to give, one per request once flapping starts (then 200 for ever). */
const scripts = new Map<number, boolean[] | null>();

async function flappingSite(): Promise<{ host: string; port: number }> {
  let port = 0;
  const site = await httpSite((_req, res) => {
    const script = scripts.get(port);
    const ok = script ? (script.shift() ?? true) : true;
    res.writeHead(ok ? 200 : 503, { "content-type": "text/html" }).end(`<!DOCTYPE html><html lang=en><title>${ok ? "Shop" : "Unavailable"}</title></html>`);
  });
  port = site.port;
  sites.push(site);
  return { host: `127.0.0.1:${port}`, port };
}

beforeAll(async () => {
  gw = await startMonitoringGateway();
});

afterAll(async () => {
  await gw?.close();
  for (const s of sites) await s.close();
});

describe("a site flapping", () => {
  it("every probe (each slot fails, each confirmation succeeds): no incident, no event, uptime 100", async () => {
    const { host, port } = await flappingSite();
    expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    await targetsSynced(gw, [host]);
    const t1 = await nextSlot(gw, [host], (s) => s === "up");
    // From now on: fail, succeed, fail, succeed… — each slot's probe fails, its confirmation succeeds.
    scripts.set(port, Array.from({ length: 8 }, (_, i) => i % 2 === 1));
    for (let i = 0; i < 4; i++) await nextSlot(gw, [host]);
    const u = await uptime(gw, host);
    expect(u).toMatchObject({ up: true, state: "up", since: t1, uptime_24h: 100, incidents: [] });
    expect(u.probes.last_24h).toEqual({ probes: 9, failed: 4, avg_total_ms: expect.any(Number) });
    expect(await events(gw, host, "uptime")).toEqual([]);
    scripts.delete(port);
  });

  it("every other slot, confirmed each time: one incident per outage, from the first failure to the first success", async () => {
    const { host, port } = await flappingSite();
    expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    await targetsSynced(gw, [host]);
    const t1 = await nextSlot(gw, [host], (s) => s === "up");
    // Slot 2 fails and its confirmation too; slots 3 and 4 succeed; slot 5 and its confirmation
    // fail; slots 6 and 7 succeed.
    scripts.set(port, [false, false, true, true, false, false, true, true]);
    const t2 = await nextSlot(gw, [host], (s) => s === "down");
    const t3 = await nextSlot(gw, [host]);
    await nextSlot(gw, [host], (s) => s === "up");
    const t5 = await nextSlot(gw, [host], (s) => s === "down");
    const t6 = await nextSlot(gw, [host]);
    const t7 = await nextSlot(gw, [host], (s) => s === "up");
    const u = await uptime(gw, host);
    expect(u.incidents.map((i) => [i.kind, i.status, i.first_seen, i.resolved_at, i.duration, i.cause])).toEqual([
      ["down", "closed", t5, t6, 300, "http: http 503"],
      ["down", "closed", t2, t3, 300, "http: http 503"],
    ]);
    // 600 s down out of the 1800 observed since the first probe.
    expect(t7 - t1).toBe(1800);
    expect(u).toMatchObject({ up: true, state: "up", since: t6, uptime_24h: 66.667 });
    expect(u.probes.last_24h).toEqual({ probes: 9, failed: 4, avg_total_ms: expect.any(Number) });
    expect((await events(gw, host, "uptime")).map((e) => [e.kind, e.text])).toEqual([
      ["site.down", `${host} is down (http: http 503)`],
      ["site.up", `${host} is up again after 5 min`],
      ["site.down", `${host} is down (http: http 503)`],
      ["site.up", `${host} is up again after 5 min`],
    ]);
  });
});
