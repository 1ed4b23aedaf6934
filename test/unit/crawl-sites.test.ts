import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { Parser } from "htmlparser2";
import { Agent, fetch as undiciFetch, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jaccard,
  linkGraphSite,
  serveCrawlSite,
  shingles,
  throttlingSite,
  trapSite,
  violations,
  type CrawlSiteServer,
  type LinkGraphManifest,
  type LinkGraphSite,
  type RequestLogEntry,
} from "../harness/crawl-sites/index.ts";

// The crawl fixture sites checked against their own manifests, and the link-graph manifest checked
// against an independent reference crawler that sees the site only over HTTP, as a crawler would.

interface Link {
  readonly url: string;
  readonly rel: string;
}

interface Crawl {
  /** Pages (200, text/html) by the URL they were reached at, with their depth. */
  readonly depth: Map<string, number>;
  readonly links: Map<string, Link[]>;
  readonly html: Map<string, string>;
  readonly allowed: (u: URL) => boolean;
}

/** The reference crawler: BFS from /, <a href> only, robots.txt Allow/Disallow for "*" (longest match), on-site redirects followed as free hops. */
async function referenceCrawl(origin: string): Promise<Crawl> {
  const rules: [allow: boolean, prefix: string][] = [];
  let agents: string[] = [];
  let inRules = false;
  for (const line of (await (await fetch(`${origin}/robots.txt`)).text()).split("\n")) {
    const [, key = "", value = ""] = /^([A-Za-z-]+)\s*:\s*(.*?)\s*$/.exec(line) ?? [];
    if (key.toLowerCase() === "user-agent") {
      if (inRules) [agents, inRules] = [[], false];
      agents.push(value);
    } else if (key) {
      inRules = true;
      if (/^(allow|disallow)$/i.test(key) && agents.includes("*") && value) rules.push([key.toLowerCase() === "allow", value]);
    }
  }
  const allowed = (u: URL) => {
    let best: [allow: boolean, length: number] = [true, -1];
    for (const [allow, p] of rules) if ((u.pathname + u.search).startsWith(p) && (p.length > best[1] || (p.length === best[1] && allow))) best = [allow, p.length];
    return best[0];
  };
  const host = new URL(origin).host;
  const page = async (start: string): Promise<[string, string] | null> => {
    for (let url = start, hop = 0; hop < 5; hop++) {
      const res = await fetch(url, { redirect: "manual" });
      const [location, isHtml, body] = [res.headers.get("location"), res.status === 200 && res.headers.get("content-type")?.startsWith("text/html"), await res.text()];
      if (isHtml) return [url, body];
      if (!location || res.status < 300 || res.status >= 400) return null;
      const next = new URL(location, url);
      if (next.host !== host || !allowed(next)) return null;
      url = next.href;
    }
    return null;
  };
  const [depth, links, html] = [new Map<string, number>(), new Map<string, Link[]>(), new Map<string, string>()];
  const seen = new Set([`${origin}/`]);
  let level = [`${origin}/`];
  for (let d = 0; level.length > 0; d++) {
    const next: string[] = [];
    await Promise.all(
      level.map(async (start) => {
        const got = await page(start);
        if (!got || (got[0] !== start && seen.has(got[0]))) return;
        const [url, body] = got;
        seen.add(url);
        depth.set(url, d);
        html.set(url, body);
        const out: Link[] = [];
        new Parser({ onopentag: (name, a) => name === "a" && a.href !== undefined && out.push({ url: strict(a.href, url), rel: a.rel ?? "" }) }, { decodeEntities: true }).end(body);
        links.set(url, out.filter((l) => /^https?:/.test(l.url)));
        for (const { url: t } of links.get(url) ?? []) {
          if (new URL(t).host !== host || !allowed(new URL(t)) || seen.has(t)) continue;
          seen.add(t);
          next.push(t);
        }
      }),
    );
    level = next;
  }
  return { depth, links, html, allowed };
}

function strict(href: string, base: string): string {
  const u = new URL(href, base);
  u.hash = "";
  return u.href;
}

/** What the assertions read from a page: title, description, canonical, hreflang, visible body text. */
function facts(html: string) {
  const out = { title: "", description: null as string | null, canonical: null as string | null, hreflang: [] as { lang: string; href: string }[], text: "" };
  const text: string[] = [];
  let hidden = 0;
  let inTitle = false;
  let inBody = false;
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === "title") inTitle = true;
        if (name === "body") inBody = true;
        if (name === "script" || name === "style") hidden += 1;
        if (name === "meta" && a.name === "description") out.description = a.content ?? "";
        if (name === "link" && a.rel === "canonical" && a.href) out.canonical = a.href;
        if (name === "link" && a.rel === "alternate" && a.hreflang && a.href) out.hreflang.push({ lang: a.hreflang, href: a.href });
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (name === "script" || name === "style") hidden -= 1;
      },
      ontext(t) {
        if (inTitle) out.title += t;
        else if (inBody && hidden === 0) text.push(t);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  out.text = text.join(" ").replace(/\s+/g, " ").trim();
  return out;
}

const sortedGroups = (entries: [string, string][]) => {
  const by = new Map<string, string[]>();
  for (const [url, key] of entries) by.set(key, [...(by.get(key) ?? []), url]);
  return [...by].filter(([, urls]) => urls.length > 1).map(([key, urls]) => ({ key, urls: urls.sort() })).sort((a, b) => (a.key < b.key ? -1 : 1));
};

// The checks' own HEAD requests share a few keep-alive connections.
const checks = new Agent({ connections: 16 });
afterAll(() => checks.close());
async function head(url: string) {
  const res = await request(url, { method: "HEAD", dispatcher: checks });
  await res.body.dump();
  const header = (name: string) => [res.headers[name] ?? null].flat()[0] ?? null;
  return { status: res.statusCode, headers: { get: header } };
}

describe("linkGraphSite", () => {
  let lg: LinkGraphSite;
  let server: CrawlSiteServer;
  let m: LinkGraphManifest;
  let crawl: Crawl;
  let crawlRequests: RequestLogEntry[];
  let parsed: (ReturnType<typeof facts> & { page: string })[];
  const path = (url: string) => url.replace(m.origin, "");

  beforeAll(async () => {
    lg = linkGraphSite();
    server = await serveCrawlSite(lg.site);
    m = lg.manifest(server.origin);
    crawl = await referenceCrawl(server.origin);
    crawlRequests = [...server.requests];
    parsed = [...crawl.html].map(([page, html]) => ({ page, ...facts(html) }));
  });
  afterAll(() => server.close());

  it("is a few hundred pages deep enough to matter, and the same bytes every time", () => {
    expect(m.stats.htmlPages).toBe(300);
    expect(m.pages.length).toBeGreaterThan(280);
    expect(m.stats.maxDepth).toBeGreaterThanOrEqual(6);
    expect(m.stats.deepPages).toBeGreaterThan(3);
    const digest = (site: LinkGraphSite) => {
      const h = createHash("sha256");
      for (const [key, route] of site.site.routes(server.origin)) h.update(`${key} ${route.status ?? 200} ${JSON.stringify(route.headers ?? {})}`).update(route.body ?? "");
      return h.digest("hex");
    };
    expect(digest(linkGraphSite())).toBe(digest(lg));
  });

  it("the reference crawler reaches exactly the manifest's pages, at the manifest's depths", () => {
    expect([...crawl.depth.keys()].sort()).toEqual(m.pages);
    expect(Object.fromEntries(crawl.depth)).toEqual(m.depth);
    expect(crawlRequests.filter((r) => r.path.startsWith("/private/") && r.path !== "/private/press-kit")).toEqual([]);
    expect(crawlRequests.some((r) => r.path === "/private/press-kit")).toBe(true);
  });

  it("every internal URL answers as the manifest says", async () => {
    expect(m.internal.length).toBeGreaterThan(300);
    const answers = await Promise.all(m.internal.map((u) => head(u.url)));
    m.internal.forEach((u, i) => {
      const res = answers[i] as Awaited<ReturnType<typeof head>>;
      expect({ url: u.url, status: res.status }).toEqual({ url: u.url, status: u.kind === "disallowed" ? 200 : u.status });
      const type = res.headers.get("content-type") ?? "";
      if (u.kind === "page") expect(type).toBe("text/html; charset=utf-8");
      if (u.kind === "file") expect(type).not.toContain("html");
      if (u.kind === "redirect") expect(res.headers.get("location")).toBeTruthy();
    });
    const linkedDisallowed = [...crawl.links.values()].flat().filter((l) => l.url.startsWith(m.origin) && !crawl.allowed(new URL(l.url)));
    expect([...new Set(linkedDisallowed.map((l) => path(l.url)))].sort()).toEqual(["/private/drafts", "/private/reports", "/private/staff"]);
    expect(m.robotsDisallowed.map(path)).toEqual(["/private/drafts", "/private/reports", "/private/staff"]);
  });

  it("broken targets answer their status and are linked from exactly the listed pages", async () => {
    expect(m.brokenLinks.map((b) => [path(b.target), b.status])).toEqual([
      ["/blog/deleted-post", 404],
      ["/guides/setup-guide-old", 404],
      ["/news/withdrawn-story", 410],
      ["/products/discontinued-stove", 404],
      ["/reports/live-status", 500],
    ]);
    for (const b of m.brokenLinks) {
      expect((await head(b.target)).status).toBe(b.status);
      const sources = [...crawl.links].filter(([, ls]) => ls.some((l) => l.url === b.target)).map(([u]) => u);
      expect(sources.sort()).toEqual(b.sources);
    }
  });

  it("redirects answer hop by hop as the manifest's chains say", async () => {
    expect((await head(`${server.origin}/old-a`)).headers.get("location")).toBe("/old-b");
    expect((await head(`${server.origin}/old-b`)).headers.get("location")).toBe(`${server.origin}/new-a`);
    expect(m.redirects.map((r) => [path(r.from), r.chain.map((c) => c.status), r.final && path(r.final), r.loop, r.external])).toEqual([
      ["/go/partner", [302], "http://127.0.0.9:1/welcome", false, true],
      ["/loop-1", [301, 301], null, true, false],
      ["/news/2023-recap", [301], "/news", false, false],
      ["/old-a", [301, 302], "/new-a", false, false],
      ["/summer-sale", [301], "/products", false, false],
    ]);
    for (const r of m.redirects) {
      let url = r.from;
      for (const hop of r.chain) {
        const res = await head(url);
        expect([url, res.status]).toEqual([hop.url, hop.status]);
        url = new URL(res.headers.get("location") ?? "", url).href;
      }
      if (r.loop) expect(url).toBe(r.from);
      else expect(url).toBe(r.final);
      if (!r.loop && !r.external) expect((await head(url)).status).toBe(r.finalStatus);
    }
    expect(server.requests.some((q) => q.path.includes("welcome"))).toBe(false);
  });

  it("robots.txt and the sitemaps: index, plain and gzipped children, orphans, pages not listed", async () => {
    const robots = await fetch(`${server.origin}/robots.txt`);
    expect(robots.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await robots.text();
    expect(text.match(/^Sitemap: (.*)$/gm)?.map((l) => l.slice(9))).toEqual(m.sitemaps.robots);
    expect(text).toMatch(/User-agent: SlowBot\nUser-agent: ArchiveBot\nCrawl-delay: 30\nDisallow: \/blog\//);
    expect(m.robotsOtherAgents).toEqual([{ agents: ["SlowBot", "ArchiveBot"], crawlDelayS: 30, disallow: ["/blog/"] }]);
    const locs = (xml: string) => [...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((x) => x[1] as string);
    expect(locs(await (await fetch(m.sitemaps.index)).text())).toEqual(m.sitemaps.children);
    const [plain, gz] = m.sitemaps.children as [string, string];
    const zipped = await fetch(gz);
    expect([zipped.headers.get("content-type"), zipped.headers.get("content-encoding")]).toEqual(["application/gzip", null]);
    const listed = [...locs(await (await fetch(plain)).text()), ...locs(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString("utf8"))];
    expect(listed.sort()).toEqual(m.sitemaps.urls);
    expect((await head(m.sitemaps.missing[0] as string)).status).toBe(404);

    const linked = new Set([...crawl.links.values()].flat().map((l) => l.url));
    const orphans: string[] = [];
    const answers = await Promise.all(listed.map((url) => head(url)));
    listed.forEach((url, i) => {
      const status = answers[i]?.status;
      if (status === 200 && !crawl.depth.has(url)) orphans.push(url);
      if (status === 404) expect(m.sitemaps.listedBroken).toContainEqual({ url, status: 404 });
      if (status === 301) expect(m.sitemaps.listedRedirects.map((r) => r.url)).toContain(url);
    });
    expect(orphans.sort()).toEqual(m.orphans);
    expect(m.orphans).toHaveLength(5);
    for (const o of m.orphans) expect(linked.has(o)).toBe(false);
    expect(m.pages.filter((p) => !listed.includes(p))).toEqual(m.notInSitemap);
  });

  it("duplicate titles, descriptions, content and near-duplicates are what the pages say", () => {
    const pages = parsed.map((f) => [f.page, f] as const);
    expect(sortedGroups(pages.map(([u, f]) => [u, f.title]))).toEqual(m.duplicates.titles);
    expect(sortedGroups(pages.flatMap(([u, f]) => (f.description === null ? [] : [[u, f.description] as [string, string]])))).toEqual(m.duplicates.descriptions);
    const byFirst = (a: string[], b: string[]) => ((a[0] ?? "") < (b[0] ?? "") ? -1 : 1);
    expect(sortedGroups(pages.map(([u, f]) => [u, f.text])).map((g) => g.urls).sort(byFirst)).toEqual(m.duplicates.content.map((g) => g.urls).sort(byFirst));
    const text = new Map(pages.map(([u, f]) => [u, f.text]));
    const similarity = (a: string, b: string) => jaccard(shingles(text.get(a) ?? ""), shingles(text.get(b) ?? ""));
    expect(m.nearDuplicates).toHaveLength(3);
    for (const p of m.nearDuplicates) expect(similarity(p.a, p.b)).toBeGreaterThanOrEqual(0.9);
    for (const p of m.partialOverlaps) expect(similarity(p.a, p.b)).toBeLessThan(0.9);
    expect(m.partialOverlaps.length).toBeGreaterThan(0);
  });

  it("URL variants, canonicals and hreflang are what the pages say", async () => {
    const loose = (url: string) => {
      const u = new URL(url);
      u.pathname = u.pathname.length > 1 ? u.pathname.replace(/\/$/, "") : u.pathname;
      u.search = new URLSearchParams([...u.searchParams].filter(([k]) => !k.startsWith("utm_")).sort()).toString();
      return u.href;
    };
    expect(sortedGroups(m.pages.map((u) => [u, loose(u)]))).toEqual(m.urlVariants);
    expect(m.urlVariants.map((g) => g.urls.length)).toEqual([3, 2]);
    const canonicals = parsed.filter((p) => p.canonical !== null).map((p) => ({ page: p.page, target: strict(p.canonical ?? "", p.page) }));
    expect(canonicals.sort((a, b) => (a.page < b.page ? -1 : 1))).toEqual(m.canonicals.map((c) => ({ page: c.page, target: c.target })));
    for (const c of m.canonicals.filter((x) => !x.self)) expect(c.targetStatus === null ? null : (await head(c.target)).status).toBe(c.targetStatus);
    expect(m.canonicals.filter((c) => !c.self && c.targetStatus !== 200).map((c) => [path(c.target), c.targetStatus]).sort()).toEqual([
      ["/guides/retired-guide", 404],
      ["http://example.invalid/articles/original-story", null],
    ]);
    const alternates = new Map(parsed.map((p) => [p.page, p.hreflang.map((h) => h.href)]));
    const missing = parsed.flatMap((p) => p.hreflang.filter((h) => h.href !== p.page && !(alternates.get(h.href) ?? []).includes(p.page)).map((h) => [path(p.page), h.lang, path(h.href)]));
    expect(missing).toEqual([["/en/shipping", "fr", "/fr/livraison"]]);
    expect(m.hreflang.missingReturns.map((h) => [path(h.page), h.hreflang, path(h.target)])).toEqual(missing);
  });

  it("external links by domain, with nofollow, are what the pages say", () => {
    const by = new Map<string, { links: number; nofollow: number; pages: Set<string> }>();
    for (const [page, links] of crawl.links) {
      for (const l of links.filter((x) => !x.url.startsWith(`${m.origin}/`))) {
        const d = by.get(new URL(l.url).hostname) ?? { links: 0, nofollow: 0, pages: new Set<string>() };
        d.links += 1;
        d.nofollow += /nofollow/.test(l.rel) ? 1 : 0;
        d.pages.add(page);
        by.set(new URL(l.url).hostname, d);
      }
    }
    expect([...by].map(([domain, d]) => ({ domain, links: d.links, nofollow: d.nofollow, pages: d.pages.size })).sort((a, b) => (a.domain < b.domain ? -1 : 1))).toEqual(
      m.external.map(({ domain, links, nofollow, pages }) => ({ domain, links, nofollow, pages })),
    );
    expect(m.external.map((e) => e.domain)).toEqual(["127.0.0.7", "example.invalid", "forum.invalid", "partner.invalid", "social.invalid"]);
  });

  it("serves a PDF behind .html, an oversized page, and malformed HTML whose links a lenient parser finds", async () => {
    const pdf = await fetch(`${server.origin}/downloads/brochure.html`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
    expect(m.nonHtml.map((f) => path(f.url))).toEqual(["/downloads/brochure.html", "/downloads/catalogue.pdf"]);
    const [big] = m.oversized;
    expect(Number((await head(big?.url ?? "")).headers.get("content-length"))).toBe(big?.bytes);
    expect(big?.bytes).toBeGreaterThan(lg.largePageBytes);
    const legacy = m.malformed[0] ?? "";
    expect(crawl.links.get(legacy)?.map((l) => path(l.url))).toEqual(["/legacy/tents", "/legacy/stoves", "/legacy/tents", "/legacy/lanterns", "/legacy/maps?from=legacy&v=1", "http://example.invalid/legacy-partner", "/"]);
    for (const hidden of m.notLinked) {
      expect((await head(hidden)).status).toBe(200);
      expect(crawl.depth.has(hidden)).toBe(false);
    }
  });
});

describe("throttlingSite", () => {
  const entry = (over: Partial<RequestLogEntry>): RequestLogEntry => ({ method: "GET", path: "/", time: 0, sentAt: 0, status: 200, userAgent: "crawler", connection: 1, ...over });

  it("violations: requests before Retry-After elapsed, forgiving one in-flight request per other connection", () => {
    const throttled = entry({ time: 0, sentAt: 1, status: 429, retryAfter: "1" });
    const log = [
      throttled,
      entry({ path: "/in-flight", time: 2, sentAt: 2, connection: 2 }),
      entry({ path: "/same-connection", time: 5, sentAt: 5, connection: 1 }),
      entry({ path: "/second-on-2", time: 20, sentAt: 20, connection: 2 }),
      entry({ path: "/other-agent", time: 30, sentAt: 30, connection: 3, userAgent: "browser" }),
      entry({ path: "/waited", time: 1001, sentAt: 1001, connection: 1 }),
    ];
    expect(violations(log).map((v) => [v.request.path, v.throttledBy, Math.round(v.earlyByMs)])).toEqual([
      ["/same-connection", throttled, 991],
      ["/second-on-2", throttled, 976],
    ]);
  });

  // One connection, as a crawler pausing the host would use: an early request on it cannot have been in flight.
  const oneConnection = new Agent({ connections: 1 });
  const fetch = (url: string) => undiciFetch(url, { dispatcher: oneConnection });
  afterAll(() => oneConnection.close());

  it("answers 429 with Retry-After to the first requests, then serves; the early retry is a violation", async () => {
    const t = throttlingSite({ throttleRequests: 2 });
    const server = await serveCrawlSite(t.site);
    try {
      const first = await fetch(`${server.origin}/`);
      expect([first.status, first.headers.get("retry-after")]).toEqual([429, "1"]);
      await first.arrayBuffer();
      const second = await fetch(`${server.origin}/`);
      expect([second.status, await second.text()]).toEqual([429, "429 Too Many Requests: slow down.\n"]);
      await sleep(1_050);
      const third = await fetch(`${server.origin}/`);
      expect(third.status).toBe(200);
      const links = [...(await third.text()).matchAll(/href="(\/p\/\d+)"/g)].map((x) => `${server.origin}${x[1]}`);
      expect([`${server.origin}/`, ...links].sort()).toEqual(t.manifest(server.origin).pages);
      expect(t.manifest(server.origin).pages).toHaveLength(20);
      expect(violations(server.requests).map((v) => [v.request.status, v.throttledBy.time])).toEqual([[429, server.requests[0]?.time]]);
    } finally {
      await server.close();
    }
  });

  it("a 503 variant throttles by time since the first request, and can exempt robots.txt", async () => {
    const server = await serveCrawlSite(throttlingSite({ status: 503, throttleRequests: 0, throttleMs: 200, exemptPaths: ["/robots.txt"] }).site);
    try {
      const first = await fetch(`${server.origin}/p/1`);
      expect([first.status, first.headers.get("retry-after"), await first.text()]).toEqual([503, "1", "503 Service Unavailable: slow down.\n"]);
      const robots = await fetch(`${server.origin}/robots.txt`);
      expect([robots.status, await robots.text()]).toEqual([200, expect.stringContaining("User-agent: *")]);
      await sleep(250);
      const later = await fetch(`${server.origin}/p/1`);
      expect([later.status, (await later.text()).length > 0]).toEqual([200, true]);
      expect(violations(server.requests).map((v) => v.request.path)).toEqual(["/robots.txt", "/p/1"]);
    } finally {
      await server.close();
    }
  });
});

describe("trapSite", () => {
  let server: CrawlSiteServer;
  const t = trapSite();
  const linksOf = async (url: string) => {
    const html = await (await fetch(url)).text();
    return [...html.matchAll(/<a href="([^"]+)"/g)].map((x) => strict((x[1] as string).replace(/&amp;/g, "&"), url)).filter((u) => u.startsWith(server.origin));
  };

  beforeAll(async () => {
    server = await serveCrawlSite(t.site);
  });
  afterAll(() => server.close());

  it("trap families never end", async () => {
    const at = (p: string) => `${server.origin}${p}`;
    expect(await linksOf(at("/calendar/2026/12"))).toEqual(expect.arrayContaining([at("/calendar/2026/11"), at("/calendar/2027/1")]));
    expect(await linksOf(at("/calendar/9999/12"))).toContain(at("/calendar/10000/1"));
    expect(await linksOf(at("/search?q=a&q=a"))).toContain(at("/search?q=a&q=a&q=a"));
    expect(await linksOf(at("/page?id=41"))).toContain(at("/page?id=42"));
    const sessions = (await linksOf(at("/shop?sid=00000001"))).filter((u) => u.includes("sid="));
    expect(sessions).toHaveLength(2);
    expect(await linksOf(at("/shop?sid=00000001"))).toEqual(await linksOf(at("/shop?sid=00000001")));
    expect((await fetch(at("/calendar/2026/13"))).status).toBe(404);
  });

  it("a bounded crawl finds every normal page, and every other URL belongs to a named family", async () => {
    const m = t.manifest(server.origin);
    expect(m.normalPages).toHaveLength(10);
    const seen = new Set([`${server.origin}/`]);
    const queue = [`${server.origin}/`];
    for (let i = 0; i < 160 && i < queue.length; i++) {
      for (const u of await linksOf(queue[i] as string)) {
        if (seen.has(u)) continue;
        seen.add(u);
        queue.push(u);
      }
    }
    expect(queue.length).toBeGreaterThan(160);
    expect(m.normalPages.every((p) => seen.has(p))).toBe(true);
    const families = new Map<string, number>();
    for (const u of seen) if (!m.normalPages.includes(u)) families.set(m.familyOf(u) ?? "none", (families.get(m.familyOf(u) ?? "none") ?? 0) + 1);
    expect([...families.keys()].sort()).toEqual(["calendar", "page-id", "search-repeat", "session-id"]);
    for (const f of m.families) expect(await linksOf(f.linkedFrom)).toContain(f.entry);
    for (const p of m.normalPages) expect(m.familyOf(p)).toBeNull();
  });
});
