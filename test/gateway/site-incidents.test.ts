import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Incidents an analysis finds: a monitored site's home page closed by noindex and its robots.txt
// closing the whole site open one incident each (watchdog events); fixing them closes both. The
// site is the test's own, on loopback; analyses are GET /analyze, an hour apart on the test clock.

let closed = true;
let server: Server;
let host: string;
let gw: TestGateway;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" }).end(closed ? "User-agent: *\nDisallow: /\n" : "User-agent: *\nDisallow: /admin/\n");
      return;
    }
    const robots = closed ? '<meta name="robots" content="noindex">' : "";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!DOCTYPE html><html lang=en><head><title>Shop</title>${robots}</head><body><h1>Shop</h1></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PLAN_EVERY_S: "0", SVC_PAGE_SAMPLE: "0", SVC_CONFIRM_DELAY_MS: "0" } });
});

afterAll(async () => {
  await gw?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Incident {
  id: number;
  host: string;
  kind: string;
  title: string;
  cause: string;
  status: string;
  first_seen: number;
  resolved_at: number | null;
  duration: number;
}

const incidents = async (): Promise<Incident[]> => (await gw.call("GET", `/api/v1/incidents?host=${host}`)).json<{ incidents: Incident[] }>().incidents;

describe("incidents found by analyses", () => {
  it("opens a noindex and a robots incident on a monitored site, and closes both when they are fixed", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    const t1 = Math.floor(gw.clock.nowMs() / 1000);
    expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    const opened = await incidents();
    expect(opened.map((i) => ({ ...i, id: 0 })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { id: 0, host, kind: "noindex", title: `The home page of ${host} is closed by noindex`, cause: "home page: robots meta tag", status: "open", first_seen: t1, resolved_at: null, duration: 0 },
      { id: 0, host, kind: "robots", title: `robots.txt of ${host} closes the whole site to search engines`, cause: "Disallow: / for *", status: "open", first_seen: t1, resolved_at: null, duration: 0 },
    ]);

    // The same problems an hour later: still one incident each.
    gw.clock.advance(3600_000);
    expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    expect((await incidents()).map((i) => i.id).sort()).toEqual(opened.map((i) => i.id).sort());

    closed = false;
    gw.clock.advance(3600_000);
    const t3 = Math.floor(gw.clock.nowMs() / 1000);
    expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    const after = await incidents();
    expect(after.map((i) => [i.kind, i.status, i.resolved_at, i.duration]).sort()).toEqual([
      ["noindex", "closed", t3, t3 - t1],
      ["robots", "closed", t3, t3 - t1],
    ]);

    const feed = (await gw.call("GET", `/api/v1/events?type=watchdog&host=${host}`)).json<{ events: { kind: string; level: string; text: string }[] }>();
    expect(feed.events.map((e) => `${e.kind} ${e.level} ${e.text}`).sort()).toEqual([
      `incident.closed good robots.txt of ${host} no longer closes the whole site`,
      `incident.closed good The home page of ${host} is open to indexing again`,
      `incident.opened bad robots.txt of ${host} closes the whole site to search engines`,
      `incident.opened bad The home page of ${host} is closed by noindex`,
    ].sort());
  });

  it("keeps no incidents for a host nobody monitors", async () => {
    closed = true;
    gw.clock.advance(3600_000);
    const other = host.replace("127.0.0.1", "localhost");
    const res = await gw.call("GET", `/api/v1/analyze?d=${other}`);
    expect(res.statusCode).toBe(200);
    expect(await gw.store.uptime.incidentsOf(other, 10)).toEqual([]);
  });
});
