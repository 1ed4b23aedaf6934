// Browser metrics against pages built to produce known values, in Debian's Chromium (installed by
// the harness when missing), served on 127.0.0.1. Figures are asserted with the precision the built
// value allows, and times only from below: this machine may be slow, never faster than the page.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWLER_KINDS, createBrowserPool, createCrawlerNode, createEgress, dnsResolver, resolveTarget, type BrowserPool, type Egress } from "../../crawler/index.ts";
import { loadConfig, systemClock } from "../../runtime/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { BUILT_CLS, HERO_PNG, labPages, LONG_TASK_MS, png } from "../harness/lab-pages.ts";

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
      const run = async (sync: boolean) => {
        const ctx = {
          jobId: 1,
          host,
          attempt: 1,
          sync,
          signal: new AbortController().signal,
          progress: () => {},
          checkpoint: async () => {},
          pages: { put: async () => {}, stored: async () => [] },
          node,
        };
        return (await CRAWLER_KINDS.analyze.run({ pageSample: 0, watch: [] }, ctx)).facts!;
      };
      const facts = await run(false);
      expect(facts.browser?.error).toBe("");
      expect(facts.browser?.url).toBe(`${origin}/`);
      expect(facts.browser?.fcpMs).toBeGreaterThan(0);
      expect((await run(true)).browser).toBeUndefined();
    } finally {
      await node.close();
    }
  });
});
