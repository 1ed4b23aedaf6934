import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// What analyses of a monitored site watch besides the rank. Incidents: its home page closed by
// noindex and its robots.txt closing the whole site open one incident each (watchdog events);
// fixing them closes both. The watchdog: the watched pages' elements are compared on every
// analysis. The sites are the test's own, on loopback; analyses are GET /analyze, an hour apart
// on the test clock.

let closed = true;
let server: Server;
let host: string;
let gw: TestGateway;

let aboutTitle = "About";
let pricingStatus = 200;
let shop: Server;
let shopHost: string;

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
  shop = createServer((req, res) => {
    const html = (title: string, body: string) => `<!DOCTYPE html><html lang=en><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
    if (req.url === "/about") res.writeHead(200, { "content-type": "text/html" }).end(html(aboutTitle, "<p>Who we are.</p>"));
    else if (req.url === "/pricing") res.writeHead(pricingStatus, { "content-type": "text/html" }).end(html("Pricing", "<p>Plans.</p>"));
    else if (req.url === "/") res.writeHead(200, { "content-type": "text/html" }).end(html("Shop", '<a href="/about">About</a> <a href="/pricing">Pricing</a>'));
    else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopHost = `127.0.0.1:${(shop.address() as { port: number }).port}`;
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PLAN_EVERY_S: "0", SVC_PAGE_SAMPLE: "3", SVC_CONFIRM_DELAY_MS: "0", SVC_REPORT_FRESH_S: "0", SVC_UPTIME_PLAN_EVERY_MS: "0" } });
});

afterAll(async () => {
  await gw?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => shop.close(() => resolve()));
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
      // The watchdog saw it too: the home page is a watched page.
      `watchdog.change good Watchdog on ${host}/: robots directives "noindex" → (none)`,
    ].sort());
  });

  it("keeps no incidents for a host nobody monitors", async () => {
    closed = true;
    gw.clock.advance(3600_000);
    const other = host.replace("127.0.0.1", "localhost");
    const res = await gw.call("GET", `/api/v1/analyze?d=${other}`);
    expect(res.statusCode).toBe(200);
    expect(await gw.store.incidents.latest(other, 10)).toEqual([]);
  });
});

interface SiteView {
  watched_pages: { url: string; status: number | null; title: string | null; checked_at: number | null; changed_at: number | null }[] | null;
  watchdog_changes: { url: string; field: string; before: string; after: string; level: string; at: number }[] | null;
}

describe("the watchdog", () => {
  it("watches the home page and the sampled pages, and reports what changed in them on the next analysis", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: shopHost } })).statusCode).toBe(201);
    gw.clock.advance(3600_000);
    const t1 = Math.floor(gw.clock.nowMs() / 1000);
    expect((await gw.call("GET", `/api/v1/analyze?d=${shopHost}`)).statusCode).toBe(200);
    const first = (await gw.call("GET", `/api/v1/site/${shopHost}`)).json<SiteView>();
    const origin = `http://${shopHost}`;
    expect(first.watched_pages).toEqual([
      { url: `${origin}/`, status: 200, title: "Shop", checked_at: t1, changed_at: null },
      { url: `${origin}/about`, status: 200, title: "About", checked_at: t1, changed_at: null },
      { url: `${origin}/pricing`, status: 200, title: "Pricing", checked_at: t1, changed_at: null },
    ]);
    expect(first.watchdog_changes).toEqual([]);

    aboutTitle = "About the team";
    pricingStatus = 404;
    gw.clock.advance(3600_000);
    const t2 = Math.floor(gw.clock.nowMs() / 1000);
    expect((await gw.call("GET", `/api/v1/analyze?d=${shopHost}`)).statusCode).toBe(200);
    const second = (await gw.call("GET", `/api/v1/site/${shopHost}`)).json<SiteView>();
    expect(second.watched_pages?.map((w) => [w.url, w.status, w.changed_at])).toEqual([
      [`${origin}/`, 200, null],
      [`${origin}/about`, 200, t2],
      [`${origin}/pricing`, 404, t2],
    ]);
    expect(second.watchdog_changes?.map(({ url, field, before, after, level, at }) => ({ url, field, before, after, level, at })).sort((a, b) => a.url.localeCompare(b.url) || a.field.localeCompare(b.field))).toEqual([
      { url: `${origin}/about`, field: "content", before: expect.stringMatching(/^\d+ bytes$/), after: expect.stringMatching(/^\d+ bytes$/), level: "info", at: t2 },
      { url: `${origin}/about`, field: "h1", before: "About", after: "About the team", level: "info", at: t2 },
      { url: `${origin}/about`, field: "title", before: "About", after: "About the team", level: "warn", at: t2 },
      { url: `${origin}/pricing`, field: "status", before: "200", after: "404", level: "bad", at: t2 },
    ]);
    const feed = (await gw.call("GET", `/api/v1/events?type=watchdog&host=${shopHost}`)).json<{ events: { kind: string; level: string; text: string }[] }>();
    expect(feed.events.map((e) => `${e.kind} ${e.level} ${e.text}`).sort()).toEqual([
      `watchdog.change bad Watchdog on ${shopHost}/pricing: status 200 → 404`,
      `watchdog.change warn Watchdog on ${shopHost}/about: title "About" → "About the team"; H1 "About" → "About the team"`,
    ]);
  });
});
