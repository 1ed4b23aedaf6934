import { createHash } from "node:crypto";
import { groupsOf, looseKey, similarPairs, type Group, type SimilarPair } from "./duplicate-groups.ts";
import type { RenderedSite } from "./link-graph-routes.ts";
import { SITEMAP_INDEX, SITEMAP_MISSING, SITEMAP_PAGES, SITEMAP_POSTS, type LinkGraphModel } from "./link-graph-types.ts";
import { mainText, pageLinks, type PageModel } from "./page-model.ts";
import { robotsAllow } from "./robots-rules.ts";
import { lookupRoute } from "./serve-crawl-site.ts";
import { walkLinkGraph, type Answer } from "./link-graph-walk.ts";

// What a correct whole-site crawl of the link-graph site finds, derived from the site's data (the
// same data the server answers from), never typed by hand. URLs are absolute and in strict form:
// WHATWG-parsed, fragment dropped, query order kept.

export interface BrokenLink {
  readonly target: string;
  readonly status: number;
  /** Reachable pages linking to it, sorted. */
  readonly sources: string[];
}

export interface RedirectTruth {
  readonly from: string;
  /** Every hop with the status it answered, starting with `from`; a loop stops where it repeats. */
  readonly chain: { url: string; status: number }[];
  /** Where it ends: an internal page, an external URL (not fetched), or null for a loop. */
  readonly final: string | null;
  /** The final URL's status; null for a loop or an external final. */
  readonly finalStatus: number | null;
  readonly loop: boolean;
  readonly external: boolean;
  /** Reachable pages linking to `from`, sorted (empty for a sitemap-only redirect). */
  readonly sources: string[];
  readonly inSitemap: boolean;
}

export interface CanonicalTruth {
  readonly page: string;
  readonly target: string;
  /** The target's own answer (redirects not followed); null for another host. */
  readonly targetStatus: number | null;
  readonly self: boolean;
}

export interface HreflangTruth {
  readonly page: string;
  readonly hreflang: string;
  readonly target: string;
  /** The target names `page` among its own alternates. */
  readonly returns: boolean;
}

export interface ExternalDomain {
  /** The link's host name (no port). */
  readonly domain: string;
  /** <a href> elements across reachable pages (each page links each URL at most once). */
  readonly links: number;
  readonly nofollow: number;
  /** Distinct linking pages. */
  readonly pages: number;
  /** Distinct URLs, sorted. */
  readonly urls: string[];
}

export interface InternalUrl {
  readonly url: string;
  /** The URL's own answer (redirects not followed); 0 when robots.txt forbids fetching it. */
  readonly status: number;
  readonly kind: "page" | "redirect" | "broken" | "file" | "disallowed";
}

export interface LinkGraphManifest {
  readonly origin: string;
  /** Fetchable internal HTML pages (200, text/html) reachable from `/` through <a href> links, robots.txt honoured for "*", on-site redirects followed. Sorted. */
  readonly pages: string[];
  /** Link hops from `/` for each of `pages`; the same whether redirect hops count or not (the fixture ensures it). */
  readonly depth: Readonly<Record<string, number>>;
  /** Every internal URL linked from a reachable page, and `/`: how it answers. Sorted by URL. */
  readonly internal: InternalUrl[];
  /** Sitemap URLs answering as pages that no reachable page links to. */
  readonly orphans: string[];
  readonly brokenLinks: BrokenLink[];
  readonly redirects: RedirectTruth[];
  /** Over `pages`: groups sharing a title, a meta description, or the exact same <body>. Keys: the title, the description, a hash. */
  readonly duplicates: { readonly titles: Group[]; readonly descriptions: Group[]; readonly content: Group[] };
  /** Pairs of `pages` (not exact duplicates) whose main text (h1 and paragraphs) is ≥ 90 % alike by word 3-shingles. */
  readonly nearDuplicates: SimilarPair[];
  /** Pairs 20–90 % alike: similar, but no near-duplicates (the negative control). */
  readonly partialOverlaps: SimilarPair[];
  /** Groups of `pages` whose strict URLs differ but whose loose key is one (key: the loose key). */
  readonly urlVariants: Group[];
  readonly canonicals: CanonicalTruth[];
  readonly hreflang: { readonly alternates: HreflangTruth[]; readonly missingReturns: HreflangTruth[] };
  /** Internal URLs linked from reachable pages that robots.txt forbids to "*". */
  readonly robotsDisallowed: string[];
  /** robots.txt groups for other agents only: what a crawler of ours must not apply. */
  readonly robotsOtherAgents: { readonly agents: readonly string[]; readonly crawlDelayS: number | null; readonly disallow: readonly string[] }[];
  readonly sitemaps: {
    /** The Sitemap lines of robots.txt, in order. */
    readonly robots: string[];
    readonly index: string;
    /** The index's sitemaps: a plain one and a gzipped one (.xml.gz). */
    readonly children: string[];
    /** Sitemap files named but answering 404. */
    readonly missing: string[];
    /** Every URL the sitemaps list, sorted. */
    readonly urls: string[];
    readonly listedBroken: { url: string; status: number }[];
    readonly listedRedirects: { url: string; final: string | null }[];
  };
  /** `pages` that no sitemap lists. */
  readonly notInSitemap: string[];
  readonly external: ExternalDomain[];
  /** Linked internal URLs answering 200 with something other than HTML. */
  readonly nonHtml: { url: string; contentType: string }[];
  /** Pages whose body is larger than the site's largePageBytes. */
  readonly oversized: { url: string; bytes: number }[];
  /** Pages with malformed HTML whose links a lenient parser must still find. */
  readonly malformed: string[];
  /** Pages served 200 but named only in a comment or a script string: a parser must not find them. */
  readonly notLinked: string[];
  readonly stats: { readonly htmlPages: number; readonly reachable: number; readonly internalLinks: number; readonly externalLinks: number; readonly maxDepth: number; readonly deepPages: number };
}

const NEAR = 0.9;
const PARTIAL = 0.2;
const DEEP = 6;

export function buildLinkGraphManifest(model: LinkGraphModel, rendered: RenderedSite, origin: string, largePageBytes: number): LinkGraphManifest {
  const abs = (path: string) => new URL(path, origin).href;
  const host = new URL(origin).host;
  const answers = new Map<string, Answer>();
  const answer = (url: string): Answer => {
    let a = answers.get(url);
    if (!a) answers.set(url, (a = answerOf(url)));
    return a;
  };
  const answerOf = (url: string): Answer => {
    const u = new URL(url);
    if (u.host !== host) return { status: 0, kind: "external" };
    const found = lookupRoute(rendered.routes, u.pathname + u.search);
    if (!found) return { status: 404, kind: "broken" };
    const status = found.route.status ?? 200;
    const location = found.route.headers?.location;
    if (status >= 300 && status < 400 && location) return { status, kind: "redirect", location: new URL(location, url).href };
    if (status >= 400) return { status, kind: "broken" };
    const page = rendered.pageByKey.get(found.key);
    return page ? { status, kind: "page", page, bytes: Buffer.byteLength(found.route.body ?? "") } : { status, kind: "file", type: found.route.type ?? "" };
  };
  const allowed = (url: string) => {
    const u = new URL(url);
    return u.host !== host || robotsAllow(model.robots, "*", u.pathname + u.search);
  };
  const walk = walkLinkGraph(abs("/"), answer, allowed, (page) => pageLinks(page).map((l) => ({ href: l.absolute ? origin + l.href : l.href, rel: l.rel ?? "" })));
  const pages = [...walk.depth.keys()].sort();
  const pageOf = (url: string) => (answer(url) as { page: PageModel }).page;
  const sitemapUrls = [...model.sitemaps.pages, ...model.sitemaps.posts].map(abs);
  const sitemapSet = new Set(sitemapUrls);
  const reachable = new Set(pages);
  const linkedInternal = new Set([abs("/"), ...walk.internalLinks.map((l) => l.target)]);

  const bodyHash = (url: string) => {
    const html = String(lookupRoute(rendered.routes, new URL(url).pathname + new URL(url).search)?.route.body ?? "");
    return createHash("sha256").update(html.slice(html.indexOf("<body"))).digest("hex").slice(0, 16);
  };
  const docs = pages.map((url) => ({ url, text: mainText(pageOf(url)), same: bodyHash(url) }));
  const similar = similarPairs(docs, PARTIAL);

  const redirectTruth = (from: string): RedirectTruth => {
    const chain: { url: string; status: number }[] = [];
    let url = from;
    let a = answer(url);
    while (a.kind === "redirect" && !chain.some((c) => c.url === url)) {
      chain.push({ url, status: a.status });
      url = a.location;
      a = answer(url);
    }
    const loop = a.kind === "redirect";
    const external = a.kind === "external";
    return {
      from,
      chain,
      final: loop ? null : url,
      finalStatus: loop || external ? null : a.status,
      loop,
      external,
      sources: [...new Set(walk.internalLinks.filter((l) => l.target === from).map((l) => l.source))].sort(),
      inSitemap: sitemapSet.has(from),
    };
  };

  const hreflang = pages.flatMap((url) =>
    pageOf(url).hreflang.map((h): HreflangTruth => {
      const target = abs(h.path);
      const back = answer(target);
      const returns = back.kind === "page" && back.page.hreflang.some((r) => abs(r.path) === url);
      return { page: url, hreflang: h.lang, target, returns };
    }),
  );

  const externalByDomain = new Map<string, { links: number; nofollow: number; pages: Set<string>; urls: Set<string> }>();
  for (const l of walk.externalLinks) {
    const domain = new URL(l.target).hostname;
    const d = externalByDomain.get(domain) ?? { links: 0, nofollow: 0, pages: new Set(), urls: new Set() };
    d.links += 1;
    if (/\bnofollow\b/i.test(l.rel)) d.nofollow += 1;
    d.pages.add(l.source);
    d.urls.add(l.target);
    externalByDomain.set(domain, d);
  }

  const brokenBy = new Map<string, Set<string>>();
  for (const l of walk.internalLinks) {
    if (!allowed(l.target) || answer(l.target).kind !== "broken") continue;
    brokenBy.set(l.target, (brokenBy.get(l.target) ?? new Set()).add(l.source));
  }

  const depths = [...walk.depth.values()];
  return {
    origin,
    pages,
    depth: Object.fromEntries(pages.map((p) => [p, walk.depth.get(p) ?? -1])),
    internal: [...linkedInternal].sort().map((url) => {
      const a = answer(url);
      return allowed(url) ? { url, status: a.status, kind: a.kind as InternalUrl["kind"] } : { url, status: 0, kind: "disallowed" };
    }),
    orphans: sitemapUrls.filter((u) => allowed(u) && answer(u).kind === "page" && !reachable.has(u) && !linkedInternal.has(u)).sort(),
    brokenLinks: [...brokenBy].sort(([a], [b]) => (a < b ? -1 : 1)).map(([target, sources]) => ({ target, status: answer(target).status, sources: [...sources].sort() })),
    redirects: [...new Set([...linkedInternal, ...sitemapUrls])].filter((u) => allowed(u) && answer(u).kind === "redirect").sort().map(redirectTruth),
    duplicates: {
      titles: groupsOf(pages, (u) => u, (u) => pageOf(u).title),
      descriptions: groupsOf(pages, (u) => u, (u) => pageOf(u).description),
      content: groupsOf(docs, (d) => d.url, (d) => d.same),
    },
    nearDuplicates: similar.filter((p) => p.similarity >= NEAR),
    partialOverlaps: similar.filter((p) => p.similarity < NEAR),
    urlVariants: groupsOf(pages, (u) => u, looseKey),
    canonicals: pages.flatMap((page) => {
      const c = pageOf(page).canonical;
      if (c === null) return [];
      const target = abs(c);
      const a = answer(target);
      return [{ page, target, targetStatus: a.kind === "external" ? null : a.status, self: target === page }];
    }),
    hreflang: { alternates: hreflang, missingReturns: hreflang.filter((h) => !h.returns && h.target !== h.page) },
    robotsDisallowed: [...linkedInternal].filter((u) => !allowed(u)).sort(),
    robotsOtherAgents: model.robots.filter((g) => !g.agents.includes("*")).map((g) => ({ agents: g.agents, crawlDelayS: g.crawlDelayS ?? null, disallow: g.disallow })),
    sitemaps: {
      robots: [abs(SITEMAP_INDEX), abs(SITEMAP_MISSING)],
      index: abs(SITEMAP_INDEX),
      children: [abs(SITEMAP_PAGES), abs(SITEMAP_POSTS)],
      missing: [abs(SITEMAP_MISSING)],
      urls: [...sitemapUrls].sort(),
      listedBroken: sitemapUrls.filter((u) => answer(u).kind === "broken").map((url) => ({ url, status: answer(url).status })),
      listedRedirects: sitemapUrls.filter((u) => answer(u).kind === "redirect").map((url) => ({ url, final: redirectTruth(url).final })),
    },
    notInSitemap: pages.filter((p) => !sitemapSet.has(p)),
    external: [...externalByDomain]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([domain, d]) => ({ domain, links: d.links, nofollow: d.nofollow, pages: d.pages.size, urls: [...d.urls].sort() })),
    nonHtml: [...linkedInternal].sort().flatMap((url) => {
      const a = answer(url);
      return a.kind === "file" && allowed(url) ? [{ url, contentType: a.type }] : [];
    }),
    oversized: pages.flatMap((url) => {
      const a = answer(url);
      return a.kind === "page" && a.bytes > largePageBytes ? [{ url, bytes: a.bytes }] : [];
    }),
    malformed: pages.filter((u) => pageOf(u).raw !== undefined),
    notLinked: [abs("/legacy/hidden-comment"), abs("/legacy/hidden-script")],
    stats: {
      htmlPages: model.pages.size,
      reachable: pages.length,
      internalLinks: walk.internalLinks.length,
      externalLinks: walk.externalLinks.length,
      maxDepth: Math.max(...depths),
      deepPages: depths.filter((d) => d >= DEEP).length,
    },
  };
}
