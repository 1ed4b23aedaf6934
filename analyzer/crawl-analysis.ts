// The whole-site part of a crawl: what only the full link graph tells — broken links with their
// sources, orphans, redirect chains, canonical and hreflang targets, duplicates and near-duplicates,
// click depth, sitemap consistency, internal link rank and the external link summary. Pure: the
// crawler runs it (off the serving thread) over every page it stored.
import { CrawlFindings, type CrawlSample, type CrawledPage, type ExternalLinkCheck, type PageLinkStats } from "../proto/index.ts";
import { duplicateGroups, groupVariants, normaliseText, type DuplicateGroup } from "./crawl-duplicates.ts";
import { nearDuplicateClusters, type NearCluster, type NearDuplicateResult } from "./near-clusters.ts";
import { externalSummary, type ExternalSummary } from "./crawl-external.ts";
import { linkRank } from "./link-rank.ts";

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
      /** Near pairs, at most MAX_PAIRS_KEPT of them (summary.near_duplicates counts them all). */
      readonly near: { a: string; b: string; similarity: number }[];
      readonly urls: { key: string; urls: string[] }[];
      /** Pages nearly alike, as clusters (an addition to the spec's fields; absent from reports made before them). */
      readonly clusters?: NearCluster[];
    };
    readonly top_pages: { url: string; score: number; inlinks: number; depth: number }[];
    readonly redirects: { url: string; chain: string[]; final: string; status: number; loop: boolean }[];
    readonly canonicals: { url: string; target: string; problem: string }[];
    readonly hreflang: { url: string; alternate: string; hreflang: string }[];
  };
  readonly external: ExternalSummary;
}

export interface CrawlAnalysis {
  readonly findings: CrawlFindings;
  readonly report: CrawlReport;
  readonly pageStats: PageLinkStats[];
}

const SAMPLES = 20;
/** Clicks from the home page beyond which a page is deep. */
const DEEP = 3;

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

/** The crawl's URLs sorted as the steps need them. */
interface CrawlIndex {
  readonly input: CrawlInput;
  readonly byUrl: ReadonlyMap<string, CrawledPage>;
  /** URLs fetched (not skipped). */
  readonly fetched: readonly CrawledPage[];
  /** Fetched URLs that are HTML pages answered 2xx themselves. */
  readonly pages: readonly CrawledPage[];
  readonly indexable: readonly CrawledPage[];
  readonly sitemapSet: ReadonlySet<string>;
}

/** The internal link graph: for each linked URL, the distinct crawled pages linking to it (a redirect's target counts its sources too). */
interface LinkGraph {
  readonly sources: ReadonlyMap<string, ReadonlySet<string>>;
  /** Links between pages, self-links aside. */
  readonly edges: number;
}

type Redirect = CrawlReport["links"]["redirects"][number];
type Orphan = CrawlReport["links"]["orphans"][number];
type CanonicalProblem = CrawlReport["links"]["canonicals"][number];
type HreflangProblem = CrawlReport["links"]["hreflang"][number];

/** The link problems only the graph tells. */
interface LinkProblems {
  readonly broken: BrokenLink[];
  /** Every URL that redirected (or looped). */
  readonly redirects: Redirect[];
  /** Redirects of two hops or more, and loops. */
  readonly chains: Redirect[];
  /** Linked URLs that redirect. */
  readonly redirectedTargets: string[];
  readonly orphans: Orphan[];
  readonly canonicals: CanonicalProblem[];
  readonly hreflang: HreflangProblem[];
}

interface Duplicates {
  readonly titles: DuplicateGroup[];
  readonly descriptions: DuplicateGroup[];
  readonly content: DuplicateGroup[];
  readonly near: NearDuplicateResult;
  readonly variants: DuplicateGroup[];
}

interface Depths {
  /** Pages per click depth. */
  readonly histogram: ReadonlyMap<number, number>;
  readonly max: number;
  /** Pages deeper than DEEP clicks, deepest first. */
  readonly deep: CrawledPage[];
}

interface SitemapConsistency {
  /** Sitemap URLs that redirect, fail or are noindex. */
  readonly bad: { url: string; problem: string }[];
  /** Indexable pages the sitemaps do not list (none when there is no sitemap). */
  readonly notInSitemap: CrawledPage[];
}

interface Ranks {
  readonly pageStats: PageLinkStats[];
  readonly topPages: CrawlReport["links"]["top_pages"];
}

/** What the steps found, for the findings and the report. */
interface CrawlResults {
  readonly graph: LinkGraph;
  readonly problems: LinkProblems;
  readonly duplicates: Duplicates;
  readonly depths: Depths;
  readonly sitemap: SitemapConsistency;
  readonly ranks: Ranks;
  readonly external: ExternalSummary;
}

/** The whole-site analysis of a crawl: its findings, its report and each URL's link stats. */
export function analyzeCrawl(input: CrawlInput): CrawlAnalysis {
  const crawl = indexCrawl(input);
  const graph = linkGraph(crawl);
  const results: CrawlResults = {
    graph,
    problems: linkProblems(crawl, graph),
    duplicates: findDuplicates(crawl),
    depths: clickDepths(crawl.pages),
    sitemap: sitemapConsistency(crawl),
    ranks: rankPages(crawl, graph),
    external: externalSummary(crawl.pages, input.external),
  };
  return { findings: crawlFindings(crawl, results), report: crawlReport(crawl, results), pageStats: results.ranks.pageStats };
}

function indexCrawl(input: CrawlInput): CrawlIndex {
  const fetched = input.pages.filter((p) => p.skipped === "");
  const pages = fetched.filter(isPage);
  return { input, byUrl: new Map(input.pages.map((p) => [p.url, p])), fetched, pages, indexable: pages.filter(isIndexable), sitemapSet: new Set(input.sitemapUrls) };
}

function linkGraph({ pages, byUrl }: CrawlIndex): LinkGraph {
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
  return { sources, edges };
}

function linkProblems(crawl: CrawlIndex, graph: LinkGraph): LinkProblems {
  const redirects = redirectsOf(crawl.fetched);
  return {
    broken: brokenLinks(crawl, graph),
    redirects,
    chains: redirects.filter((r) => r.loop || r.chain.length >= 2),
    redirectedTargets: redirectedTargets(crawl, graph),
    orphans: orphansOf(crawl, graph),
    canonicals: canonicalProblems(crawl),
    hreflang: hreflangMissingReturn(crawl),
  };
}

/** Broken internal links, with their sources; most linked first. */
function brokenLinks({ byUrl }: CrawlIndex, { sources }: LinkGraph): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const [target, from] of sources) {
    const t = byUrl.get(target);
    if (t && isBroken(t)) broken.push({ url: target, status: t.status, error: t.error, sources: [...from].sort(), links: from.size });
  }
  return broken.sort((a, b) => b.links - a.links || a.url.localeCompare(b.url));
}

function redirectsOf(fetched: readonly CrawledPage[]): Redirect[] {
  return fetched
    .filter((p) => p.redirects.length > 0 || p.error === "too_many_redirects")
    .map((p) => ({
      url: p.url,
      chain: p.redirects.map((r) => r.location),
      final: p.finalUrl,
      status: p.status,
      loop: p.error === "too_many_redirects" || new Set(p.redirects.map((r) => r.url)).size < p.redirects.length,
    }))
    .sort((a, b) => a.url.localeCompare(b.url));
}

/** Linked URLs that redirect (a link that should point at the target). */
function redirectedTargets({ byUrl }: CrawlIndex, { sources }: LinkGraph): string[] {
  return [...sources.keys()].filter((t) => {
    const r = byUrl.get(t);
    return r !== undefined && r.skipped === "" && r.redirects.length > 0;
  });
}

/** Sitemap URLs no crawled page links to (the home page is never an orphan). */
function orphansOf({ input, byUrl }: CrawlIndex, { sources }: LinkGraph): Orphan[] {
  const home = input.pages.find((p) => p.depth === 0);
  const linked = (url: string) => sources.has(url) || (home !== undefined && (home.url === url || home.finalUrl === url));
  // Sitemap URLs that redirect or fail are not pages: they count as sitemap problems instead.
  return input.sitemapUrls
    .filter((u) => !linked(u) && (byUrl.get(u) === undefined || isPage(byUrl.get(u) as CrawledPage)))
    .map((u) => ({ url: u, status: byUrl.get(u)?.status ?? 0 }))
    .sort((a, b) => a.url.localeCompare(b.url));
}

/** Canonicals that point to what cannot be the indexed page. */
function canonicalProblems({ pages, byUrl }: CrawlIndex): CanonicalProblem[] {
  const canonicals: CanonicalProblem[] = [];
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
  return canonicals.sort((a, b) => a.url.localeCompare(b.url));
}

/** hreflang alternates (crawled pages) that do not link back. */
function hreflangMissingReturn({ pages, byUrl }: CrawlIndex): HreflangProblem[] {
  const hreflang: HreflangProblem[] = [];
  for (const p of pages) {
    for (const alt of p.hreflang) {
      if (alt.href === p.url || alt.href === p.finalUrl) continue;
      const other = byUrl.get(alt.href);
      if (!other || !isPage(other)) continue;
      const back = other.hreflang.some((a) => a.href === p.url || a.href === p.finalUrl);
      if (!back) hreflang.push({ url: p.url, alternate: alt.href, hreflang: alt.hreflang });
    }
  }
  return hreflang.sort((a, b) => a.url.localeCompare(b.url) || a.alternate.localeCompare(b.alternate));
}

/** Duplicates among indexable pages, and URL variants among all pages. */
function findDuplicates({ pages, indexable }: CrawlIndex): Duplicates {
  return {
    titles: duplicateGroups(indexable, (p) => p.title, normaliseText),
    descriptions: duplicateGroups(indexable, (p) => p.description, normaliseText),
    content: duplicateGroups(indexable, (p) => (p.words > 0 ? p.contentHash : ""), (s) => s),
    near: nearDuplicateClusters(indexable),
    variants: groupVariants(pages),
  };
}

function clickDepths(pages: readonly CrawledPage[]): Depths {
  const histogram = new Map<number, number>();
  let max = 0;
  for (const p of pages) {
    histogram.set(p.depth, (histogram.get(p.depth) ?? 0) + 1);
    if (p.depth > max) max = p.depth;
  }
  const deep = pages.filter((p) => p.depth > DEEP).sort((a, b) => b.depth - a.depth || a.url.localeCompare(b.url));
  return { histogram, max, deep };
}

function sitemapConsistency({ input, byUrl, indexable, sitemapSet }: CrawlIndex): SitemapConsistency {
  const bad = input.sitemapUrls
    .map((u) => ({ u, p: byUrl.get(u) }))
    .filter((x): x is { u: string; p: CrawledPage } => x.p !== undefined && x.p.skipped === "")
    .map(({ u, p }) => ({ url: u, problem: p.redirects.length > 0 ? `redirects to ${p.finalUrl}` : p.status !== 200 ? `answers ${p.status || p.error}` : p.noindex ? "noindex" : "" }))
    .filter((x) => x.problem !== "")
    .sort((a, b) => a.url.localeCompare(b.url));
  const notInSitemap = sitemapSet.size === 0 ? [] : indexable.filter((p) => !sitemapSet.has(p.url) && !sitemapSet.has(p.finalUrl)).sort((a, b) => a.url.localeCompare(b.url));
  return { bad, notInSitemap };
}

/** Internal link rank: every URL's inlinks and score, and the 100 best pages. */
function rankPages({ input, pages, byUrl }: CrawlIndex, { sources }: LinkGraph): Ranks {
  const scores = linkRank(pages, byUrl);
  const score = (url: string) => Number((scores.get(url) ?? 0).toFixed(2));
  const inlinks = (url: string) => sources.get(url)?.size ?? 0;
  const pageStats: PageLinkStats[] = input.pages.map((p) => ({ url: p.url, inlinks: inlinks(p.url), score: score(p.url) }));
  const topPages = pages
    .map((p) => ({ url: p.url, score: score(p.url), inlinks: inlinks(p.url), depth: p.depth }))
    .sort((a, b) => b.score - a.score || b.inlinks - a.inlinks || a.url.localeCompare(b.url))
    .slice(0, 100);
  return { pageStats, topPages };
}

function crawlFindings({ input, byUrl, fetched, pages, sitemapSet }: CrawlIndex, { problems, duplicates, depths, sitemap }: CrawlResults): CrawlFindings {
  const { broken, orphans, chains, redirectedTargets, canonicals, hreflang } = problems;
  const { titles, descriptions, content, near, variants } = duplicates;
  const pagesInGroups = (groups: readonly DuplicateGroup[]) => groups.reduce((n, g) => n + g.urls.length, 0);
  const groupSamples = (groups: readonly DuplicateGroup[], what: string) =>
    sample(groups.flatMap((g) => g.urls.map((url) => ({ url, detail: `${what} shared with ${g.urls.length - 1} other page${g.urls.length > 2 ? "s" : ""}: "${g.key.slice(0, 80)}"` }))));
  return CrawlFindings.fromPartial({
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
    redirected: sample([...redirectedTargets].sort().map((t) => ({ url: t, detail: `redirects to ${byUrl.get(t)?.finalUrl ?? ""}` }))),
    canonicalBad: canonicals.length,
    canonical: sample(canonicals.map((c) => ({ url: c.url, detail: `canonical ${c.target}: ${c.problem}` }))),
    hreflangMissingReturn: hreflang.length,
    hreflang: sample(hreflang.map((h) => ({ url: h.url, detail: `${h.hreflang} alternate ${h.alternate} does not link back` }))),
    duplicateTitles: pagesInGroups(titles),
    duplicateTitle: groupSamples(titles, "title"),
    duplicateDescriptions: pagesInGroups(descriptions),
    duplicateDescription: groupSamples(descriptions, "description"),
    duplicateContent: pagesInGroups(content),
    duplicate: sample(content.flatMap((g) => g.urls.map((url) => ({ url, detail: `same text as ${g.urls.filter((u) => u !== url)[0] ?? ""}` })))),
    nearDuplicates: near.pages,
    nearDuplicate: sample(nearSamples(near.clusters)),
    deepPages: depths.deep.length,
    deep: sample(depths.deep.map((p) => ({ url: p.url, detail: `${p.depth} clicks from the home page` }))),
    maxDepth: depths.max,
    sitemapBad: sitemap.bad.length,
    sitemap: sample(sitemap.bad.map((s) => ({ url: s.url, detail: s.problem }))),
    notInSitemap: sitemap.notInSitemap.length,
    missingFromSitemap: sample(sitemap.notInSitemap.map((p) => ({ url: p.url, detail: "indexable, not in the sitemaps" }))),
    urlVariants: variants.reduce((n, g) => n + g.urls.length - 1, 0),
    urlVariant: sample(variants.flatMap((g) => g.urls.slice(1).map((url) => ({ url, detail: `same page as ${g.urls[0] ?? ""}` })))),
    sitemapListed: sitemapSet.size > 0,
  });
}

function crawlReport({ input, fetched, pages, indexable }: CrawlIndex, { graph, problems, duplicates, depths, ranks, external }: CrawlResults): CrawlReport {
  const { sources } = graph;
  return {
    summary: {
      pages: pages.length,
      urls: fetched.length,
      known: input.pages.length,
      statuses: statusClasses(fetched),
      skipped: skippedCounts(input.pages),
      indexable: indexable.length,
      noindex: pages.filter((p) => p.noindex).length,
      words_avg: pages.length > 0 ? Math.round(pages.reduce((n, p) => n + p.words, 0) / pages.length) : 0,
      broken_links: problems.broken.length,
      orphans: problems.orphans.length,
      redirects: problems.redirects.length,
      redirect_chains: problems.chains.length,
      duplicate_titles: duplicates.titles.length,
      duplicate_content: duplicates.content.length,
      near_duplicates: duplicates.near.pairCount,
      near_duplicate_clusters: duplicates.near.clusters.length,
      near_duplicate_pages: duplicates.near.pages,
      near_pairs_exact: duplicates.near.pairsExact,
      max_depth: depths.max,
      truncated_by: input.truncatedBy || null,
      traps: input.traps,
      politeness: { delay_ms: input.politeness.delayMs, connections: input.politeness.connections, throttled: input.politeness.throttled, retry_after_wait_s: input.politeness.retryAfterWaitS },
      duration_ms: input.durationMs,
    },
    graph: {
      nodes: pages.length,
      edges: graph.edges,
      depth: [...depths.histogram.entries()].sort(([a], [b]) => a - b).map(([depth, n]) => ({ depth, pages: n })),
      inlinks_avg: pages.length > 0 ? Number((pages.reduce((n, p) => n + (sources.get(p.url)?.size ?? 0), 0) / pages.length).toFixed(1)) : 0,
      no_inlinks: pages.filter((p) => p.depth > 0 && !sources.has(p.url) && !sources.has(p.finalUrl)).length,
    },
    links: {
      orphans: problems.orphans,
      broken: problems.broken,
      duplicates: {
        titles: duplicates.titles.map((g) => ({ title: g.key, urls: g.urls })),
        descriptions: duplicates.descriptions.map((g) => ({ description: g.key, urls: g.urls })),
        content: duplicates.content.map((g) => ({ hash: g.key, urls: g.urls })),
        near: duplicates.near.pairs,
        urls: duplicates.variants,
        clusters: duplicates.near.clusters,
      },
      top_pages: ranks.topPages,
      redirects: problems.redirects,
      canonicals: problems.canonicals,
      hreflang: problems.hreflang,
    },
    external,
  };
}

/** Each cluster's members but its representative, largest clusters first: what to merge or rewrite, and like what. */
function nearSamples(clusters: readonly NearCluster[]): CrawlSample[] {
  const out: CrawlSample[] = [];
  for (const c of clusters) {
    for (const url of c.urls) {
      if (out.length >= SAMPLES) return out;
      if (url === c.representative) continue;
      out.push({ url, detail: `near-duplicate cluster ${c.id} of ${c.size} pages (pairs at least ${Math.round(c.similarity * 100)} % alike), its representative ${c.representative}` });
    }
  }
  return out;
}

/** Fetched URLs per status class (2xx, 3xx, …, "error" for no answer). */
function statusClasses(fetched: readonly CrawledPage[]): Record<string, number> {
  const classes: Record<string, number> = {};
  for (const p of fetched) {
    const k = p.status === 0 ? "error" : `${Math.floor(p.status / 100)}xx`;
    classes[k] = (classes[k] ?? 0) + 1;
  }
  return classes;
}

/** Skipped URLs per reason (robots, trap). */
function skippedCounts(pages: readonly CrawledPage[]): Record<string, number> {
  const skipped: Record<string, number> = {};
  for (const p of pages) if (p.skipped) skipped[p.skipped] = (skipped[p.skipped] ?? 0) + 1;
  return skipped;
}
