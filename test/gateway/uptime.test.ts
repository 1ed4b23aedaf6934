import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../runtime/index.ts";
import { SCHEDULER_STREAM_KINDS } from "../../scheduler/index.ts";
import { ProbeResult } from "../../proto/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// A site the test drives goes down, blips, slows down and comes back, with the clock under the
// test's control: one probe per 5-minute slot (the default plan), each slot reached by moving the
// clock. The whole path runs: uptime planner → outbox → stream topic → crawler probe → results
// topic → the scheduler's writer → state machine, incidents, events → the API.

const SLOT = 300;

type Mode = "up" | "down" | "slow";
let mode: Mode = "up";
let failNext = 0;
let server: Server;
let host: string;
let gw: TestGateway;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (failNext > 0 || mode === "down") {
      if (failNext > 0) failNext -= 1;
      res.writeHead(503, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Unavailable</title>");
      return;
    }
    const answer = () => res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><html lang=en><title>Up</title><h1>Up</h1></html>");
    if (mode === "slow") setTimeout(answer, 400);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  gw = await startTestGateway({
    env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_UPTIME_PLAN_EVERY_MS: "50", SVC_UPTIME_SLOW_MS: "250", SVC_PLAN_EVERY_S: "0", SVC_PAGE_SAMPLE: "0", SVC_CONFIRM_DELAY_MS: "0" },
  });
  // A host's first slot lies at a stable offset within its interval; for one port in 300 the offset
  // is 0 and the first probe is due at once, before the case moves the clock: take another port.
  const offsetOf = async (h: string) => (await gw.db.query<{ s: number }>("SELECT abs(hashtext($1)) % $2 AS s", [h, SLOT]))[0]!.s;
  while ((await offsetOf(host)) === 0) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  }
});

afterAll(async () => {
  await gw?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Uptime {
  up: boolean | null;
  state: string;
  since: number | null;
  last_check: number | null;
  uptime_24h: number | null;
  uptime_7d: number | null;
  incidents: { id: number; kind: string; status: string; first_seen: number; resolved_at: number | null; duration: number; cause: string }[];
}

const uptime = async (): Promise<Uptime> => (await gw.call("GET", `/api/v1/uptime/${host}`)).json<Uptime>();

/**
 * Waits (reading the store, not the API: polling would spend the key's hourly limit) until the
 * probe of the current clock time has been settled, and its confirmation if any; then asks the API.
 */
async function settledAt(at: number, until: (state: string) => boolean = () => true): Promise<Uptime> {
  for (let i = 0; i < 400; i++) {
    const t = await gw.store.uptime.target(host);
    if (t && t.last_check === at && t.state !== "suspect" && until(t.state)) return uptime();
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no settled probe at ${at}: ${JSON.stringify(await gw.store.uptime.target(host))}`);
}

/** Moves the clock to the host's next slot and waits for that probe. */
async function nextSlot(until?: (state: string) => boolean): Promise<{ at: number; u: Uptime }> {
  gw.clock.advance(SLOT * 1000);
  const at = Math.floor(gw.clock.nowMs() / 1000);
  return { at, u: await settledAt(at, until) };
}

describe("uptime probes and incidents", () => {
  it("probes a monitored site every slot, confirms a down before calling it one, and counts uptime by the second", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    // The analysis resolves the home URL the probes use (http:// here).
    expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
    expect(await uptime()).toMatchObject({ up: null, state: "unknown", uptime_24h: null, incidents: [] });

    // Slot 1: up. The first slot lies within one interval of the start (a stable offset per host).
    const { at: t1, u: first } = await nextSlot((state) => state === "up");
    expect(first).toMatchObject({ up: true, state: "up", since: t1, uptime_24h: 100, incidents: [] });

    // Slot 2: the site answers 503; the confirmation probe (at once) fails too: down since slot 2.
    mode = "down";
    const { at: t2, u: down } = await nextSlot((state) => state === "down");
    expect(down).toMatchObject({ up: false, state: "down", since: t2 });
    expect(down.incidents).toEqual([{ id: expect.any(Number), host, kind: "down", title: `${host} is down`, cause: "http: http 503", status: "open", first_seen: t2, resolved_at: null, duration: 0 }]);

    // Slots 3 and 4: still down; then up, but one success is not enough: up after two. The site
    // answered again from the first of them: the incident ends there, not at the confirming one.
    await nextSlot();
    mode = "up";
    const { at: t4, u: once } = await nextSlot();
    expect(once).toMatchObject({ up: false, state: "down" });
    const { u: back } = await nextSlot((state) => state === "up");
    expect(back).toMatchObject({ up: true, state: "up", since: t4 });
    expect(back.incidents[0]).toMatchObject({ kind: "down", status: "closed", first_seen: t2, resolved_at: t4, duration: t4 - t2 });

    // A blip: one failed probe, the confirmation succeeds: no incident, still up.
    failNext = 1;
    const { u: blip } = await nextSlot();
    expect(blip).toMatchObject({ up: true, state: "up", since: t4 });
    expect(blip.incidents).toHaveLength(1);

    // Uptime of the last 24 h, to the second: down from t2 to t4 out of what was observed since t1.
    const now = Math.floor(gw.clock.nowMs() / 1000);
    const expected = Math.round((1 - (t4 - t2) / (now - t1)) * 100_000) / 1000;
    expect(blip.uptime_24h).toBe(expected);
    expect(blip.uptime_7d).toBe(expected);

    // Slow: three slow answers make it degraded (an incident of its own), two fast ones end it.
    mode = "slow";
    await nextSlot();
    await nextSlot();
    const { at: t8, u: slow } = await nextSlot((state) => state === "degraded");
    expect(slow).toMatchObject({ up: true, state: "degraded", since: t8 });
    expect(slow.incidents[0]).toMatchObject({ kind: "degraded", status: "open", first_seen: t8 });
    mode = "up";
    await nextSlot();
    const { at: t10, u: fast } = await nextSlot((state) => state === "up");
    expect(fast.incidents[0]).toMatchObject({ kind: "degraded", status: "closed", resolved_at: t10 });

    // The feed tells each change once, as a person would read it.
    const feed = (await gw.call("GET", `/api/v1/events?type=uptime&host=${host}`)).json<{ events: { kind: string; level: string; text: string }[] }>().events;
    expect(feed.map((e) => e.kind).reverse()).toEqual(["site.down", "site.up", "site.degraded", "site.recovered"]);
    expect(feed.at(-1)).toMatchObject({ level: "bad", text: `${host} is down (http: http 503)` });

    // GET /incidents: both, newest first; and by status.
    const incidents = (await gw.call("GET", "/api/v1/incidents?days=1")).json();
    expect(incidents.incidents.map((i: { kind: string }) => i.kind)).toEqual(["degraded", "down"]);
    expect((await gw.call("GET", "/api/v1/incidents?status=open")).json().incidents).toEqual([]);

    // The overview knows the site is online.
    const overview = (await gw.call("GET", "/api/v1/overview")).json();
    expect(overview.sites[0]).toMatchObject({ host, online: true });
    expect(overview.summary.down).toBe(0);
  });

  it("answers 404 for a site the account does not monitor", async () => {
    const other = await gw.newAccount("other@example.com");
    const res = await gw.call("GET", `/api/v1/uptime/${host}`, { key: other.key });
    expect(res.statusCode).toBe(404);
    expect((await gw.call("GET", "/api/v1/incidents", { key: other.key })).json().incidents).toEqual([]);
    expect((await gw.call("GET", "/api/v1/events", { key: other.key })).json().events).toEqual([]);
  });

  it("holds the failures of a node that suspects itself: no suspicion, no confirmation, no incident", async () => {
    const before = await gw.store.uptime.target(host);
    expect(before?.state).toBe("up");
    const now = Math.floor(gw.clock.nowMs() / 1000);
    const ctx = { config: gw.config, clock: gw.clock, logger: createLogger("silent"), now: () => now };
    const result = ProbeResult.fromPartial({
      nodeSuspect: true,
      outcomes: [{ host, slot: now + 7, confirm: false, atMs: now * 1000, ok: false, status: 0, cause: "dns", detail: "EAI_AGAIN" }],
    });
    await SCHEDULER_STREAM_KINDS.probe.settle(ctx, gw.store, result, "crawler-broken");
    const after = await gw.store.uptime.target(host);
    expect(after).toMatchObject({ state: "up", since: before?.since, fails: 0, last_cause: "dns: EAI_AGAIN" });
    expect((await gw.call("GET", "/api/v1/incidents?status=open")).json().incidents).toEqual([]);
  });
});

describe("the uptime keyword (an extension of POST /sites)", () => {
  it("fails a probe whose answer lacks the site's keyword, confirms it, and opens a down incident saying why", async () => {
    let page = "<!DOCTYPE html><html lang=en><title>Shop</title><h1>Welcome to the shop</h1></html>";
    const shop = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page));
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
    const shopHost = `127.0.0.1:${(shop.address() as { port: number }).port}`;
    try {
      expect((await gw.call("POST", "/api/v1/sites", { body: { host: shopHost, keyword: "Welcome to the shop" } })).statusCode).toBe(201);
      expect((await gw.call("GET", `/api/v1/analyze?d=${shopHost}`)).statusCode).toBe(200);
      const settled = async (at: number, state: string) => {
        for (let i = 0; i < 400; i++) {
          const t = await gw.store.uptime.target(shopHost);
          if (t && t.last_check === at && t.state === state) return t;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error(`${shopHost} not ${state} at ${at}: ${JSON.stringify(await gw.store.uptime.target(shopHost))}`);
      };
      gw.clock.advance(SLOT * 1000);
      expect(await settled(Math.floor(gw.clock.nowMs() / 1000), "up")).toMatchObject({ keyword: "Welcome to the shop", last_status: 200 });

      // The shop answers 200, but with a maintenance page: down, confirmed, the cause named.
      page = "<!DOCTYPE html><html lang=en><title>Shop</title><h1>Back soon</h1></html>";
      gw.clock.advance(SLOT * 1000);
      const t2 = Math.floor(gw.clock.nowMs() / 1000);
      expect(await settled(t2, "down")).toMatchObject({ last_status: 200, last_cause: 'keyword: "Welcome to the shop" not found in the first 64 KB' });
      const u = (await gw.call("GET", `/api/v1/uptime/${shopHost}`)).json<Uptime>();
      expect(u.incidents).toEqual([
        { id: expect.any(Number), host: shopHost, kind: "down", title: `${shopHost} is down`, cause: 'keyword: "Welcome to the shop" not found in the first 64 KB', status: "open", first_seen: t2, resolved_at: null, duration: 0 },
      ]);

      // The keyword removed (an empty string): the same page is up again after two probes.
      expect((await gw.call("POST", "/api/v1/sites", { body: { host: shopHost, keyword: "" } })).json()).toMatchObject({ added: false });
      // The planner's next pass gives the target the site's new keyword.
      for (let i = 0; i < 400 && (await gw.store.uptime.target(shopHost))?.keyword !== ""; i++) await new Promise((r) => setTimeout(r, 25));
      gw.clock.advance(SLOT * 1000);
      await settled(Math.floor(gw.clock.nowMs() / 1000), "down");
      gw.clock.advance(SLOT * 1000);
      expect(await settled(Math.floor(gw.clock.nowMs() / 1000), "up")).toMatchObject({ keyword: "" });
    } finally {
      await new Promise<void>((resolve) => shop.close(() => resolve()));
    }
  });
});
