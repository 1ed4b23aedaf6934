// Browser metrics against pages built to produce known values, in Debian's Chromium (installed by
// the harness when missing), served on 127.0.0.1. Figures are asserted with the precision the built
// value allows, and times only from below: this machine may be slow, never faster than the page.
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWLER_KINDS, failureOf, createBrowserPool, createCrawlerNode, createEgress, dnsResolver, resolveTarget, type BrowserPool, type Egress } from "../../crawler/index.ts";
import { BrowserMetrics, Retry } from "../../proto/index.ts";
import { loadConfig, systemClock } from "../../runtime/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { BUILT_CLS, CLICK_HANDLER_MS, HERO_PNG, JS_HIDDEN_WORDS, JS_VISIBLE_WORDS, labPages, LONG_TASK_MS, png } from "../harness/lab-pages.ts";

/**
 * A centred desktop page that becomes scrollable after load: a classic scrollbar appears and moves
 * the body sideways, a shift Lighthouse counts (Chromium without --hide-scrollbars).
 */
const SCROLLBAR_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Scrollbar</title><style>body{margin:0 auto;width:1000px}#box{height:900px;background:#ccd}</style></head><body><div id="box">A centred box</div><script>addEventListener("load", () => setTimeout(() => { const d = document.createElement("div"); d.style.height = "2000px"; document.body.append(d); }, 300));</script></body></html>`;
/** Answered this late: an image requested after load that outlasts the 1 s of quiet before reading. */
const SLOW_IMAGE_MS = 1500;
/** A page that inserts a large image at load; the image answers after SLOW_IMAGE_MS. */
const LATE_SLOW_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Late</title></head><body><p>Text first.</p><div id="slot"></div><script>addEventListener("load", () => { const i = new Image(412, 309); i.src = "/slow-hero.png"; document.getElementById("slot").append(i); });</script></body></html>`;
const HOME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><h1>Home</h1><p>A small page for the collector.</p></body></html>`;
/** A page whose image request is where a test crashes Chromium under the measurement (crashOnImage). */
const CRASH_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Crash</title></head><body><img src="/crash.png" width="412" height="309" alt="A grey hero image"><p>Caption</p></body></html>`;

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly cmd: string;
}

/** This machine's processes, from /proc. */
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.push({ pid: Number(name), ppid, cmd: readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ") });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The Chromium browsers this test process launched (Playwright drives them over a pipe). */
const ourBrowsers = (): number[] => processes().filter((p) => p.ppid === process.pid && p.cmd.includes("--remote-debugging-pipe")).map((p) => p.pid);

/** The renderer processes of a browser (children of its zygote). */
function renderersOf(browserPid: number): number[] {
  const all = processes();
  const tree = new Set([browserPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (!tree.has(p.pid) && tree.has(p.ppid)) grew = Boolean(tree.add(p.pid));
  }
  return all.filter((p) => tree.has(p.pid) && p.cmd.includes("--type=renderer")).map((p) => p.pid);
}

/** Set by a test: called when a page asks for /crash.png (before it is answered). */
let crashOnImage: (() => void) | null = null;

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      const a = server.address();
      resolve(typeof a === "object" && a ? a.port : 0);
    });
  });
}

describe("browser metrics", () => {
  let site: Server;
  let other: Server;
  let origin = "";
  let otherOrigin = "";
  const otherHits: string[] = [];
  let egress: Egress;
  let pool: BrowserPool;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    other = createServer((req, res) => {
      otherHits.push(req.url ?? "");
      res.writeHead(200, { "content-type": "image/png" }).end(png(1, 1));
    });
    otherOrigin = `http://127.0.0.2:${await listen(other, "127.0.0.2")}`;
    const served: Record<string, string> = { ...labPages(otherOrigin), "/": HOME, "/crash": CRASH_PAGE, "/scrollbar": SCROLLBAR_PAGE, "/late-slow": LATE_SLOW_PAGE };
    site = createServer((req, res) => {
      if (req.url === "/hero.png") return void res.writeHead(200, { "content-type": "image/png" }).end(HERO_PNG);
      if (req.url === "/slow-hero.png") return void setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(HERO_PNG), SLOW_IMAGE_MS);
      if (req.url === "/crash.png") {
        // The browser loading the page asks with GET; the crawl's own check of the image asks with HEAD.
        if (req.method === "GET") crashOnImage?.();
        // Answered a little later: a crash under the page has ended its measurement by then.
        return void setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(HERO_PNG), 300);
      }
      const body = served[req.url ?? ""];
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
    });
    origin = `http://127.0.0.1:${await listen(site, "127.0.0.1")}`;
    egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 5000 });
    // Measured one page at a time (the default), as in production; third parties allowed here so
    // that only the address rules are under test in "the egress guard".
    pool = createBrowserPool({ executablePath, timeoutMs: 30_000, throttling: "provided", thirdParty: "all", externalAllowed: () => false }, { egress });
  });

  afterAll(async () => {
    await pool?.close();
    await egress?.close();
    site?.close();
    other?.close();
  });

  it("measures a layout shift of a known size as CLS within ±0.01 of the built value", async () => {
    const m = await pool.measurePage(`${origin}/shift`);
    expect(m.error).toBe("");
    expect(m.viewport).toBe("mobile 412x823 @1.75x");
    expect(m.cls).toBeGreaterThanOrEqual(BUILT_CLS - 0.01);
    expect(m.cls).toBeLessThanOrEqual(BUILT_CLS + 0.01);
  });

  it("counts on desktop the shift of a classic scrollbar appearing, as Lighthouse does (scrollbars not hidden)", async () => {
    const m = await pool.measurePage(`${origin}/scrollbar`, { viewport: "desktop" });
    expect(m.error).toBe("");
    // The 1000 × 900 box moves left by half the scrollbar's width: impact (1000 + w/2) × 900 over
    // 1350 × 940, distance (w/2) / 1350; with Chromium's 15 px classic scrollbar, 0.0040.
    expect(m.cls).toBeCloseTo(((1007.5 * 900) / (1350 * 940)) * (7.5 / 1350), 3);
    // Mobile scrollbars overlay the page: nothing moves.
    expect((await pool.measurePage(`${origin}/scrollbar`)).cls).toBe(0);
  });

  it("applies and states each profile's DevTools throttling: Lighthouse's mobile slow 4G and 4× CPU, nothing on desktop", async () => {
    const throttled = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "devtools", thirdParty: "none", externalAllowed: () => false }, { egress, load: () => 0.5 });
    try {
      const mobile = await throttled.measurePage(`${origin}/`, { interact: false });
      expect(mobile.error).toBe("");
      expect({ throttling: mobile.throttling, nodeLoad: mobile.nodeLoad }).toEqual({ throttling: { method: "devtools", cpuSlowdown: 4, requestLatencyMs: 562.5, downloadKbps: 1474.56, uploadKbps: 675, rttMs: 0, throughputKbps: 0 }, nodeLoad: 0.5 });
      // Nothing paints before the document has come through the emulated request latency.
      expect(mobile.fcpMs).toBeGreaterThanOrEqual(562);
      const desktop = await throttled.measurePage(`${origin}/`, { viewport: "desktop", interact: false });
      expect(desktop.throttling).toEqual({ method: "devtools", cpuSlowdown: 1, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 0, throughputKbps: 0 });
    } finally {
      await throttled.close();
    }
    const plain = await pool.measurePage(`${origin}/`, { interact: false });
    expect(plain.throttling).toEqual({ method: "provided", cpuSlowdown: 1, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 0, throughputKbps: 0 });
    expect(plain.nodeLoad).toBeGreaterThanOrEqual(0);
  });

  it("simulates Lighthouse's default throttling from the page's trace: a 4× slower CPU lengthens a long task, slow 4G delays the first paint", async () => {
    const simulated = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "simulate", thirdParty: "none", externalAllowed: () => false }, { egress });
    try {
      const observed = await pool.measurePage(`${origin}/busy`, { interact: false });
      const mobile = await simulated.measurePage(`${origin}/busy`, { interact: false });
      expect(mobile.error).toBe("");
      expect(mobile.throttling).toEqual({ method: "simulate", cpuSlowdown: 4, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 150, throughputKbps: 1638.4 });
      // The page holds its main thread LONG_TASK_MS after the first paint: unthrottled, TBT is that
      // less 50 ms; Lantern runs the task 4× slower (Lighthouse's simulate: 4 × 300 - 50 = 1150).
      expect(observed.tbtMs).toBeLessThan(2 * LONG_TASK_MS);
      expect(mobile.tbtMs).toBeGreaterThanOrEqual(3 * LONG_TASK_MS);
      // The document needs a connection and a request at 150 ms RTT before anything paints.
      expect(mobile.fcpMs).toBeGreaterThanOrEqual(300);
      expect(mobile.lcpMs).toBeGreaterThanOrEqual(mobile.fcpMs!);
      expect(mobile.cls).toBe(0);
      // Desktop: dense 4G (40 ms RTT) and the machine's CPU: the task is not lengthened.
      const desktop = await simulated.measurePage(`${origin}/busy`, { viewport: "desktop", interact: false });
      expect(desktop.throttling).toEqual({ method: "simulate", cpuSlowdown: 1, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 40, throughputKbps: 10240 });
      expect(desktop.tbtMs).toBeLessThan(2 * LONG_TASK_MS);
    } finally {
      await simulated.close();
    }
    // Pages measured at once in one browser take its one trace in turn: none fails, each is simulated.
    const two = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "simulate", thirdParty: "none", externalAllowed: () => false, concurrency: 2 }, { egress });
    try {
      const runs = await Promise.all(["/busy", "/hero", "/", "/shift"].map((path) => two.measurePage(`${origin}${path}`, { interact: false })));
      expect(runs.map((r) => [r.error, r.throttling?.method])).toEqual(Array.from({ length: 4 }, () => ["", "simulate"]));
    } finally {
      await two.close();
    }
  });

  it("waits for a request started after load before reading: the late image is the LCP", async () => {
    const m = await pool.measurePage(`${origin}/late-slow`, { interact: false });
    expect(m.error).toBe("");
    expect(m.lcpElement).toBe("IMG");
    expect(m.lcpMs).toBeGreaterThanOrEqual(SLOW_IMAGE_MS);
  });

  it("counts a long task after first paint into TBT (at least the task less 50 ms)", async () => {
    const m = await pool.measurePage(`${origin}/busy`);
    expect(m.error).toBe("");
    expect(m.fcpMs).toBeGreaterThan(0);
    expect(m.tbtMs).toBeGreaterThanOrEqual(LONG_TASK_MS - 50);
  });

  it("finds the hero image as the LCP element, painted no earlier than the first paint", async () => {
    const m = await pool.measurePage(`${origin}/hero`);
    expect(m.error).toBe("");
    expect(m.lcpElement).toBe("IMG");
    expect(m.lcpMs).toBeGreaterThanOrEqual(m.fcpMs ?? Number.POSITIVE_INFINITY);
    expect(m.ttfbMs).toBeGreaterThan(0);
    expect(m.loadMs).toBeGreaterThanOrEqual(m.domContentLoadedMs ?? Number.POSITIVE_INFINITY);
    // The document and the image, in a fresh context: both over the network, the image's bytes counted.
    expect(m.requests).toBe(2);
    expect(m.transferBytes).toBeGreaterThan(HERO_PNG.length);
  });

  it("aborts requests to an address the egress guard refuses, and never reaches it", async () => {
    // The site itself is let through as SVC_ALLOW_PRIVATE_TARGETS would; every other host gets the
    // production policy (resolveTarget with private targets refused), which refuses 127.0.0.2.
    const strict: Pick<Egress, "resolve" | "dial"> = {
      resolve: (host) => (host === "127.0.0.1" ? Promise.resolve({ address: "127.0.0.1", family: 4 as const }) : resolveTarget(host, dnsResolver([]), { allowPrivateTargets: false, allowLinkLocal: [] })),
      dial: egress.dial,
    };
    const guarded = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "provided", thirdParty: "all", externalAllowed: () => false }, { egress: strict });
    try {
      otherHits.length = 0;
      const m = await guarded.measurePage(`${origin}/leak`);
      expect(m.error).toBe("");
      expect(m.blockedRequests).toBe(2); // the image and the fetch
      expect(otherHits).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it("aborts third-party requests when the setting allows none, even to an allowed address", async () => {
    const firstPartyOnly = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "provided", thirdParty: "none", externalAllowed: () => true }, { egress });
    try {
      otherHits.length = 0;
      const m = await firstPartyOnly.measurePage(`${origin}/leak`);
      expect({ error: m.error, blocked: m.blockedRequests, hits: otherHits }).toEqual({ error: "", blocked: 2, hits: [] });
    } finally {
      await firstPartyOnly.close();
    }
    // The same page with third parties allowed reaches the other server (the test would be vacuous otherwise).
    otherHits.length = 0;
    const open = await pool.measurePage(`${origin}/leak`);
    expect(open.blockedRequests).toBe(0);
    expect(otherHits.sort()).toEqual(["/beacon", "/pixel.png"]);
  });

  it("measures INP of a scripted click on a real button: at least the handler's time", async () => {
    const m = await pool.measurePage(`${origin}/click`);
    expect(m.error).toBe("");
    expect(m.inpTarget).toBe("BUTTON#menu");
    expect(m.inpMs).toBeGreaterThanOrEqual(CLICK_HANDLER_MS);
    // The click's task came after TBT was read.
    expect(m.tbtMs).toBeLessThan(CLICK_HANDLER_MS - 50);
  });

  it("reads the rendered DOM of a page whose content exists only after JavaScript, in the desktop profile", async () => {
    const m = await pool.measurePage(`${origin}/js-content`, { viewport: "desktop" });
    expect({ error: m.error, profile: m.profile, viewport: m.viewport }).toEqual({ error: "", profile: "desktop", viewport: "desktop 1350x940 @1x" });
    const r = m.rendered!;
    expect({ title: r.title, description: r.metaDescription, canonical: r.canonical, types: r.schemaTypes, headings: r.headings }).toEqual({
      title: "Rendered title",
      description: "Rendered description",
      canonical: `${origin}/js-content`,
      types: ["Product"],
      headings: [{ level: 1, text: "Rendered heading" }],
    });
    expect(r.links).toEqual([`${origin}/hero`, `${origin}/shift`]);
    expect({ words: r.wordCount, hidden: r.hiddenWords }).toEqual({ words: JS_VISIBLE_WORDS + JS_HIDDEN_WORDS, hidden: JS_HIDDEN_WORDS });
    expect(m.domElements).toBeGreaterThan(10);
    expect(m.bytesByType.map((b) => b.type)).toEqual(["document"]);
  });

  it("abandons pages that loop, reload, open endless dialogs or popups, and goes on measuring; the pool's metrics say so", async () => {
    const registry = new Registry();
    const { browserPoolMetrics } = await import("../../crawler/index.ts");
    const strictPool = createBrowserPool(
      { executablePath: chromiumPath(), timeoutMs: 6000, throttling: "provided", thirdParty: "none", externalAllowed: () => false, recyclePages: 3 },
      { egress, metrics: browserPoolMetrics(registry, 1) },
    );
    try {
      const outcomes = [];
      for (const path of ["/loop", "/dialogs", "/popups", "/reload"]) {
        const m = await strictPool.measurePage(`${origin}${path}`, { interact: false });
        outcomes.push({ path, abandoned: m.abandoned, failed: m.error !== "" });
      }
      expect(outcomes).toEqual([
        { path: "/loop", abandoned: "deadline", failed: true },
        { path: "/dialogs", abandoned: "dialogs", failed: true },
        { path: "/popups", abandoned: "popups", failed: true },
        { path: "/reload", abandoned: "navigations", failed: true },
      ]);
      const after = await strictPool.measurePage(`${origin}/hero`, { interact: false });
      expect(after.error).toBe("");
      expect(after.lcpElement).toBe("IMG");
      const text = await registry.metrics();
      expect(text).toMatch(/svc_browser_pages_total\{outcome="abandoned"\} 4/);
      expect(text).toMatch(/svc_browser_pages_total\{outcome="measured"\} 1/);
      // Five pages with a recycle every three: at least one fresh browser.
      expect(text).toMatch(/svc_browser_recycles_total\{reason="pages"\} 1/);
      expect(text).toMatch(/svc_browser_pool_size 1/);
      expect(text).toMatch(/svc_browser_contexts_open 0/);
    } finally {
      await strictPool.close();
    }
  });

  it("replaces the browser when its memory passes the bound, and measures on the fresh one", async () => {
    const registry = new Registry();
    const { browserPoolMetrics } = await import("../../crawler/index.ts");
    const tight = createBrowserPool(
      { executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "provided", thirdParty: "none", externalAllowed: () => false, maxMemoryBytes: 1 },
      { egress, metrics: browserPoolMetrics(registry, 1) },
    );
    try {
      const runs = [await tight.measurePage(`${origin}/hero`, { interact: false }), await tight.measurePage(`${origin}/hero`, { interact: false })];
      expect(runs.map((m) => [m.error, m.lcpElement])).toEqual([["", "IMG"], ["", "IMG"]]);
      const text = await registry.metrics();
      // Any browser is over one byte: each page's sample retires its browser.
      expect(text).toMatch(/svc_browser_recycles_total\{reason="memory"\} 2/);
      expect(Number(/svc_browser_memory_bytes (\d+)/.exec(text)?.[1])).toBeGreaterThan(50 * 1024 * 1024);
    } finally {
      await tight.close();
    }
  });

  it("measures a page again on a fresh browser when its renderer is killed under it; the crash is counted and the pool keeps serving", async () => {
    const registry = new Registry();
    const { browserPoolMetrics } = await import("../../crawler/index.ts");
    const before = new Set(ourBrowsers());
    const crashing = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "provided", thirdParty: "none", externalAllowed: () => false }, { egress, metrics: browserPoolMetrics(registry, 1) });
    const killed: number[][] = [];
    try {
      // The first load of the page: every renderer of the pool's browser killed (SIGKILL) while the page loads.
      crashOnImage = () => {
        crashOnImage = null;
        for (const browserPid of ourBrowsers().filter((pid) => !before.has(pid))) {
          const renderers = renderersOf(browserPid);
          renderers.forEach((pid) => process.kill(pid, "SIGKILL"));
          killed.push(renderers);
        }
      };
      const m = await crashing.measurePage(`${origin}/crash`, { interact: false });
      expect(killed).toHaveLength(1); // one browser, whose renderers went
      expect(killed[0]!.length).toBeGreaterThan(0);
      expect({ error: m.error, crashed: m.crashed, lcp: m.lcpElement }).toEqual({ error: "", crashed: false, lcp: "IMG" });
      const text = await registry.metrics();
      expect(text).toMatch(/svc_browser_crashes_total\{process="renderer"\} 1\n/);
      expect(text).toMatch(/svc_browser_crashes_total\{process="browser"\} 0\n/);
      expect(text).toMatch(/svc_browser_recycles_total\{reason="crash"\} 1\n/);
      expect(text).toMatch(/svc_browser_pages_total\{outcome="measured"\} 1\n/);
      expect(text).toMatch(/svc_browser_pages_total\{outcome="crashed"\} 0\n/);
      // The pool keeps serving, on one browser: the one under the crash was closed.
      const next = await crashing.measurePage(`${origin}/hero`, { interact: false });
      expect(next.error).toBe("");
      expect(await registry.metrics()).toMatch(/svc_browser_processes 1\n/);
      expect(ourBrowsers().filter((pid) => !before.has(pid))).toHaveLength(1);
    } finally {
      crashOnImage = null;
      await crashing.close();
    }
  });

  it("queues a crawl's page measurement again when its browser is killed (twice, for real) under it, on a new browser", async () => {
    const registry = new Registry();
    const config = loadConfig({ SVC_BROWSER: "auto", SVC_BROWSER_PATH: chromiumPath(), SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_CONFIRM_DELAY_MS: "0", SVC_PARSE_THREADS: "0", SVC_BROWSER_PROFILES: "mobile" }, "serve");
    const node = createCrawlerNode({ ...config.crawl, allowPrivateTargets: true, extraCa: null }, systemClock, registry);
    const crawlSite = createServer((req, res) => {
      if (req.url === "/crash.png") {
        // The browser loading the page asks with GET; the crawl's own check of the image asks with HEAD.
        if (req.method === "GET") crashOnImage?.();
        return void setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(HERO_PNG), 300);
      }
      if (req.url !== "/") return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(CRASH_PAGE);
    });
    const host = `127.0.0.1:${await listen(crawlSite, "127.0.0.1")}`;
    const before = new Set(ourBrowsers());
    const browsersKilled: number[] = [];
    try {
      // The analysis's measurement and the pool's own retry each lose their browser (SIGKILL of its
      // pid); the measurement queued behind the crawl gets through on a third browser.
      crashOnImage = () => {
        const launched = ourBrowsers().filter((pid) => !before.has(pid) && !browsersKilled.includes(pid));
        for (const pid of launched) process.kill(pid, "SIGKILL");
        browsersKilled.push(...launched);
        if (browsersKilled.length >= 2) crashOnImage = null;
      };
      const ctx = {
        jobId: 2,
        host,
        attempt: 1,
        sync: false,
        signal: new AbortController().signal,
        progress: () => {},
        checkpoint: async () => {},
        pages: { put: async () => {}, stored: async () => [] },
        node,
      };
      const result = await CRAWLER_KINDS.crawl.run({ pageSample: 0, maxPages: 5, maxDepth: 2, watch: [] }, ctx);
      expect(browsersKilled).toHaveLength(2);
      const pages = result.facts!.browserPages;
      expect(pages.map((p) => ({ url: p.url, profile: p.profile, error: p.error, crashed: p.crashed, lcp: p.lcpElement }))).toEqual([{ url: `http://${host}/`, profile: "mobile", error: "", crashed: false, lcp: "IMG" }]);
      expect(result.facts!.browser?.lcpElement).toBe("IMG");
      const text = await registry.metrics();
      expect(text).toMatch(/svc_browser_crashes_total\{process="browser"\} 2\n/);
      // The pool's two attempts ended crashed; the crawl's own attempt was measured.
      expect(text).toMatch(/svc_browser_pages_total\{outcome="crashed"\} 1\n/);
      expect(text).toMatch(/svc_browser_pages_total\{outcome="measured"\} 1\n/);
      expect(text).toMatch(/svc_browser_processes 1\n/);
    } finally {
      crashOnImage = null;
      crawlSite.close();
      await node.close();
    }
  });

  it("reports an unreachable page as an error, not a throw", async () => {
    const m = await pool.measurePage("http://127.0.0.1:9/");
    expect(m.error).not.toBe("");
    expect(m.lcpMs).toBeUndefined();
  });

  it("is measured by the analysis kind once per analysis, and not in the synchronous lane", async () => {
    const config = loadConfig({ SVC_BROWSER: "auto", SVC_BROWSER_PATH: chromiumPath(), SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_CONFIRM_DELAY_MS: "0", SVC_PARSE_THREADS: "0" }, "serve");
    const node = createCrawlerNode({ ...config.crawl, allowPrivateTargets: true, extraCa: null }, systemClock);
    try {
      const host = new URL(origin).host;
      const run = async (sync: boolean, on: typeof node = node) => {
        const ctx = {
          jobId: 1,
          host,
          attempt: 1,
          sync,
          signal: new AbortController().signal,
          progress: () => {},
          checkpoint: async () => {},
          pages: { put: async () => {}, stored: async () => [] },
          node: on,
        };
        return (await CRAWLER_KINDS.analyze.run({ pageSample: 0, watch: [] }, ctx)).facts!;
      };
      const facts = await run(false);
      expect(facts.browser?.error).toBe("");
      expect(facts.browser?.url).toBe(`${origin}/`);
      expect(facts.browser?.fcpMs).toBeGreaterThan(0);
      expect(facts.browserState).toBe("measured");
      // Home only (no sample), in both default profiles; the rank's input is the mobile one.
      expect(facts.browserPages.map((p) => [p.url, p.profile])).toEqual([
        [`${origin}/`, "mobile"],
        [`${origin}/`, "desktop"],
      ]);
      const sync = await run(true);
      expect({ browser: sync.browser, state: sync.browserState, pages: sync.browserPages }).toEqual({ browser: undefined, state: "sync", pages: [] });
      // A browser that crashed (twice, as the pool reports it) queues the analysis again, uncharged:
      // a fault this machine cannot cause on demand, so the pool is a stand-in here.
      const crashing = { ...node, browser: { measurePage: async (url: string) => BrowserMetrics.fromPartial({ url, crashed: true, error: "the browser crashed" }), close: async () => {} } };
      const failure = await run(false, crashing).then(() => null, (err: unknown) => failureOf(err));
      expect(failure).toMatchObject({ error: "browser_crashed", retry: Retry.RETRY_THROTTLED });
    } finally {
      await node.close();
    }
  });
});
