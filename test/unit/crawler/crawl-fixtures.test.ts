import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeCrawlFacts, type CrawlAnalysis, type CrawlFacts, type PageFacts } from "../../../analyzer/index.ts";
import { crawlSite, createEgress, DEFAULT_CRAWL_LIMITS, inlineParsePool, loadFacts, type CrawlOptions, type CrawlOutcome, type Egress } from "../../../crawler/index.ts";
import { linkGraphSite, serveCrawlSite, throttlingSite, trapSite, violations, type CrawlSiteServer, type LinkGraphManifest } from "../../harness/crawl-sites/index.ts";

// The crawler against generated sites whose truths are known (test/harness/crawl-sites): the
// exact sets of pages, depths, orphans, broken links, redirects, duplicates, robots rules; a
// throttling site (429/503 with Retry-After), and a crawler trap.

const OPTIONS: CrawlOptions = {
  userAgent: "SvcBot/0.1",
  connections: 8,
  minDelayMs: 0,
  maxCrawlDelayMs: 0,
  // Generous: the fixture server shares the test's process, which a loaded machine (files run side
  // by side) can stall for seconds; a timed-out page would read as a broken link.
  timeoutMs: 20_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  limits: { ...DEFAULT_CRAWL_LIMITS, maxPages: 2000, maxDepth: 30 },
  externalAllowed: () => false,
  maxExternalChecks: 0,
  maxRetryAfterMs: 5000,
  storeEvery: 50,
};

let egress: Egress;
beforeAll(() => {
  egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 10_000 });
});
afterAll(async () => egress.close());

async function crawl(server: CrawlSiteServer, options: Partial<CrawlOptions> = {}): Promise<{ outcome: CrawlOutcome & { facts: CrawlFacts }; analysis: CrawlAnalysis }> {
  // No robots.txt given: the crawl fetches it itself (as when the analysis's answer was a 429).
  const robots = undefined;
  const pool = inlineParsePool();
  const crawled = await crawlSite({ site: server.host, origin: server.origin, robots, checkedAt: 1_800_000_000 }, { ...OPTIONS, ...options }, { egress, pool, store: async () => undefined });
  const outcome = { ...crawled, facts: loadFacts(crawled.facts) };
  const analysis = analyzeCrawlFacts({ jobId: 1, crawledAt: 1_800_000_000, facts: outcome.facts, sitemapUrls: outcome.sitemapUrls, truncatedBy: outcome.truncatedBy, traps: outcome.traps, external: outcome.external, politeness: outcome.politeness, durationMs: outcome.durationMs });
  return { outcome, analysis };
}

const isPage = (p: PageFacts) => p.skipped === "" && p.isHtml && p.status === 200;

describe("a generated site of 300 pages with known defects", () => {
  let server: CrawlSiteServer;
  let m: LinkGraphManifest;
  let outcome: CrawlOutcome & { facts: CrawlFacts };
  let analysis: CrawlAnalysis;
  beforeAll(async () => {
    const site = linkGraphSite();
    server = await serveCrawlSite(site.site);
    m = site.manifest(server.origin);
    ({ outcome, analysis } = await crawl(server));
  }, 60_000);
  afterAll(async () => server.close());

  it("fetches exactly the linked pages, with their click depths, and the orphans from the sitemaps", () => {
    const linked = outcome.facts.pages.filter((p) => isPage(p) && p.depth >= 0);
    expect(linked.map((p) => p.url).sort()).toEqual(m.pages);
    expect(Object.fromEntries(linked.map((p) => [p.url, p.depth]))).toEqual(m.depth);
    expect(analysis.report.links.orphans.map((o) => o.url)).toEqual(m.orphans);
  });

  it("never requests what robots.txt forbids, and records it as skipped", () => {
    const requested = new Set(server.requests.map((r) => `${server.origin}${r.path}`));
    expect(m.robotsDisallowed.filter((u) => requested.has(u))).toEqual([]);
    expect(outcome.facts.pages.filter((p) => p.skipped === "robots").map((p) => p.url).sort()).toEqual(m.robotsDisallowed);
  });

  it("finds every broken internal link with its source pages", () => {
    expect(analysis.report.links.broken.map((b) => ({ target: b.url, status: b.status, sources: b.sources })).sort((a, b) => a.target.localeCompare(b.target))).toEqual(m.brokenLinks);
  });

  it("records redirect chains and loops, and never follows a redirect to another host", () => {
    const chains = analysis.report.links.redirects.map((r) => ({ from: r.url, loop: r.loop, hops: r.chain.length }));
    for (const truth of m.redirects.filter((r) => r.sources.length > 0)) {
      const found = chains.find((c) => c.from === truth.from);
      expect(found, truth.from).toBeDefined();
      expect(found?.loop).toBe(truth.loop);
      if (!truth.loop) expect(found?.hops).toBe(truth.chain.length);
    }
    const hosts = new Set(server.requests.map((r) => r.path));
    expect(hosts.size).toBeGreaterThan(0);
  });

  it("groups duplicate titles, descriptions and texts, and URL variants", () => {
    const indexable = new Set(outcome.facts.pages.filter((p) => isPage(p) && !p.noindex && (p.canonical === "" || p.canonical === p.url || p.canonical === p.finalUrl)).map((p) => p.url));
    const only = (groups: { urls: string[] }[]) => groups.map((g) => g.urls.filter((u) => indexable.has(u))).filter((u) => u.length > 1).sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
    const ours = (groups: { urls: string[] }[]) => groups.map((g) => g.urls).sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
    expect(ours(analysis.report.links.duplicates.titles)).toEqual(only(m.duplicates.titles));
    expect(ours(analysis.report.links.duplicates.descriptions)).toEqual(only(m.duplicates.descriptions));
    expect(ours(analysis.report.links.duplicates.urls)).toEqual(ours(m.urlVariants));
  });

  it("finds the near-duplicate texts and not the merely similar ones", () => {
    const pairs = analysis.report.links.duplicates.near.map((n) => `${n.a} ${n.b}`);
    for (const p of m.nearDuplicates) expect(pairs).toContain([p.a, p.b].sort().join(" "));
    for (const p of m.partialOverlaps) expect(pairs).not.toContain([p.a, p.b].sort().join(" "));
  });

  it("reports hreflang alternates without a return link and canonicals to broken or foreign targets", () => {
    expect(analysis.report.links.hreflang.map((h) => `${h.url} ${h.alternate}`).sort()).toEqual(m.hreflang.missingReturns.map((h) => `${h.page} ${h.target}`).sort());
    const bad = m.canonicals.filter((c) => !c.self && (c.targetStatus === null || c.targetStatus !== 200)).map((c) => c.page).sort();
    expect(analysis.report.links.canonicals.map((c) => c.url).sort()).toEqual(bad);
  });

  it("counts external links by domain without fetching them", () => {
    // The manifest counts the pages reachable by links; the crawl also reads the orphans it found
    // through the sitemaps, and every page carries the footer's link to social.invalid.
    const domains = Object.fromEntries(analysis.report.external.domains.map((d) => [d.domain, { links: d.links, nofollow: d.nofollow, pages: d.pages }]));
    const orphans = m.orphans.length;
    for (const d of m.external) {
      const extra = d.domain === "social.invalid" ? orphans : 0;
      expect(domains[d.domain], d.domain).toEqual({ links: d.links + extra, nofollow: d.nofollow, pages: d.pages + extra });
    }
    expect(analysis.report.external.links.every((l) => l.state === "unchecked")).toBe(true);
  });

  it("survives non-HTML behind .html names, an oversized page and malformed HTML", () => {
    const byUrl = new Map(outcome.facts.pages.map((p) => [p.url, p]));
    for (const f of m.nonHtml) expect(byUrl.get(f.url)).toMatchObject({ isHtml: false, status: 200 });
    for (const o of m.oversized) expect(byUrl.get(o.url)).toMatchObject({ status: 200, error: "too_large" });
    for (const url of m.malformed) expect(byUrl.get(url)?.links.length).toBeGreaterThan(0);
    for (const url of m.notLinked) expect(byUrl.has(url)).toBe(false);
  });
});

describe("a site that asks to slow down", () => {
  for (const [status, exempt] of [[429, false], [503, true]] as const) {
    it(`waits out Retry-After on ${status}${exempt ? "" : " (robots.txt included)"} and still fetches every page, retries spared`, async () => {
      const t = throttlingSite({ throttleRequests: 4, status, retryAfterS: 1, ...(exempt ? { exemptPaths: ["/robots.txt"] } : {}) });
      const server = await serveCrawlSite(t.site);
      try {
        const { outcome } = await crawl(server, { connections: 4 });
        const pages = outcome.facts.pages.filter(isPage).map((p) => p.url).sort();
        expect(pages).toEqual(t.manifest(server.origin).pages);
        expect(violations(server.requests)).toEqual([]);
        expect(outcome.politeness.throttled).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    }, 30_000);
  }
});

describe("a crawler trap", () => {
  it("stops each generated family at the documented limits and reports it", async () => {
    const t = trapSite();
    const server = await serveCrawlSite(t.site);
    try {
      const { outcome, analysis } = await crawl(server, { limits: { ...OPTIONS.limits, maxPerPattern: 20, maxDepth: 10 } });
      const tm = t.manifest(server.origin);
      const fetched = outcome.facts.pages.filter((p) => p.skipped === "");
      for (const url of tm.normalPages) expect(fetched.map((p) => p.url)).toContain(url);
      const perFamily = new Map<string, number>();
      for (const p of fetched) {
        const f = tm.familyOf(p.url);
        if (f) perFamily.set(f, (perFamily.get(f) ?? 0) + 1);
      }
      for (const [family, n] of perFamily) expect(n, family).toBeLessThanOrEqual(21);
      expect(["trap", "depth_limit"]).toContain(outcome.truncatedBy);
      expect(analysis.report.summary.truncated_by).toBe(outcome.truncatedBy);
    } finally {
      await server.close();
    }
  }, 30_000);
});
