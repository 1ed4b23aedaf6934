import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RobotsFacts, type CrawledPage } from "../../../proto/index.ts";
import {
  crawlSite,
  createEgress,
  DEFAULT_CRAWL_LIMITS,
  extractPage,
  fetchUrl,
  inlineParsePool,
  loadFacts,
  ParseThreadCrashedError,
  threadParsePool,
  type CrawlOptions,
  type Egress,
  type ParsePool,
} from "../../../crawler/index.ts";
import type { CrawlDeps } from "../../../crawler/crawl/crawl-site.ts";
import { startHttp, type TestServer } from "./servers.ts";

// A chain-and-fan site: / links to /p/0../p/9; /p/i links to /p/i/0../p/i/4; those link home.
function html(title: string, links: string[]): string {
  return `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1><p>${"word ".repeat(60)}${title}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join("")}</body></html>`;
}
function route(path: string): string | null {
  if (path === "/") return html("Home", Array.from({ length: 10 }, (_, i) => `/p/${i}`));
  const a = /^\/p\/(\d)$/.exec(path);
  if (a) return html(`Section ${a[1]}`, Array.from({ length: 5 }, (_, j) => `/p/${a[1]}/${j}`));
  const b = /^\/p\/(\d)\/(\d)$/.exec(path);
  if (b) return html(`Leaf ${b[1]}.${b[2]}`, ["/"]);
  return null;
}

const OPTIONS: CrawlOptions = {
  userAgent: "SvcBot/0.1",
  connections: 4,
  minDelayMs: 0,
  maxCrawlDelayMs: 0,
  timeoutMs: 3000,
  maxBodyBytes: 1024 * 1024,
  maxRedirects: 5,
  limits: DEFAULT_CRAWL_LIMITS,
  externalAllowed: () => false,
  maxExternalChecks: 0,
  maxRetryAfterMs: 2000,
  storeEvery: 10,
};

let server: TestServer;
let egress: Egress;
beforeAll(async () => {
  server = await startHttp((req, res) => {
    const body = route(req.url ?? "/");
    if (body === null) return void res.writeHead(404, { "content-type": "text/html" }).end("<title>nope</title>");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
  egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
});
afterAll(async () => {
  await egress.close();
  await server.close();
});

const input = () => ({ site: `127.0.0.1:${server.port}`, origin: server.origin, robots: RobotsFacts.fromPartial({}), checkedAt: 1_800_000_000 });
const ALL = 1 + 10 + 50;

let files = 0;
async function crawl(pool: ParsePool, extra: { resume?: CrawledPage[]; abortAfter?: number; options?: Partial<CrawlOptions>; sampled?: CrawlDeps["sampled"] } = {}) {
  const stored: CrawledPage[] = [];
  const abort = new AbortController();
  // The pages' facts go through a facts file, as a crawler node's do; read back as the analysis reads them.
  const factsFile = join(tmpdir(), `svc-crawl-site-test-${process.pid}-${++files}`);
  const outcome = await crawlSite(input(), { ...OPTIONS, factsFile, ...extra.options }, {
    egress,
    pool,
    signal: abort.signal,
    resume: extra.resume ?? [],
    ...(extra.sampled ? { sampled: extra.sampled } : {}),
    store: async (pages) => {
      stored.push(...pages);
      if (extra.abortAfter !== undefined && stored.length >= extra.abortAfter) abort.abort(new Error("node died"));
    },
  })
    .then((o) => ({ ...o, facts: loadFacts(o.facts) }))
    .catch((err: unknown) => err as Error)
    .finally(() => rmSync(factsFile, { force: true }));
  return { outcome, stored };
}

describe("crawlSite", () => {
  it("fetches every page once, breadth-first, with exact depths (on a parse thread)", async () => {
    const pool = threadParsePool(1);
    try {
      server.requests.length = 0;
      const { outcome, stored } = await crawl(pool);
      if (outcome instanceof Error) throw outcome;
      expect(outcome.facts.pages).toHaveLength(ALL);
      expect(stored.map((p) => p.url).sort()).toEqual(outcome.facts.pages.map((p) => p.url).sort());
      const pages = server.requests.filter((r) => r.startsWith("GET /p") || r === "GET /");
      expect(new Set(pages).size).toBe(pages.length);
      const depth = new Map(outcome.facts.pages.map((p) => [new URL(p.url).pathname, p.depth]));
      expect(depth.get("/")).toBe(0);
      expect(depth.get("/p/3")).toBe(1);
      expect(depth.get("/p/3/4")).toBe(2);
      // Breadth-first: no leaf is requested before every section was.
      const firstLeaf = pages.findIndex((r) => /^GET \/p\/\d\/\d$/.test(r));
      const lastSection = Math.max(...pages.map((r, i) => (/^GET \/p\/\d$/.test(r) ? i : -1)));
      expect(firstLeaf).toBeGreaterThan(lastSection);
      expect(outcome.truncatedBy).toBe("");
    } finally {
      await pool.close();
    }
  });

  it("records a page its parse thread crashed on as failed, with the cause, and crawls the rest", async () => {
    // The crash itself is tested with real threads in parse-pool.test.ts; here the pool reports it.
    const inline = inlineParsePool();
    const crashing: ParsePool = {
      ...inline,
      page: (pageInput) => (pageInput.url.endsWith("/p/3") ? Promise.reject(new ParseThreadCrashedError("ERR_WORKER_OUT_OF_MEMORY: out of memory")) : inline.page(pageInput)),
    };
    const { outcome } = await crawl(crashing);
    if (outcome instanceof Error) throw outcome;
    const failed = outcome.facts.pages.find((p) => p.url.endsWith("/p/3"));
    expect(failed).toMatchObject({ status: 200, isHtml: false, error: "parse_failed: ERR_WORKER_OUT_OF_MEMORY: out of memory" });
    // Its links were never read, so its leaves are not reached; every other page is.
    expect(outcome.facts.pages).toHaveLength(ALL - 5);
  });

  it("resumes from the pages a dead attempt stored: none of them is fetched again", async () => {
    server.requests.length = 0;
    const first = await crawl(inlineParsePool(), { abortAfter: 20, options: { connections: 1 } });
    expect(first.outcome).toBeInstanceOf(Error);
    const done = new Set(first.stored.map((p) => new URL(p.url).pathname));
    expect(done.size).toBeGreaterThanOrEqual(20);
    expect(done.size).toBeLessThan(ALL);
    server.requests.length = 0;
    const second = await crawl(inlineParsePool(), { resume: first.stored });
    if (second.outcome instanceof Error) throw second.outcome;
    const refetched = server.requests.map((r) => r.replace(/^GET /, "")).filter((p) => done.has(p));
    expect(refetched).toEqual([]);
    const all = [...first.stored, ...second.stored].map((p) => p.url);
    expect(new Set(all).size).toBe(ALL);
    expect(all).toHaveLength(ALL);
    expect(second.outcome.facts.pages).toHaveLength(ALL);
  });

  it("takes the pages the analysis alongside fetched for its sample instead of fetching them again, with the same result", async () => {
    const pool = inlineParsePool();
    const own = await crawl(pool);
    if (own.outcome instanceof Error) throw own.outcome;
    // The analysis sampled two sections.
    const sample = ["/p/3", "/p/7"].map((path) => `${server.origin}${path}`);
    const sampled = new Map(
      sample.map((url) => [
        url,
        fetchUrl(url, { dispatcher: egress.dispatcher }).then((result) => ({ result, extraction: extractPage({ url, response: result.response, html: result.text }) })),
      ]),
    );
    await Promise.all(sampled.values());
    server.requests.length = 0;
    const { outcome, stored } = await crawl(pool, { sampled: (url) => sampled.get(url) });
    if (outcome instanceof Error) throw outcome;
    expect(server.requests.filter((r) => r === "GET /p/3" || r === "GET /p/7")).toEqual([]);
    // Every page as the crawl would have made it itself, timings aside.
    // Every page stored as the crawl would have made it itself, timings aside.
    const strip = (pages: CrawledPage[]) => pages.map((p) => ({ ...p, ttfbMs: 0 })).sort((a, b) => a.url.localeCompare(b.url));
    expect(strip(stored)).toEqual(strip(own.stored));
    expect(outcome.facts.pages).toHaveLength(ALL);
  });

  it("stops at the memory budget and says so, with what it found until then", async () => {
    // About 1 KB a page (what the analysis will hold, though the facts wait in the facts file): a
    // budget of 12 KB holds a few pages, not the 61.
    const { outcome, stored } = await crawl(inlineParsePool(), { options: { limits: { ...DEFAULT_CRAWL_LIMITS, maxFactsBytes: 12 * 1024 } } });
    if (outcome instanceof Error) throw outcome;
    expect(outcome.truncatedBy).toBe("memory_limit");
    expect(outcome.facts.pages.length).toBeGreaterThan(1);
    expect(outcome.facts.pages.length).toBeLessThan(ALL);
    expect(stored.map((p) => p.url).sort()).toEqual(outcome.facts.pages.map((p) => p.url).sort());
  });

  it("stops at the page limit and says so", async () => {
    const { outcome } = await crawl(inlineParsePool(), { options: { limits: { ...DEFAULT_CRAWL_LIMITS, maxPages: 15 } } });
    if (outcome instanceof Error) throw outcome;
    expect(outcome.facts.pages).toHaveLength(15);
    expect(outcome.truncatedBy).toBe("page_limit");
  });

  it("stops at the depth limit and says so", async () => {
    const { outcome } = await crawl(inlineParsePool(), { options: { limits: { ...DEFAULT_CRAWL_LIMITS, maxDepth: 1 } } });
    if (outcome instanceof Error) throw outcome;
    expect(outcome.facts.pages.filter((p) => !p.skipped)).toHaveLength(11);
    // What the limit kept out is recorded as such, not dropped silently (R1).
    expect(outcome.facts.pages.filter((p) => p.skipped === "depth_limit").map((p) => p.depth)).toEqual(Array<number>(50).fill(2));
    expect(outcome.truncatedBy).toBe("depth_limit");
  });
});
