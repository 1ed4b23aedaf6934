import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestGateway } from "../harness/gateway.ts";
import { events, httpSite, nextSlot, page, startMonitoringGateway, targetsSynced, uptime, type LoopbackSite } from "./monitoring-world.ts";

// An http site goes down, an analysis runs while it is down (a scheduled re-check or a user's
// POST /analyze would do the same), and the site comes back. What the user must be told: one down
// incident from the first failed probe to the first success, a site.down and a site.up, and the site
// up again after two successes — the analysis that got no answer does not move the probe to https.

let gw: TestGateway;
let site: LoopbackSite;
let host: string;

beforeAll(async () => {
  site = await httpSite(page("Shop"));
  host = `127.0.0.1:${site.port}`;
  gw = await startMonitoringGateway();
});

afterAll(async () => {
  await gw?.close();
  await site?.close();
});

describe("a site down during an analysis, then back", () => {
  it("keeps the probe's scheme, is up after two successes, and counts the outage from the first failure to the first success", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    await targetsSynced(gw, [host]);
    const t1 = await nextSlot(gw, [host], (s) => s === "up");
    await nextSlot(gw, [host]);
    expect(await gw.store.uptime.target(host)).toMatchObject({ url: `http://${host}/`, url_known: true, state: "up" });

    // Down; an analysis runs meanwhile: its home page gets no answer (its origin falls back to https).
    await site.stop();
    await gw.call("GET", `/api/v1/analyze?d=${host}&fresh=1`);
    expect((await gw.store.runs.latest(host))?.report.origin).toBe(`https://${host}`);
    // Three planner passes: the targets are synced with the runs again before the next slot.
    await new Promise((r) => setTimeout(r, 400));

    const t3 = await nextSlot(gw, [host], (s) => s === "down");
    expect(await gw.store.uptime.target(host)).toMatchObject({ url: `http://${host}/`, state: "down", last_cause: "connect: connection refused" });

    // Back: the first success does not end it yet, the second does — dated from the first.
    await site.start();
    const t4 = await nextSlot(gw, [host]);
    expect(await uptime(gw, host)).toMatchObject({ up: false, state: "down" });
    const t5 = await nextSlot(gw, [host], (s) => s === "up");
    const u = await uptime(gw, host);
    expect(u).toMatchObject({ up: true, state: "up", since: t4 });
    expect(u.incidents).toEqual([
      { id: expect.any(Number), host, kind: "down", title: `${host} is down`, cause: "connect: connection refused", status: "closed", first_seen: t3, resolved_at: t4, duration: 300 },
    ]);
    expect(await gw.store.uptime.target(host)).toMatchObject({ url: `http://${host}/`, url_known: true });

    // Uptime to the second: 300 s down out of the 1200 observed since the first probe.
    expect(t5 - t1).toBe(1200);
    expect(u.uptime_24h).toBe(75);
    // Six probes: two up, the failure and its confirmation, two up again.
    expect(u.probes.last_24h).toEqual({ probes: 6, failed: 2, avg_total_ms: expect.any(Number) });
    expect(await events(gw, host, "uptime")).toEqual([
      expect.objectContaining({ kind: "site.down", level: "bad", text: `${host} is down (connect: connection refused)` }),
      expect.objectContaining({ kind: "site.up", level: "good", text: `${host} is up again after 5 min` }),
    ]);
  });
});
