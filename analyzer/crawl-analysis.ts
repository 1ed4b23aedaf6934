// The whole-site part of a crawl: what only the full link graph tells — broken links with their
// sources, orphans, redirect chains, canonical and hreflang targets, duplicates and near-duplicates,
// click depth, sitemap consistency, internal link rank and the external link summary. Pure: the
// crawler runs it (off the serving thread) over every page it stored.
import { getDomain } from "tldts";
import { CrawlFindings, type CrawlSample, type CrawledPage, type ExternalLinkCheck, type PageLinkStats } from "../proto/index.ts";
import { looseKey } from "./url-keys.ts";

export interface CrawlInput {
  readonly jobId: number;
  /** Unix seconds. */
  readonly crawledAt: number;
  /** Every URL the crawl stored (fetched or skipped), keyed by its strict URL. */
  readonly pages: readonly CrawledPage[];
  /** URLs the sitemaps list (strict keys, this site only). */
  readonly sitemapUrls: readonly string[];
  /** Why the crawl stopped early: "", page_limit, depth_limit, time_limit, trap. */
  readonly truncatedBy: string;
  /** URL families the crawler refused as traps, with an example each. */
  readonly traps: readonly { pattern: string; example: string; urls: number }[];
  readonly external: readonly ExternalLinkCheck[];
  /** Politeness as applied: the delay between requests and how often the site asked to slow down. */
  readonly politeness: { readonly delayMs: number; readonly connections: number; readonly throttled: number; readonly retryAfterWaitS: number };
  readonly durationMs: number;
}

export interface BrokenLink {
  readonly url: string;
  readonly status: number;
  readonly error: string;
  readonly sources: string[];
  readonly links: number;
}

export interface CrawlReport {
  readonly summary: Record<string, unknown>;
  readonly graph: Record<string, unknown>;
  readonly links: {
    readonly orphans: { url: string; status: number }[];
    readonly broken: BrokenLink[];
    readonly duplicates: {
      readonly titles: { title: string; urls: string[] }[];
      readonly descriptions: { description: string; urls: string[] }[];
      readonly content: { hash: string; urls: string[] }[];
      readonly near: { a: string; b: string; similarity: number }[];
      readonly urls: { key: string; urls: string[] }[];
    };
    readonly top_pages: { url: string; score: number; inlinks: number; depth: number }[];
    readonly redirects: { url: string; chain: string[]; final: string; status: number; loop: boolean }[];
    readonly canonicals: { url: string; target: string; problem: string }[];
    readonly hreflang: { url: string; alternate: string; hreflang: string }[];
  };
  readonly external: {
    readonly domains: { domain: string; links: number; nofollow: number; pages: number; checked: number; broken: number; unchecked: number }[];
    readonly links: { url: string; domain: string; sources: number; nofollow: boolean; status: number | null; error: string; state: "ok" | "broken" | "unchecked" }[];
    readonly total: number;
    readonly nofollow_share: number;
  };
}

export interface CrawlAnalysis {
  readonly findings: CrawlFindings;
  readonly report: CrawlReport;
  readonly pageStats: PageLinkStats[];
}

const SAMPLES = 20;
const DEEP = 3;
/**
 * Hamming distance of 64-bit SimHashes at or under which two texts are near-duplicates: 7 of 64
 * bits finds texts about 90 % alike by word 3-shingles; unrelated texts differ in about 32 ± 4
 * bits, so a false pair needs a 6-sigma coincidence.
 */
const NEAR_BITS = 7;
/** Bands of 8 bits: two hashes at most 7 bits apart agree on at least one band (pigeonhole). */
const BANDS = 8;
const MIN_WORDS_FOR_NEAR = 50;

/** Whether a stored URL is an HTML page that answered 2xx itself (a redirect is not a page). */
function isPage(p: CrawledPage): boolean {
  return p.skipped === "" && p.isHtml && p.status >= 200 && p.status < 300 && p.redirects.length === 0;
}

function isIndexable(p: CrawledPage): boolean {
  if (!isPage(p) || p.noindex) return false;
  return p.canonical === "" || p.canonical === p.finalUrl || p.canonical === p.url;
}

function isBroken(p: CrawledPage): boolean {
  return p.skipped === "" && (p.status >= 400 || (p.status === 0 && p.error !== "" && p.error !== "too_many_redirects"));
}

function sample(items: readonly CrawlSample[]): CrawlSample[] {
  return items.slice(0, SAMPLES);
}

function popcount64(x: bigint): number {
  let n = 0;
  while (x) {
    x &= x - 1n;
    n += 1;
  }
  return n;
}

export function analyzeCrawl(input: CrawlInput): CrawlAnalysis {
  const byUrl = new Map(input.pages.map((p) => [p.url, p]));
  const fetched = input.pages.filter((p) => p.skipped === "");
  const pages = fetched.filter(isPage);
  const finalOf = (url: string): CrawledPage | undefined => byUrl.get(url);

  // Inlinks: distinct crawled pages linking to each URL (a redirect's target counts its sources too).
  const sources = new Map<string, Set<string>>();
  const addSource = (target: string, from: string) => {
    let s = sources.get(target);
    if (!s) sources.set(target, (s = new Set()));
    s.add(from);
  };
  let edges = 0;
  for (const p of pages) {
    for (const target of p.internalLinks) {
      if (target === p.url) continue;
      edges += 1;
      addSource(target, p.url);
      const t = byUrl.get(target);
      if (t && t.finalUrl && t.finalUrl !== target) addSource(t.finalUrl, p.url);
    }
  }

  // Broken internal links, with their sources.
  const broken: BrokenLink[] = [];
  for (const [target, from] of sources) {
    const t = byUrl.get(target);
    if (t && isBroken(t)) broken.push({ url: target, status: t.status, error: t.error, sources: [...from].sort(), links: from.size });
  }
  broken.sort((a, b) => b.links - a.links || a.url.localeCompare(b.url));

  // Redirects: chains of two hops or more, loops, and links that point at a redirect.
  const redirects = fetched
    .filter((p) => p.redirects.length > 0 || p.error === "too_many_redirects")
    .map((p) => ({
      url: p.url,
      chain: p.redirects.map((r) => r.location),
      final: p.finalUrl,
      status: p.status,
      loop: p.error === "too_many_redirects" || new Set(p.redirects.map((r) => r.url)).size < p.redirects.length,
    }))
    .sort((a, b) => a.url.localeCompare(b.url));
  const chains = redirects.filter((r) => r.loop || r.chain.length >= 2);
  const redirectedTargets = [...sources.keys()].filter((t) => {
    const r = byUrl.get(t);
    return r !== undefined && r.skipped === "" && r.redirects.length > 0;
  });

  // Orphans: sitemap URLs no crawled page links to (the home page is never an orphan).
  const sitemapSet = new Set(input.sitemapUrls);
  const home = input.pages.find((p) => p.depth === 0);
  const linked = (url: string) => sources.has(url) || (home !== undefined && (home.url === url || home.finalUrl === url));
  // Sitemap URLs that redirect or fail are not pages: they count as sitemap problems instead.
  const orphans = input.sitemapUrls
    .filter((u) => !linked(u) && (byUrl.get(u) === undefined || isPage(byUrl.get(u) as CrawledPage)))
    .map((u) => ({ url: u, status: finalOf(u)?.status ?? 0 }))
    .sort((a, b) => a.url.localeCompare(b.url));

  // Canonicals that point to what cannot be the indexed page.
  const canonicals: { url: string; target: string; problem: string }[] = [];
  for (const p of pages) {
    if (!p.canonical || p.canonical === p.finalUrl || p.canonical === p.url) continue;
    let problem = "";
    const target = byUrl.get(p.canonical);
    if (new URL(p.canonical).host !== new URL(p.finalUrl || p.url).host) problem = "other host";
    else if (!target) continue; // not crawled: nothing known about it
    else if (target.redirects.length > 0) problem = `redirects to ${target.finalUrl}`;
    else if (target.status !== 200) problem = target.status === 0 ? `no answer (${target.error})` : `answers ${target.status}`;
    else if (target.noindex) problem = "target is noindex";
    if (problem) canonicals.push({ url: p.url, target: p.canonical, problem });
  }
  canonicals.sort((a, b) => a.url.localeCompare(b.url));

  // hreflang: an alternate must link back.
  const hreflang: { url: string; alternate: string; hreflang: string }[] = [];
  for (const p of pages) {
    for (const alt of p.hreflang) {
      if (alt.href === p.url || alt.href === p.finalUrl) continue;
      const other = byUrl.get(alt.href);
      if (!other || !isPage(other)) continue;
      const back = other.hreflang.some((a) => a.href === p.url || a.href === p.finalUrl);
      if (!back) hreflang.push({ url: p.url, alternate: alt.href, hreflang: alt.hreflang });
    }
  }
  hreflang.sort((a, b) => a.url.localeCompare(b.url) || a.alternate.localeCompare(b.alternate));

  // Duplicates among indexable pages.
  const indexable = pages.filter(isIndexable);
  // Grouped case- and whitespace-insensitively; a group shows the text of its first page.
  const groupBy = (text: (p: CrawledPage) => string, normalise: (s: string) => string) => {
    const groups = new Map<string, { key: string; urls: string[] }>();
    for (const p of indexable) {
      const t = text(p);
      const k = normalise(t);
      if (!k) continue;
      const group = groups.get(k) ?? { key: t.trim(), urls: [] };
      group.urls.push(p.url);
      groups.set(k, group);
    }
    return [...groups.values()].filter((g) => g.urls.length > 1).map((g) => ({ key: g.key, urls: g.urls.sort() })).sort((a, b) => b.urls.length - a.urls.length || a.key.localeCompare(b.key));
  };
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");
  const titleGroups = groupBy((p) => p.title, norm);
  const descriptionGroups = groupBy((p) => p.description, norm);
  const contentGroups = groupBy((p) => (p.words > 0 ? p.contentHash : ""), (s) => s);
  const near = nearDuplicates(indexable);
  const variantGroups = groupVariants(pages);

  // Depth.
  const depthHistogram = new Map<number, number>();
  for (const p of pages) depthHistogram.set(p.depth, (depthHistogram.get(p.depth) ?? 0) + 1);
  const maxDepth = Math.max(0, ...pages.map((p) => p.depth));
  const deep = pages.filter((p) => p.depth > DEEP).sort((a, b) => b.depth - a.depth || a.url.localeCompare(b.url));

  // Sitemap consistency.
  const sitemapBad = input.sitemapUrls
    .map((u) => ({ u, p: byUrl.get(u) }))
    .filter((x): x is { u: string; p: CrawledPage } => x.p !== undefined && x.p.skipped === "")
    .map(({ u, p }) => ({ url: u, problem: p.redirects.length > 0 ? `redirects to ${p.finalUrl}` : p.status !== 200 ? `answers ${p.status || p.error}` : p.noindex ? "noindex" : "" }))
    .filter((x) => x.problem !== "")
    .sort((a, b) => a.url.localeCompare(b.url));
  const notInSitemap = sitemapSet.size === 0 ? [] : indexable.filter((p) => !sitemapSet.has(p.url) && !sitemapSet.has(p.finalUrl)).sort((a, b) => a.url.localeCompare(b.url));

  // Internal link rank.
  const scores = pageRank(pages, byUrl);
  const pageStats: PageLinkStats[] = input.pages.map((p) => ({ url: p.url, inlinks: sources.get(p.url)?.size ?? 0, score: Number((scores.get(p.url) ?? 0).toFixed(2)) }));
  const topPages = pages
    .map((p) => ({ url: p.url, score: Number((scores.get(p.url) ?? 0).toFixed(2)), inlinks: sources.get(p.url)?.size ?? 0, depth: p.depth }))
    .sort((a, b) => b.score - a.score || b.inlinks - a.inlinks || a.url.localeCompare(b.url))
    .slice(0, 100);

  const external = externalSummary(pages, input.external);

  const pagesInGroups = (groups: { urls: string[] }[]) => groups.reduce((n, g) => n + g.urls.length, 0);
  const groupSamples = (groups: { key: string; urls: string[] }[], what: string) =>
    sample(groups.flatMap((g) => g.urls.map((url) => ({ url, detail: `${what} shared with ${g.urls.length - 1} other page${g.urls.length > 2 ? "s" : ""}: "${g.key.slice(0, 80)}"` }))));
  const findings = CrawlFindings.fromPartial({
    present: true,
    jobId: input.jobId,
    crawledAt: input.crawledAt,
    pages: pages.length,
    urls: fetched.length,
    truncatedBy: input.truncatedBy,
    brokenLinks: broken.length,
    broken: sample(broken.map((b) => ({ url: b.url, detail: `${b.status || b.error}, linked from ${b.links} page${b.links > 1 ? "s" : ""} (e.g. ${b.sources[0] ?? ""})` }))),
    orphans: orphans.length,
    orphan: sample(orphans.map((o) => ({ url: o.url, detail: "listed in the sitemap, linked from no crawled page" }))),
    redirectChains: chains.length,
    redirectLoops: chains.filter((c) => c.loop).length,
    redirectChain: sample(chains.map((c) => ({ url: c.url, detail: c.loop ? "redirect loop" : `${c.chain.length} hops: ${[c.url, ...c.chain].join(" → ")}` }))),
    redirectedLinks: redirectedTargets.length,
    redirected: sample(redirectedTargets.sort().map((t) => ({ url: t, detail: `redirects to ${byUrl.get(t)?.finalUrl ?? ""}` }))),
    canonicalBad: canonicals.length,
    canonical: sample(canonicals.map((c) => ({ url: c.url, detail: `canonical ${c.target}: ${c.problem}` }))),
    hreflangMissingReturn: hreflang.length,
    hreflang: sample(hreflang.map((h) => ({ url: h.url, detail: `${h.hreflang} alternate ${h.alternate} does not link back` }))),
    duplicateTitles: pagesInGroups(titleGroups),
    duplicateTitle: groupSamples(titleGroups, "title"),
    duplicateDescriptions: pagesInGroups(descriptionGroups),
    duplicateDescription: groupSamples(descriptionGroups, "description"),
    duplicateContent: pagesInGroups(contentGroups),
    duplicate: sample(contentGroups.flatMap((g) => g.urls.map((url) => ({ url, detail: `same text as ${g.urls.filter((u) => u !== url)[0] ?? ""}` })))),
    nearDuplicates: new Set(near.flatMap((n) => [n.a, n.b])).size,
    nearDuplicate: sample(near.map((n) => ({ url: n.a, detail: `${Math.round(n.similarity * 100)} % like ${n.b}` }))),
    deepPages: deep.length,
    deep: sample(deep.map((p) => ({ url: p.url, detail: `${p.depth} clicks from the home page` }))),
    maxDepth,
    sitemapBad: sitemapBad.length,
    sitemap: sample(sitemapBad.map((s) => ({ url: s.url, detail: s.problem }))),
    notInSitemap: notInSitemap.length,
    missingFromSitemap: sample(notInSitemap.map((p) => ({ url: p.url, detail: "indexable, not in the sitemaps" }))),
    urlVariants: variantGroups.reduce((n, g) => n + g.urls.length - 1, 0),
    urlVariant: sample(variantGroups.flatMap((g) => g.urls.slice(1).map((url) => ({ url, detail: `same page as ${g.urls[0] ?? ""}` })))),
    sitemapListed: sitemapSet.size > 0,
  });

  const statusClasses: Record<string, number> = {};
  for (const p of fetched) {
    const k = p.status === 0 ? "error" : `${Math.floor(p.status / 100)}xx`;
    statusClasses[k] = (statusClasses[k] ?? 0) + 1;
  }
  const skipped: Record<string, number> = {};
  for (const p of input.pages) if (p.skipped) skipped[p.skipped] = (skipped[p.skipped] ?? 0) + 1;
  const report: CrawlReport = {
    summary: {
      pages: pages.length,
      urls: fetched.length,
      known: input.pages.length,
      statuses: statusClasses,
      skipped,
      indexable: indexable.length,
      noindex: pages.filter((p) => p.noindex).length,
      words_avg: pages.length > 0 ? Math.round(pages.reduce((n, p) => n + p.words, 0) / pages.length) : 0,
      broken_links: broken.length,
      orphans: orphans.length,
      redirects: redirects.length,
      redirect_chains: chains.length,
      duplicate_titles: titleGroups.length,
      duplicate_content: contentGroups.length,
      near_duplicates: near.length,
      max_depth: maxDepth,
      truncated_by: input.truncatedBy || null,
      traps: input.traps,
      politeness: { delay_ms: input.politeness.delayMs, connections: input.politeness.connections, throttled: input.politeness.throttled, retry_after_wait_s: input.politeness.retryAfterWaitS },
      duration_ms: input.durationMs,
    },
    graph: {
      nodes: pages.length,
      edges,
      depth: [...depthHistogram.entries()].sort(([a], [b]) => a - b).map(([depth, n]) => ({ depth, pages: n })),
      inlinks_avg: pages.length > 0 ? Number((pages.reduce((n, p) => n + (sources.get(p.url)?.size ?? 0), 0) / pages.length).toFixed(1)) : 0,
      no_inlinks: pages.filter((p) => p.depth > 0 && !sources.has(p.url) && !sources.has(p.finalUrl)).length,
    },
    links: {
      orphans,
      broken,
      duplicates: {
        titles: titleGroups.map((g) => ({ title: g.key, urls: g.urls })),
        descriptions: descriptionGroups.map((g) => ({ description: g.key, urls: g.urls })),
        content: contentGroups.map((g) => ({ hash: g.key, urls: g.urls })),
        near,
        urls: variantGroups,
      },
      top_pages: topPages,
      redirects,
      canonicals,
      hreflang,
    },
    external,
  };
  return { findings, report, pageStats };
}

/** Pairs of texts whose SimHashes differ in at most NEAR_BITS bits, exact duplicates aside (only pairs sharing a band are compared). */
function nearDuplicates(pages: readonly CrawledPage[]): { a: string; b: string; similarity: number }[] {
  const candidates = pages.filter((p) => p.simhash && p.words >= MIN_WORDS_FOR_NEAR).map((p) => ({ url: p.url, hash: BigInt(`0x${p.simhash}`), content: p.contentHash }));
  const buckets = new Map<string, number[]>();
  candidates.forEach((c, i) => {
    for (let band = 0; band < BANDS; band++) {
      const key = `${band}:${(c.hash >> BigInt(band * 8)) & 0xffn}`;
      const list = buckets.get(key) ?? [];
      list.push(i);
      buckets.set(key, list);
    }
  });
  const seen = new Set<string>();
  const out: { a: string; b: string; similarity: number }[] = [];
  for (const list of buckets.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = candidates[list[i] as number];
        const b = candidates[list[j] as number];
        if (!a || !b || a.content === b.content) continue;
        const [x, y] = a.url < b.url ? [a, b] : [b, a];
        const key = `${x.url} ${y.url}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const d = popcount64(x.hash ^ y.hash);
        if (d <= NEAR_BITS) out.push({ a: x.url, b: y.url, similarity: Number((1 - d / 64).toFixed(3)) });
      }
    }
  }
  return out.sort((p, q) => p.a.localeCompare(q.a) || p.b.localeCompare(q.b));
}

/** Fetched pages whose URLs differ only in what the loose key drops. */
function groupVariants(pages: readonly CrawledPage[]): { key: string; urls: string[] }[] {
  const groups = new Map<string, Set<string>>();
  for (const p of pages) {
    const k = looseKey(p.url);
    const set = groups.get(k) ?? new Set<string>();
    set.add(p.url);
    groups.set(k, set);
  }
  return [...groups.entries()]
    .filter(([, s]) => s.size > 1)
    .map(([key, s]) => ({ key, urls: [...s].sort((a, b) => a.length - b.length || a.localeCompare(b)) }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** PageRank over the crawled internal graph (damping 0.85, 30 iterations), scaled so the best page is 100. */
function pageRank(pages: readonly CrawledPage[], byUrl: ReadonlyMap<string, CrawledPage>): Map<string, number> {
  const index = new Map(pages.map((p, i) => [p.url, i]));
  const resolve = (url: string): number | undefined => index.get(url) ?? index.get(byUrl.get(url)?.finalUrl ?? "");
  const out: number[][] = pages.map((p) => [...new Set(p.internalLinks.map(resolve).filter((i): i is number => i !== undefined))]);
  const n = pages.length;
  if (n === 0) return new Map();
  let rank = new Array<number>(n).fill(1 / n);
  for (let iter = 0; iter < 30; iter++) {
    const next = new Array<number>(n).fill(0.15 / n);
    let dangling = 0;
    out.forEach((targets, i) => {
      const r = rank[i] as number;
      if (targets.length === 0) dangling += r;
      else for (const t of targets) next[t] = (next[t] as number) + (0.85 * r) / targets.length;
    });
    rank = next.map((v) => v + (0.85 * dangling) / n);
  }
  const max = Math.max(...rank);
  return new Map(pages.map((p, i) => [p.url, max > 0 ? ((rank[i] as number) / max) * 100 : 0]));
}

function externalSummary(pages: readonly CrawledPage[], checks: readonly ExternalLinkCheck[]): CrawlReport["external"] {
  const checked = new Map(checks.map((c) => [c.url, c]));
  const links = new Map<string, { url: string; domain: string; sources: Set<string>; nofollow: boolean }>();
  let total = 0;
  let nofollow = 0;
  for (const p of pages) {
    for (const l of p.externalLinks) {
      total += 1;
      if (l.nofollow) nofollow += 1;
      let host = "";
      try {
        host = new URL(l.href).hostname;
      } catch {
        continue;
      }
      const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
      const entry = links.get(l.href) ?? { url: l.href, domain, sources: new Set<string>(), nofollow: true };
      entry.sources.add(p.url);
      entry.nofollow &&= l.nofollow;
      links.set(l.href, entry);
    }
  }
  const list = [...links.values()].map((l) => {
    const c = checked.get(l.url);
    const state: "ok" | "broken" | "unchecked" = !c ? "unchecked" : c.status >= 400 || c.status === 0 ? "broken" : "ok";
    return { url: l.url, domain: l.domain, sources: l.sources.size, nofollow: l.nofollow, status: c ? c.status : null, error: c?.error ?? "", state };
  });
  list.sort((a, b) => a.domain.localeCompare(b.domain) || a.url.localeCompare(b.url));
  const byHref = new Map(list.map((l) => [l.url, l]));
  const domains = new Map<string, { domain: string; links: number; nofollow: number; pages: Set<string>; checked: number; broken: number; unchecked: number }>();
  for (const p of pages) {
    for (const l of p.externalLinks) {
      const entry = byHref.get(l.href);
      if (!entry) continue;
      const d = domains.get(entry.domain) ?? { domain: entry.domain, links: 0, nofollow: 0, pages: new Set<string>(), checked: 0, broken: 0, unchecked: 0 };
      d.links += 1;
      if (l.nofollow) d.nofollow += 1;
      d.pages.add(p.url);
      domains.set(entry.domain, d);
    }
  }
  for (const l of list) {
    const d = domains.get(l.domain);
    if (!d) continue;
    if (l.state === "unchecked") d.unchecked += 1;
    else {
      d.checked += 1;
      if (l.state === "broken") d.broken += 1;
    }
  }
  return {
    domains: [...domains.values()].map((d) => ({ domain: d.domain, links: d.links, nofollow: d.nofollow, pages: d.pages.size, checked: d.checked, broken: d.broken, unchecked: d.unchecked })).sort((a, b) => b.links - a.links || a.domain.localeCompare(b.domain)),
    links: list,
    total,
    nofollow_share: total > 0 ? Number((nofollow / total).toFixed(3)) : 0,
  };
}
