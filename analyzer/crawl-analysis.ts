// The whole-site part of a crawl: what only the full link graph tells — broken links with their
// sources, orphans, redirect chains, canonical and hreflang targets, duplicates and near-duplicates,
// click depth, sitemap consistency, internal link rank and the external link summary. Pure: the
// crawler runs it (off the serving thread) over the compact facts (crawl-facts.ts) of every page
// it stored. The link graph is integer-indexed (compressed rows of URL table indexes): distinct
// sources are counted with a last-seen stamp per target, not a set of URLs per target.
import { CrawlFindings, type CrawlSample, type CrawledPage, type ExternalLinkCheck, type PageLinkStats } from "../proto/index.ts";
import { crawlFactsOf, type CrawlFacts, type PageFacts } from "./crawl-facts.ts";
import { duplicateGroups, groupVariants, normaliseText, type DuplicateGroup } from "./crawl-duplicates.ts";
import { nearDuplicateClusters, type NearCluster, type NearDuplicateResult } from "./near-clusters.ts";
import { externalSummary, type ExternalSummary } from "./crawl-external.ts";
import { rankGraph } from "./link-rank.ts";

/** The crawl as the analysis reads it: its pages' compact facts and what the crawl itself knows. */
export interface CrawlFactsInput extends Omit<CrawlInput, "pages"> {
  /** Every URL the crawl stored (fetched or skipped), keyed by its strict URL. */
  readonly facts: CrawlFacts;
}

export interface CrawlInput {
  readonly jobId: number;
  /** Unix seconds. */
  readonly crawledAt: number;
  /** Every URL the crawl stored (fetched or skipped), keyed by its strict URL. */
  readonly pages: readonly CrawledPage[];
  /** URLs the sitemaps list (strict keys, this site only). */
  readonly sitemapUrls: readonly string[];
  /** Why the crawl stopped early: "", page_limit, depth_limit, time_limit, trap, memory_limit. */
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
function isPage(p: PageFacts): boolean {
  return p.skipped === "" && p.isHtml && p.status >= 200 && p.status < 300 && p.redirects.length === 0;
}

function isIndexable(p: PageFacts): boolean {
  if (!isPage(p) || p.noindex) return false;
  return p.canonical === "" || p.canonical === p.finalUrl || p.canonical === p.url;
}

function isBroken(p: PageFacts): boolean {
  return p.skipped === "" && (p.status >= 400 || (p.status === 0 && p.error !== "" && p.error !== "too_many_redirects"));
}

function sample(items: readonly CrawlSample[]): CrawlSample[] {
  return items.slice(0, SAMPLES);
}

/** The crawl's URLs sorted as the steps need them. */
interface CrawlIndex {
  readonly input: CrawlFactsInput;
  /** Every stored URL's facts. */
  readonly all: readonly PageFacts[];
  readonly urls: readonly string[];
  readonly byUrl: ReadonlyMap<string, PageFacts>;
  /** Stored facts by URL table index (undefined for a URL only linked to). */
  readonly byId: readonly (PageFacts | undefined)[];
  /** URLs fetched (not skipped). */
  readonly fetched: readonly PageFacts[];
  /** Fetched URLs that are HTML pages answered 2xx themselves. */
  readonly pages: readonly PageFacts[];
  readonly indexable: readonly PageFacts[];
  readonly sitemapSet: ReadonlySet<string>;
}

/**
 * The internal link graph: for each URL (table index), the distinct crawled pages linking to it
 * (a redirect's target counts its sources too), as compressed rows of indexes into `pages`.
 */
interface LinkGraph {
  /** Sources of URL t: pages[sources[offsets[t]] … sources[offsets[t + 1]]). */
  readonly offsets: Int32Array;
  readonly sources: Int32Array;
  /** Links between pages, self-links aside. */
  readonly edges: number;
}

/** Distinct pages linking to the URL (by table index; -1 or unknown: none). */
function inlinksOf(graph: LinkGraph, id: number): number {
  return id < 0 || id + 1 >= graph.offsets.length ? 0 : (graph.offsets[id + 1] as number) - (graph.offsets[id] as number);
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
  /** Pages deeper than DEEP clicks. */
  readonly deepPages: number;
  /** The first SAMPLES of them, deepest first. */
  readonly deep: PageFacts[];
}

interface SitemapConsistency {
  /** Sitemap URLs that redirect, fail or are noindex. */
  readonly bad: { url: string; problem: string }[];
  /** Indexable pages the sitemaps do not list (none when there is no sitemap). */
  readonly notInSitemap: number;
  /** The first SAMPLES of them by URL. */
  readonly notInSitemapFirst: PageFacts[];
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

/** The whole-site analysis of a crawl given its pages all at once (see analyzeCrawlFacts). */
export function analyzeCrawl(input: CrawlInput): CrawlAnalysis {
  const { pages, ...rest } = input;
  return analyzeCrawlFacts({ ...rest, facts: crawlFactsOf(pages) });
}

/** The whole-site analysis of a crawl: its findings, its report and each URL's link stats. */
export function analyzeCrawlFacts(input: CrawlFactsInput): CrawlAnalysis {
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

function indexCrawl(input: CrawlFactsInput): CrawlIndex {
  const { urls, pages: all } = input.facts;
  const byId = new Array<PageFacts | undefined>(urls.length);
  const byUrl = new Map<string, PageFacts>();
  for (const p of all) {
    byId[p.id] = p;
    byUrl.set(p.url, p);
  }
  const fetched = all.filter((p) => p.skipped === "");
  const pages = fetched.filter(isPage);
  return { input, all, urls, byUrl, byId, fetched, pages, indexable: pages.filter(isIndexable), sitemapSet: new Set(input.sitemapUrls) };
}

/**
 * Two passes over the pages' links: count each target's distinct sources (a stamp per target
 * says which page counted it last), then fill the rows. A link to a crawled redirect counts for
 * its final URL too.
 */
function linkGraph({ pages, urls, byId }: CrawlIndex): LinkGraph {
  const n = urls.length;
  const stamp = new Int32Array(n).fill(-1);
  const counts = new Int32Array(n + 1);
  let edges = 0;
  const visit = (fill: ((target: number, source: number) => void) | null) => {
    stamp.fill(-1);
    for (let s = 0; s < pages.length; s++) {
      const p = pages[s] as PageFacts;
      for (const t of p.links) {
        if (t === p.id) continue;
        if (!fill) edges += 1;
        const targets = [t];
        const r = byId[t];
        if (r && r.finalUrl && r.finalId !== t) targets.push(r.finalId);
        for (const x of targets) {
          if (stamp[x] === s) continue;
          stamp[x] = s;
          if (fill) fill(x, s);
          else counts[x + 1] = (counts[x + 1] as number) + 1;
        }
      }
    }
  };
  visit(null);
  for (let i = 0; i < n; i++) counts[i + 1] = (counts[i + 1] as number) + (counts[i] as number);
  const offsets = counts;
  const sources = new Int32Array(offsets[n] as number);
  const cursor = offsets.slice(0, n);
  visit((t, s) => {
    sources[cursor[t] as number] = s;
    cursor[t] = (cursor[t] as number) + 1;
  });
  return { offsets, sources, edges };
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
function brokenLinks({ pages, urls, byId }: CrawlIndex, graph: LinkGraph): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (let t = 0; t < urls.length; t++) {
    const links = inlinksOf(graph, t);
    const p = byId[t];
    if (links === 0 || !p || !isBroken(p)) continue;
    const sources: string[] = [];
    for (let k = graph.offsets[t] as number; k < (graph.offsets[t + 1] as number); k++) sources.push((pages[graph.sources[k] as number] as PageFacts).url);
    broken.push({ url: p.url, status: p.status, error: p.error, sources: sources.sort(), links });
  }
  return broken.sort((a, b) => b.links - a.links || a.url.localeCompare(b.url));
}

function redirectsOf(fetched: readonly PageFacts[]): Redirect[] {
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
function redirectedTargets({ urls, byId }: CrawlIndex, graph: LinkGraph): string[] {
  const out: string[] = [];
  for (let t = 0; t < urls.length; t++) {
    const r = byId[t];
    if (r !== undefined && inlinksOf(graph, t) > 0 && r.skipped === "" && r.redirects.length > 0) out.push(r.url);
  }
  return out;
}

/** Sitemap URLs no crawled page links to (the home page is never an orphan). */
function orphansOf({ input, all, byUrl, urls }: CrawlIndex, graph: LinkGraph): Orphan[] {
  const home = all.find((p) => p.depth === 0);
  const ids = new Map<string, number>();
  for (const u of input.sitemapUrls) ids.set(u, -1);
  for (let i = 0; i < urls.length; i++) if (ids.has(urls[i] as string)) ids.set(urls[i] as string, i);
  const linked = (url: string) => inlinksOf(graph, ids.get(url) ?? -1) > 0 || (home !== undefined && (home.url === url || home.finalUrl === url));
  // Sitemap URLs that redirect or fail are not pages: they count as sitemap problems instead.
  return input.sitemapUrls
    .filter((u) => !linked(u) && (byUrl.get(u) === undefined || isPage(byUrl.get(u) as PageFacts)))
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

function clickDepths(pages: readonly PageFacts[]): Depths {
  const histogram = new Map<number, number>();
  let max = 0;
  for (const p of pages) {
    histogram.set(p.depth, (histogram.get(p.depth) ?? 0) + 1);
    if (p.depth > max) max = p.depth;
  }
  const deep = pages.filter((p) => p.depth > DEEP);
  return { histogram, max, deepPages: deep.length, deep: firstSorted(deep, SAMPLES, (a, b) => b.depth - a.depth || a.url.localeCompare(b.url)) };
}

function sitemapConsistency({ input, byUrl, indexable, sitemapSet }: CrawlIndex): SitemapConsistency {
  const bad = input.sitemapUrls
    .map((u) => ({ u, p: byUrl.get(u) }))
    .filter((x): x is { u: string; p: PageFacts } => x.p !== undefined && x.p.skipped === "")
    .map(({ u, p }) => ({ url: u, problem: p.redirects.length > 0 ? `redirects to ${p.finalUrl}` : p.status !== 200 ? `answers ${p.status || p.error}` : p.noindex ? "noindex" : "" }))
    .filter((x) => x.problem !== "")
    .sort((a, b) => a.url.localeCompare(b.url));
  const notInSitemap = sitemapSet.size === 0 ? [] : indexable.filter((p) => !sitemapSet.has(p.url) && !sitemapSet.has(p.finalUrl));
  return { bad, notInSitemap: notInSitemap.length, notInSitemapFirst: firstSorted(notInSitemap, SAMPLES, (a, b) => a.url.localeCompare(b.url)) };
}

/** Internal link rank: every URL's inlinks and score, and the 100 best pages. */
function rankPages({ all, pages, byId, urls }: CrawlIndex, graph: LinkGraph): Ranks {
  const scores = rankGraph(pageGraph(pages, byId, urls.length));
  const scoreById = new Float64Array(urls.length);
  for (let i = 0; i < pages.length; i++) scoreById[(pages[i] as PageFacts).id] = scores[i] as number;
  const score = (p: PageFacts) => Number((scoreById[p.id] as number).toFixed(2));
  const pageStats: PageLinkStats[] = all.map((p) => ({ url: p.url, inlinks: inlinksOf(graph, p.id), score: score(p) }));
  const topPages = firstSorted(
    pages.map((p) => ({ url: p.url, score: score(p), inlinks: inlinksOf(graph, p.id), depth: p.depth })),
    100,
    (a, b) => b.score - a.score || b.inlinks - a.inlinks || a.url.localeCompare(b.url),
  );
  return { pageStats, topPages };
}

/** Links between pages as indexes into `pages` (a link to a redirect counts for its target), distinct, in first-link order. */
function pageGraph(pages: readonly PageFacts[], byId: readonly (PageFacts | undefined)[], ids: number) {
  const index = new Int32Array(ids).fill(-1);
  for (let i = 0; i < pages.length; i++) index[(pages[i] as PageFacts).id] = i;
  const resolve = (t: number): number => {
    if ((index[t] as number) >= 0) return index[t] as number;
    const r = byId[t];
    return r && r.finalId >= 0 ? (index[r.finalId] as number) : -1;
  };
  const offsets = new Int32Array(pages.length + 1);
  let total = 0;
  for (const p of pages) total += p.links.length;
  const targets = new Int32Array(total);
  const stamp = new Int32Array(pages.length).fill(-1);
  let k = 0;
  for (let i = 0; i < pages.length; i++) {
    for (const link of (pages[i] as PageFacts).links) {
      const t = resolve(link);
      if (t < 0 || stamp[t] === i) continue;
      stamp[t] = i;
      targets[k++] = t;
    }
    offsets[i + 1] = k;
  }
  return { n: pages.length, offsets, targets: targets.subarray(0, k) };
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
    deepPages: depths.deepPages,
    deep: sample(depths.deep.map((p) => ({ url: p.url, detail: `${p.depth} clicks from the home page` }))),
    maxDepth: depths.max,
    sitemapBad: sitemap.bad.length,
    sitemap: sample(sitemap.bad.map((s) => ({ url: s.url, detail: s.problem }))),
    notInSitemap: sitemap.notInSitemap,
    missingFromSitemap: sample(sitemap.notInSitemapFirst.map((p) => ({ url: p.url, detail: "indexable, not in the sitemaps" }))),
    urlVariants: variants.reduce((n, g) => n + g.urls.length - 1, 0),
    urlVariant: sample(variants.flatMap((g) => g.urls.slice(1).map((url) => ({ url, detail: `same page as ${g.urls[0] ?? ""}` })))),
    sitemapListed: sitemapSet.size > 0,
  });
}

function crawlReport({ input, all, fetched, pages, indexable }: CrawlIndex, { graph, problems, duplicates, depths, ranks, external }: CrawlResults): CrawlReport {
  const ids = urlIds(pages);
  const linkedTo = (url: string) => inlinksOf(graph, ids.get(url) ?? -1) > 0;
  return {
    summary: {
      pages: pages.length,
      urls: fetched.length,
      known: all.length,
      statuses: statusClasses(fetched),
      skipped: skippedCounts(all),
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
      inlinks_avg: pages.length > 0 ? Number((pages.reduce((n, p) => n + inlinksOf(graph, p.id), 0) / pages.length).toFixed(1)) : 0,
      no_inlinks: pages.filter((p) => p.depth > 0 && !linkedTo(p.url) && !linkedTo(p.finalUrl)).length,
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
function statusClasses(fetched: readonly PageFacts[]): Record<string, number> {
  const classes: Record<string, number> = {};
  for (const p of fetched) {
    const k = p.status === 0 ? "error" : `${Math.floor(p.status / 100)}xx`;
    classes[k] = (classes[k] ?? 0) + 1;
  }
  return classes;
}

/** Skipped URLs per reason (robots, trap). */
/**
 * The first `k` of `items` in `order`, without sorting them all: a heap of the k best so far, its
 * root the worst of them; most items cost one comparison with the root.
 */
function firstSorted<T>(items: readonly T[], k: number, order: (a: T, b: T) => number): T[] {
  const heap: T[] = [];
  const worse = (i: number, j: number) => order(heap[i] as T, heap[j] as T) > 0;
  const swap = (i: number, j: number) => {
    const t = heap[i] as T;
    heap[i] = heap[j] as T;
    heap[j] = t;
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (k > 0 && order(item, heap[0] as T) < 0) {
      heap[0] = item;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let w = i;
        if (l < k && worse(l, w)) w = l;
        if (r < k && worse(r, w)) w = r;
        if (w === i) break;
        swap(i, w);
        i = w;
      }
    }
  }
  return heap.sort(order);
}

/** Table indexes of the pages' URLs and final URLs. */
function urlIds(pages: readonly PageFacts[]): Map<string, number> {
  const ids = new Map<string, number>();
  for (const p of pages) {
    ids.set(p.url, p.id);
    if (p.finalId >= 0) ids.set(p.finalUrl, p.finalId);
  }
  return ids;
}

function skippedCounts(pages: readonly PageFacts[]): Record<string, number> {
  const skipped: Record<string, number> = {};
  for (const p of pages) if (p.skipped) skipped[p.skipped] = (skipped[p.skipped] ?? 0) + 1;
  return skipped;
}
