import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { performanceScore } from "../../analyzer/index.ts";
import { AnalyzeResult, BrowserMetrics, SiteFacts } from "../../proto/index.ts";
import { createLogger } from "../../runtime/index.ts";
import { reposOf, SCHEDULER_KINDS, syncCheckSeries, type KindContext } from "../../scheduler/index.ts";
import type { JobRow } from "../../storage/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { png } from "../harness/lab-pages.ts";

// GET /performance, /deep/{host}/js and /social after one analysis of a loopback site with the
// browser on (Debian's Chromium): the home page with a complete card and profile links, a page
// whose content is built by JavaScript (with a broken card), and a page whose card image is gone.
// One analysis, one browser, measured in the mobile profile only to keep the file short.

const CARD = png(1200, 630);
const TINY = png(50, 50);
const JS_WORDS = 30;

let gw: TestGateway;
let site: Server;
let other: Server;
let host = "";
let origin = "";
const otherHits: string[] = [];
/** Set by the last test: the home page then holds the main thread for BUSY_MS after load. */
let slowHome = false;
const BUSY_MS = 900;

function listen(server: Server, address: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, address, () => resolve((server.address() as { port: number }).port)));
}

beforeAll(async () => {
  other = createServer((req, res) => {
    otherHits.push(req.url ?? "");
    res.writeHead(200).end("{}");
  });
  const otherOrigin = `http://127.0.0.2:${await listen(other, "127.0.0.2")}`;
  const words = Array.from({ length: JS_WORDS }, (_, i) => `w${i}`).join(" ");
  const pages: Record<string, string> = {
    "/": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home of the test</title><meta name="description" content="A home page with a complete card.">
<meta property="og:title" content="Home"><meta property="og:type" content="website"><meta property="og:image" content="ORIGIN/card.png"><meta property="og:url" content="ORIGIN/"><meta property="og:description" content="The home page">
<meta name="twitter:card" content="summary_large_image"></head><body><h1>Home</h1><p>Plain server-rendered text of the home page.</p>
<a href="/app">App</a> <a href="/broken">Broken</a> <a href="https://x.com/svc_test">X</a> <a href="https://www.facebook.com/svcpage">Facebook</a> <a href="https://www.facebook.com/sharer/sharer.php?u=ORIGIN/">Share</a></body></html>`,
    "/app": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading</title><meta property="og:image" content="ORIGIN/tiny.png"></head><body><div id="root"></div>
<script>document.title = "App"; document.getElementById("root").innerHTML = "<h1>App</h1><p>${words}</p>"; fetch("${otherOrigin}/beacon").catch(() => {});</script></body></html>`,
    "/broken": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Broken card</title><meta property="og:title" content="Broken"><meta property="og:type" content="article"><meta property="og:url" content="ORIGIN/broken"><meta property="og:image" content="/gone.png"><meta name="twitter:card" content="summary"></head><body><h1>Broken</h1><a href="/app">App</a></body></html>`,
  };
  site = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/card.png") return void res.writeHead(200, { "content-type": "image/png" }).end(CARD);
    if (path === "/tiny.png") return void res.writeHead(200, { "content-type": "image/png" }).end(TINY);
    const body = pages[path];
    if (body === undefined) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    const busy = slowHome && path === "/" ? `<script>addEventListener("load", () => setTimeout(() => { const end = performance.now() + ${BUSY_MS}; while (performance.now() < end); }, 100));</script>` : "";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body.replaceAll("ORIGIN", origin).replace("</body>", `${busy}</body>`));
  });
  const port = await listen(site, "127.0.0.1");
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  gw = await startTestGateway({
    env: {
      SVC_ALLOW_PRIVATE_TARGETS: "1",
      SVC_PAGE_SAMPLE: "2",
      SVC_CRAWL_MIN_DELAY_MS: "0",
      SVC_FETCH_TIMEOUT_MS: "3000",
      SVC_BROWSER: "auto",
      SVC_BROWSER_PATH: chromiumPath(),
      SVC_BROWSER_PAGES: "2",
      SVC_BROWSER_PROFILES: "mobile",
      // untilJobDone polls every 100 ms: two analyses on a busy machine would spend the default 120 calls an hour.
      SVC_RATE_PER_HOUR: "100000",
    },
  });
});

afterAll(async () => {
  await gw?.close();
  site?.close();
  other?.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

describe("the browser's operations", () => {
  it("answer not_ready before the first check and not_found for a host nobody checked", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    for (const path of [`/performance/${host}`, `/deep/${host}/js`, `/social/${host}`]) {
      expect((await gw.call("GET", `/api/v1${path}`)).json().code).toBe("not_ready");
      expect((await gw.call("GET", `/api/v1${path.replace(host, "never-checked.example")}`)).json().code).toBe("not_found");
    }
  });

  it("serve the performance, JavaScript dependency and social cards of one analysis", async () => {
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host } })).json().job;
    expect(await untilJobDone(gw, job.id as number, 90_000)).toMatchObject({ state: "done" });

    const perf = (await gw.call("GET", `/api/v1/performance/${host}`)).json();
    expect(perf.browser_state).toBe("measured");
    // The home page and the most linked sample page (/app: two links to it, /broken one).
    expect(perf.browser.map((b: { device: string; url: string }) => [b.device, b.url])).toEqual([
      ["mobile", `${origin}/`],
      ["mobile", `${origin}/app`],
    ]);
    for (const b of perf.browser) {
      expect(b.error).toBe("");
      expect(b.fcp_ms).toBeGreaterThan(0);
      expect(Number.isInteger(b.score)).toBe(true);
    }
    // Each run states its throttling: the default, Lighthouse's simulated mobile throttling, and the node's load.
    for (const b of perf.browser) {
      expect(b.throttling).toEqual({ method: "simulate", cpu_slowdown: 4, request_latency_ms: 0, download_kbps: 0, upload_kbps: 0, rtt_ms: 150, throughput_kbps: 1638.4 });
      expect(b.node_load).toBeGreaterThanOrEqual(0);
    }
    expect(perf.note).toContain("2 pages mobile, simulated throttling as Lighthouse's default (4× CPU, 150 ms RTT, 1638.4 Kbit/s)");
    const codes = perf.checks.map((c: { code: string }) => c.code);
    expect(codes).toEqual(expect.arrayContaining(["lcp", "cls", "tbt", "fcp"]));
    expect(perf.checks.find((c: { code: string }) => c.code === "cls")).toMatchObject({ status: "pass", value: 0, group: "performance" });
    // The beacon to another host was refused by the browser's egress rules (third parties: none allowed).
    expect(otherHits).toEqual([]);

    const js = (await gw.call("GET", `/api/v1/deep/${host}/js`)).json();
    expect(js.verdict).toBe("high");
    expect(js.summary).toMatchObject({ pages: 2, by_verdict: { none: 1, low: 0, medium: 0, high: 1 } });
    const [home, app] = js.pages;
    expect(home).toMatchObject({ url: `${origin}/`, verdict: "none", reasons: [] });
    expect(app.url).toBe(`${origin}/app`);
    expect(app.title).toEqual({ raw: "Loading", rendered: "App", state: "changed" });
    expect(app.words).toEqual({ raw: 0, rendered: JS_WORDS + 1, js_only: JS_WORDS + 1, js_share: 1 });
    expect(app.headings.js_only).toEqual(["h1: App"]);

    const social = (await gw.call("GET", `/api/v1/social/${host}`)).json();
    expect(social.profiles).toEqual([
      { network: "facebook", urls: ["https://www.facebook.com/svcpage"] },
      { network: "x", urls: ["https://x.com/svc_test"] },
    ]);
    expect(social.pages).toBe(3);
    const byUrl = Object.fromEntries(social.cards.map((c: { url: string }) => [c.url, c]));
    const statuses = (url: string) => Object.fromEntries(byUrl[url].checks.map((c: { code: string; status: string }) => [c.code, c.status]));
    expect(byUrl[`${origin}/`].image).toEqual({ url: `${origin}/card.png`, status: 200, content_type: "image/png", width: 1200, height: 630, checked: true });
    expect(byUrl[`${origin}/`].score).toBe(100);
    // 50 × 50 for a large card (no twitter:card: X shows the large one): too small, and square.
    expect(statuses(`${origin}/app`)).toEqual({ og_required: "fail", og_description: "warn", twitter_card: "fail", image_reachable: "pass", image_size: "fail", image_aspect: "warn" });
    expect(statuses(`${origin}/broken`)).toEqual({ og_required: "pass", og_description: "warn", twitter_card: "pass", image_reachable: "fail", image_size: "fail", image_aspect: "fail" });
    // 6/6, 1/6 and 2/6 passing checks.
    expect(social.card_score).toBe(Math.round((100 + 17 + 33) / 3));
    expect(Object.fromEntries(social.checks.map((c: { code: string; status: string; value: unknown }) => [c.code, [c.status, c.value]]))).toEqual({
      social_profiles: ["pass", 2],
      og_required: ["fail", "2/3"],
      og_description: ["warn", "1/3"],
      twitter_card: ["fail", "2/3"],
      image_reachable: ["fail", "2/3"],
      image_size: ["fail", "1/3"],
      image_aspect: ["fail", "1/3"],
    });
  });

  it("turns a page that got slower between two checks into a performance.regressed event", async () => {
    slowHome = true;
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host, fresh: true } })).json().job;
    expect(await untilJobDone(gw, job.id as number, 90_000)).toMatchObject({ state: "done" });
    const home = (await gw.call("GET", `/api/v1/performance/${host}`)).json().browser[0];
    expect(home.tbt_ms).toBeGreaterThanOrEqual(BUSY_MS - 50);
    const events = (await gw.call("GET", "/api/v1/events?type=page")).json().events;
    expect(events.map((e: { kind: string; data: { url: string; device: string } }) => [e.kind, e.data.url, e.data.device])).toEqual([["performance.regressed", `${origin}/`, "mobile"]]);
    expect(events[0].text).toContain(`tbt_ms`);
  });
});

// Two checks of one monitored site, settled as the scheduler settles an analysis, whose browser
// measurements of the same page and profile got worse: the regression is in GET /changes and in
// the event feed, with the exact values; a page that held steady and a check without a browser
// add nothing. No browser runs here: the measurements are the facts a crawler node would send.

const HOST = "perf-regress.test";
const ORIGIN = `https://${HOST}`;
let accountId = 0;
let key = "";

const page = (url: string, profile: "mobile" | "desktop", m: Partial<BrowserMetrics>) =>
  BrowserMetrics.fromPartial({ url, profile, viewport: profile, requests: 3, transferBytes: 4000, ...m });

const homeBefore = page(`${ORIGIN}/`, "mobile", { fcpMs: 900, lcpMs: 1500, cls: 0.02, tbtMs: 100, inpMs: 120, ttfbMs: 80 });
// LCP +1100 ms (+73 %) and INP +140 ms (+117 %) regress; FCP +100 ms and TBT +80 ms stay under their absolute thresholds.
const homeAfter = page(`${ORIGIN}/`, "mobile", { fcpMs: 1000, lcpMs: 2600, cls: 0.02, tbtMs: 180, inpMs: 260, ttfbMs: 90 });
const about = page(`${ORIGIN}/about`, "desktop", { fcpMs: 500, lcpMs: 700, cls: 0, tbtMs: 0, inpMs: 40, ttfbMs: 50 });

let jobIds = 700_000;
async function settle(checkedAt: number, browserPages: BrowserMetrics[], browserState = "measured"): Promise<number> {
  const facts = SiteFacts.fromPartial({
    host: HOST,
    origin: ORIGIN,
    checkedAt,
    home: { response: { status: 200, requestedUrl: `${ORIGIN}/`, finalUrl: `${ORIGIN}/` } },
    browserState,
    browserPages,
  });
  const now = Math.floor(gw.clock.nowMs() / 1000);
  const ctx: KindContext = { config: gw.config, clock: gw.clock, logger: createLogger("silent"), now: () => now };
  const id = ++jobIds;
  const job = { id, account_id: accountId, kind: "analyze", host: HOST, state: "running", progress: 0, step: null, error: null, error_detail: null, cached: false, sync: false, attempt: 1, max_attempts: 3, worker: null, lease_until_ms: null, checkpoint: null, run_id: null, created: now, updated: now, finished: null, target: null } as JobRow;
  const { runId } = await gw.store.tx((t) => SCHEDULER_KINDS.analyze.settle(ctx, reposOf(SCHEDULER_KINDS.analyze, t), job, AnalyzeResult.fromPartial({ facts })));
  return runId as number;
}

describe("performance regressions between two checks", () => {
  beforeAll(async () => {
    const acct = await gw.newAccount("perf-changes@example.com");
    accountId = acct.accountId;
    key = acct.key;
    await gw.store.sites.add(accountId, HOST, 24, Math.floor(gw.clock.nowMs() / 1000));
  });

  it("lists the metrics of a page and profile that got worse in GET /changes and as one event, exactly", async () => {
    const t0 = Math.floor(gw.clock.nowMs() / 1000);
    const first = await settle(t0 - 7200, [homeBefore, about]);
    const second = await settle(t0 - 3600, [homeAfter, about]);

    // The two series points of the page and profile, as the time-series store keeps them.
    await syncCheckSeries(gw.store);
    expect((await gw.store.checks.history(HOST, "browser:mobile:lcp_ms:/", 10)).map((p) => p.value)).toEqual(["2600", "1500"]);

    // Lighthouse's curves give 99 and 94: five points, under the ten a score must lose.
    const [scoreFrom, scoreTo] = [performanceScore(homeBefore), performanceScore(homeAfter)];
    expect([scoreFrom, scoreTo]).toEqual([99, 94]);
    const res = await gw.call("GET", `/api/v1/changes/${HOST}`, { key });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect({ from: body.from.id, to: body.to.id, changed: body.changed }).toEqual({ from: first, to: second, changed: true });
    expect(body.performance).toEqual([
      { url: `${ORIGIN}/`, device: "mobile", metric: "lcp_ms", from: 1500, to: 2600 },
      { url: `${ORIGIN}/`, device: "mobile", metric: "inp_ms", from: 120, to: 260 },
    ]);

    const events = (await gw.call("GET", "/api/v1/events?type=page", { key })).json().events as { kind: string; text: string; data: Record<string, unknown> }[];
    const regressed = events.filter((e) => e.kind === "performance.regressed");
    expect(regressed).toHaveLength(1);
    expect(regressed[0]?.data).toMatchObject({
      url: `${ORIGIN}/`,
      device: "mobile",
      score_from: scoreFrom,
      score_to: scoreTo,
      run: second,
      previous_run: first,
    });
    expect(regressed[0]?.data.metrics).toEqual([
      { metric: "lcp_ms", from: 1500, to: 2600 },
      { metric: "inp_ms", from: 120, to: 260 },
    ]);
    expect(regressed[0]?.text).toContain("lcp_ms 1500 → 2600, inp_ms 120 → 260");
    expect(gw.violations).toEqual([]);
  });

  it("lists nothing for a check that held steady or had no browser, and compares the checks asked for", async () => {
    const t0 = Math.floor(gw.clock.nowMs() / 1000);
    const steady = await settle(t0 - 1800, [homeAfter, about]);
    const steadyRes = (await gw.call("GET", `/api/v1/changes/${HOST}`, { key })).json();
    expect({ to: steadyRes.to.id, performance: steadyRes.performance }).toEqual({ to: steady, performance: [] });
    // A check without a browser carries the last run forward: no page is compared twice.
    const without = await settle(t0 - 900, [], "off");
    const withoutRes = (await gw.call("GET", `/api/v1/changes/${HOST}`, { key })).json();
    expect({ to: withoutRes.to.id, performance: withoutRes.performance }).toEqual({ to: without, performance: [] });
    // A check whose runs had another throttling method (SVC_BROWSER_THROTTLING changed) is no regression, however slower.
    const throttled = { method: "devtools", cpuSlowdown: 4, requestLatencyMs: 562.5, downloadKbps: 1474.56, uploadKbps: 675, rttMs: 0, throughputKbps: 0 };
    const switched = await settle(t0 - 600, [{ ...homeAfter, lcpMs: 9000, fcpMs: 4000, throttling: throttled }, about]);
    const switchedRes = (await gw.call("GET", `/api/v1/changes/${HOST}`, { key })).json();
    expect({ to: switchedRes.to.id, performance: switchedRes.performance }).toEqual({ to: switched, performance: [] });
    // from/to pick older checks: the first two again show the regression.
    const history = (await gw.call("GET", `/api/v1/history/${HOST}`, { key })).json().runs as { id: number }[];
    const [first, second] = history.map((r) => r.id).sort((a, b) => a - b);
    const picked = (await gw.call("GET", `/api/v1/changes/${HOST}?from=${first}&to=${second}`, { key })).json();
    expect(picked.performance.map((p: { metric: string; from: number; to: number }) => [p.metric, p.from, p.to])).toEqual([
      ["lcp_ms", 1500, 2600],
      ["inp_ms", 120, 260],
    ]);
  });
});
