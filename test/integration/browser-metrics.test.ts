// Browser metrics against pages built to produce known values, in Debian's Chromium (installed by
// the harness when missing), served on 127.0.0.1. Figures are asserted with the precision the built
// value allows, and times only from below: this machine may be slow, never faster than the page.
import { createServer, type Server } from "node:http";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWLER_KINDS, failureOf, createBrowserPool, createCrawlerNode, createEgress, dnsResolver, resolveTarget, type BrowserPool, type Egress } from "../../crawler/index.ts";
import { BrowserMetrics, Retry } from "../../proto/index.ts";
import { loadConfig, systemClock } from "../../runtime/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { BUILT_CLS, CLICK_HANDLER_MS, HERO_PNG, JS_HIDDEN_WORDS, JS_VISIBLE_WORDS, labPages, LONG_TASK_MS, png } from "../harness/lab-pages.ts";

const HOME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><h1>Home</h1><p>A small page for the collector.</p></body></html>`;

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
    const served: Record<string, string> = { ...labPages(otherOrigin), "/": HOME };
    site = createServer((req, res) => {
      if (req.url === "/hero.png") return void res.writeHead(200, { "content-type": "image/png" }).end(HERO_PNG);
      const body = served[req.url ?? ""];
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
    });
    origin = `http://127.0.0.1:${await listen(site, "127.0.0.1")}`;
    egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 5000 });
    // Measured one page at a time (the default), as in production; third parties allowed here so
    // that only the address rules are under test in "the egress guard".
    pool = createBrowserPool({ executablePath, timeoutMs: 30_000, thirdParty: "all", externalAllowed: () => false }, { egress });
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
    const strict: Pick<Egress, "resolve"> = {
      resolve: (host) => (host === "127.0.0.1" ? Promise.resolve({ address: "127.0.0.1", family: 4 as const }) : resolveTarget(host, dnsResolver([]), { allowPrivateTargets: false, allowLinkLocal: [] })),
    };
    const guarded = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, thirdParty: "all", externalAllowed: () => false }, { egress: strict });
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
    const firstPartyOnly = createBrowserPool({ executablePath: chromiumPath(), timeoutMs: 30_000, thirdParty: "none", externalAllowed: () => true }, { egress });
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
      { executablePath: chromiumPath(), timeoutMs: 6000, thirdParty: "none", externalAllowed: () => false, recyclePages: 3 },
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
      { executablePath: chromiumPath(), timeoutMs: 30_000, thirdParty: "none", externalAllowed: () => false, maxMemoryBytes: 1 },
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

  it("reports an unreachable page as an error, not a throw", async () => {
    const m = await pool.measurePage("http://127.0.0.1:9/");
    expect(m.error).not.toBe("");
    expect(m.lcpMs).toBeUndefined();
  });

  it("is measured by the analysis kind once per analysis, and not in the synchronous lane", async () => {
    const config = loadConfig({ SVC_BROWSER: "auto", SVC_BROWSER_PATH: chromiumPath(), SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_CONFIRM_DELAY_MS: "0", SVC_PARSE_THREADS: "0" });
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
