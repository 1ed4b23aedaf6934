// The whole-site part of a crawl: what only the full link graph tells — broken links with their
// sources, orphans, redirect chains, canonical and hreflang targets, duplicates and near-duplicates,
// click depth, sitemap consistency, internal link rank and the external link summary. Pure: the
// crawler runs it (off the serving thread) over a table of every stored page's facts
// (crawl-table.ts): per-page figures in typed arrays, strings read in one streamed pass, so that
// what it holds grows with the URLs and links, not with every page's facts. The link graph is
// integer-indexed (compressed rows of URL table indexes): distinct sources are counted with a
// last-seen stamp per target, not a set of URLs per target.
import { CrawlFindings, type CrawlSample, type CrawledPage, type ExternalLinkCheck, type PageLinkStats } from "../proto/index.ts";
import { crawlFactsOf, type CrawlFacts } from "./crawl-facts.ts";
import { DuplicateCollector, groupVariantsOf, normaliseText, sharedHashes, type DuplicateGroup } from "./crawl-duplicates.ts";
import { nearClustersOfHashed, type NearCluster, type NearDuplicateResult } from "./near-clusters.ts";
import { ExternalTally, type ExternalSummary } from "./crawl-external.ts";
import { rankGraph } from "./link-rank.ts";
import { BROKEN, FETCHED, HAS_CONTENT, HAS_DESCRIPTION, HAS_EXTERNAL, HAS_SIMHASH, HAS_TITLE, INDEXABLE, LOOP, NOINDEX, PAGE, REDIRECTED, tableOfFacts, type FactsTable } from "./crawl-table.ts";

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

function sample(items: readonly CrawlSample[]): CrawlSample[] {
  return items.slice(0, SAMPLES);
}

/** The crawl's records sorted as the steps need them (record indexes into the table). */
interface CrawlIndex {
  readonly input: CrawlTableInput;
  readonly t: FactsTable;
  readonly urls: readonly string[];
  /** Records fetched (not skipped). */
  readonly fetched: Int32Array;
  /** Fetched records that are HTML pages answered 2xx themselves. */
  readonly pages: Int32Array;
  readonly indexable: Int32Array;
  readonly sitemapSet: ReadonlySet<string>;
  /** The URL table index of each sitemap URL, -1 for one the crawl never met. */
  readonly sitemapIds: ReadonlyMap<string, number>;
}

/** The crawl as the analysis reads it at any size: its facts as a table (crawl-table.ts). */
export interface CrawlTableInput extends Omit<CrawlInput, "pages"> {
  readonly table: FactsTable;
}

/**
 * The internal link graph as the steps need it: for each URL (table index) the number of distinct
 * crawled pages linking to it (a redirect's target counts its sources too), and for broken URLs
 * only, which pages those are (compressed rows of indexes into `pages`): the sources of every
 * URL would take as much memory as the links themselves.
 */
interface LinkGraph {
  readonly inlinks: Int32Array;
  /** The sources of broken URL t: pages[sources[offsets[slot[t]]] … sources[offsets[slot[t] + 1]]) (slot -1: none kept). */
  readonly slot: Int32Array;
  readonly offsets: Int32Array;
  readonly sources: Int32Array;
  /** Links between pages, self-links aside. */
  readonly edges: number;
}

/** Distinct pages linking to the URL (by table index; -1 or unknown: none). */
function inlinksOf(graph: LinkGraph, id: number): number {
  return id < 0 || id >= graph.inlinks.length ? 0 : (graph.inlinks[id] as number);
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
  /** Linked URLs that redirect, with where they end, by URL. */
  readonly redirectedTargets: { url: string; final: string }[];
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
  /** The first SAMPLES of them, deepest first (records). */
  readonly deep: number[];
}

interface SitemapConsistency {
  /** Sitemap URLs that redirect, fail or are noindex. */
  readonly bad: { url: string; problem: string }[];
  /** Indexable pages the sitemaps do not list (none when there is no sitemap). */
  readonly notInSitemap: number;
  /** The first SAMPLES of them by URL (records). */
  readonly notInSitemapFirst: number[];
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

/** The whole-site analysis of a crawl given its pages all at once (see analyzeCrawlTable). */
export function analyzeCrawl(input: CrawlInput): CrawlAnalysis {
  const { pages, ...rest } = input;
  return analyzeCrawlFacts({ ...rest, facts: crawlFactsOf(pages) });
}

/** The whole-site analysis of a crawl's compact facts held in memory (see analyzeCrawlTable). */
export function analyzeCrawlFacts(input: CrawlFactsInput): CrawlAnalysis {
  const { facts, ...rest } = input;
  return analyzeCrawlTable({ ...rest, table: tableOfFacts(facts) });
}

/**
 * The whole-site analysis of a crawl: its findings, its report and each URL's link stats. Reads
 * the table's columns, and its strings in one streamed pass (duplicates' texts, redirect hops,
 * external links) when any are needed.
 */
export function analyzeCrawlTable(input: CrawlTableInput): CrawlAnalysis {
  const crawl = indexCrawl(input);
  const graph = linkGraph(crawl);
  const streamed = streamedSteps(crawl);
  const redirects = streamed.redirects;
  const duplicates = { ...streamed.duplicates, near: nearDuplicates(crawl), variants: groupVariantsOf(crawl.pages.length, (i) => urlOf(crawl, crawl.pages[i] as number)) };
  const results: CrawlResults = {
    graph,
    problems: {
      broken: brokenLinks(crawl, graph),
      redirects,
      chains: redirects.filter((r) => r.loop || r.chain.length >= 2),
      redirectedTargets: redirectedTargets(crawl, graph),
      orphans: orphansOf(crawl, graph),
      canonicals: canonicalProblems(crawl),
      hreflang: hreflangMissingReturn(crawl),
    },
    duplicates,
    depths: clickDepths(crawl),
    sitemap: sitemapConsistency(crawl, copiesOf(duplicates)),
    ranks: rankPages(crawl, graph),
    external: streamed.external,
  };
  return { findings: crawlFindings(crawl, results), report: crawlReport(crawl, results), pageStats: results.ranks.pageStats };
}

/** Pages that repeat another's text, exactly or nearly (every member of a group but the first or representative). */
function copiesOf({ content, near }: { content: readonly DuplicateGroup[]; near: NearDuplicateResult }): Set<string> {
  const copies = new Set<string>();
  for (const g of content) for (const url of g.urls.slice(1)) copies.add(url);
  for (const c of near.clusters) for (const url of c.urls.slice(1)) copies.add(url);
  return copies;
}

function urlOf({ urls, t }: CrawlIndex, r: number): string {
  return urls[t.id[r] as number] as string;
}

function finalUrlOf({ urls, t }: CrawlIndex, r: number): string {
  const f = t.finalId[r] as number;
  return f >= 0 ? (urls[f] as string) : "";
}

function has({ t }: CrawlIndex, r: number, flag: number): boolean {
  return ((t.flags[r] as number) & flag) !== 0;
}

/** Records whose flags include every one of `flags`. */
function recordsWith(t: FactsTable, flags: number): Int32Array {
  let n = 0;
  for (let r = 0; r < t.size; r++) if (((t.flags[r] as number) & flags) === flags) n += 1;
  const out = new Int32Array(n);
  for (let r = 0, k = 0; r < t.size; r++) if (((t.flags[r] as number) & flags) === flags) out[k++] = r;
  return out;
}

function indexCrawl(input: CrawlTableInput): CrawlIndex {
  const t = input.table;
  const sitemapIds = new Map<string, number>();
  for (const u of input.sitemapUrls) sitemapIds.set(u, -1);
  if (sitemapIds.size > 0) for (let i = 0; i < t.urls.length; i++) if (sitemapIds.has(t.urls[i] as string)) sitemapIds.set(t.urls[i] as string, i);
  return {
    input,
    t,
    urls: t.urls,
    fetched: recordsWith(t, FETCHED),
    pages: recordsWith(t, PAGE),
    indexable: recordsWith(t, INDEXABLE),
    sitemapSet: new Set(input.sitemapUrls),
    sitemapIds,
  };
}

/** The record of a sitemap URL, -1 when the crawl did not store it. */
function sitemapRecord({ t, sitemapIds }: CrawlIndex, url: string): number {
  const id = sitemapIds.get(url) ?? -1;
  return id < 0 ? -1 : (t.recordOf[id] as number);
}

/**
 * Two passes over the pages' links: count each target's distinct sources (a stamp per target
 * says which page counted it last), then list the sources of the broken targets. A link to a
 * crawled redirect counts for its final URL too.
 */
function linkGraph(crawl: CrawlIndex): LinkGraph {
  const { pages, urls, t } = crawl;
  const n = urls.length;
  const stamp = new Int32Array(n).fill(-1);
  const inlinks = new Int32Array(n);
  const { linkFrom, linkCount, linkData, recordOf, finalId, id } = t;
  let edges = 0;
  const visit = (fill: ((target: number, source: number) => void) | null) => {
    stamp.fill(-1);
    const count = (x: number, s: number) => {
      if (stamp[x] === s) return;
      stamp[x] = s;
      if (fill) fill(x, s);
      else inlinks[x] = (inlinks[x] as number) + 1;
    };
    for (let s = 0; s < pages.length; s++) {
      const p = pages[s] as number;
      const self = id[p] as number;
      for (let k = linkFrom[p] as number, end = k + (linkCount[p] as number); k < end; k++) {
        const target = linkData[k] as number;
        if (target === self) continue;
        if (!fill) edges += 1;
        count(target, s);
        const r = recordOf[target] as number;
        const f = r >= 0 ? (finalId[r] as number) : -1;
        if (f >= 0 && f !== target) count(f, s);
      }
    }
  };
  visit(null);
  const slot = new Int32Array(n).fill(-1);
  const rows = [0];
  for (let x = 0; x < n; x++) {
    const r = recordOf[x] as number;
    if ((inlinks[x] as number) === 0 || r < 0 || !has(crawl, r, BROKEN)) continue;
    slot[x] = rows.length - 1;
    rows.push((rows[rows.length - 1] as number) + (inlinks[x] as number));
  }
  const offsets = Int32Array.from(rows);
  const sources = new Int32Array(offsets[offsets.length - 1] as number);
  if (sources.length > 0) {
    const cursor = offsets.slice(0, offsets.length - 1);
    visit((target, s) => {
      const k = slot[target] as number;
      if (k < 0) return;
      sources[cursor[k] as number] = s;
      cursor[k] = (cursor[k] as number) + 1;
    });
  }
  return { inlinks, slot, offsets, sources, edges };
}

/** Broken internal links, with their sources; most linked first. */
function brokenLinks(crawl: CrawlIndex, graph: LinkGraph): BrokenLink[] {
  const { pages, urls, t } = crawl;
  const broken: BrokenLink[] = [];
  for (let id = 0; id < urls.length; id++) {
    const links = inlinksOf(graph, id);
    const r = t.recordOf[id] as number;
    if (links === 0 || r < 0 || !has(crawl, r, BROKEN)) continue;
    const sources: string[] = [];
    const k0 = graph.slot[id] as number;
    for (let k = graph.offsets[k0] as number; k < (graph.offsets[k0 + 1] as number); k++) sources.push(urlOf(crawl, pages[graph.sources[k] as number] as number));
    broken.push({ url: urlOf(crawl, r), status: t.status[r] as number, error: t.errors[t.error[r] as number] as string, sources: sources.sort(), links });
  }
  return broken.sort((a, b) => b.links - a.links || a.url.localeCompare(b.url));
}

/** What one streamed pass over the pages' strings finds: exact duplicates, redirect chains, the external links. */
interface Streamed {
  readonly duplicates: Pick<Duplicates, "titles" | "descriptions" | "content">;
  readonly redirects: Redirect[];
  readonly external: ExternalSummary;
}

/**
 * The steps that read strings, in one pass over the table's rows (a facts file is read again,
 * a chunk at a time), skipped when none needs it. Duplicates are found in two passes: the
 * table's 32-bit hashes of each indexable page's texts say which hashes repeat, and only the
 * pages with a repeated hash have their texts grouped here.
 */
function streamedSteps(crawl: CrawlIndex): Streamed {
  const { t, indexable, input } = crawl;
  const n = t.size;
  const repeated = (hashes: Uint32Array, flag: number) => {
    const present = new Uint8Array(n);
    for (const r of indexable) if (has(crawl, r, flag)) present[r] = 1;
    const shared = sharedHashes(hashes, present);
    if (shared.size === 0) return null;
    const want = new Uint8Array(n);
    for (let r = 0; r < n; r++) if (present[r] === 1 && shared.has(hashes[r] as number)) want[r] = 1;
    return want;
  };
  const wantTitle = repeated(t.titleHash, HAS_TITLE);
  const wantDescription = repeated(t.descriptionHash, HAS_DESCRIPTION);
  const wantContent = repeated(t.contentHash, HAS_CONTENT);
  const titles = new DuplicateCollector(normaliseText);
  const descriptions = new DuplicateCollector(normaliseText);
  const content = new DuplicateCollector((s) => s);
  const redirected = (r: number) => has(crawl, r, FETCHED) && (has(crawl, r, REDIRECTED) || t.errors[t.error[r] as number] === "too_many_redirects");
  // Its counts do not depend on the order pages come in (each page comes once).
  const external = new ExternalTally(input.external);
  let wanted = wantTitle !== null || wantDescription !== null || wantContent !== null;
  for (let r = 0; r < n && !wanted; r++) wanted = redirected(r) || (has(crawl, r, PAGE) && has(crawl, r, HAS_EXTERNAL));
  const redirects: Redirect[] = [];
  if (wanted) {
    t.scan((r, s) => {
      if (wantTitle?.[r] === 1) titles.add(r, urlOf(crawl, r), s.title);
      if (wantDescription?.[r] === 1) descriptions.add(r, urlOf(crawl, r), s.description);
      if (wantContent?.[r] === 1) content.add(r, urlOf(crawl, r), s.contentHash);
      if (redirected(r)) {
        redirects.push({ url: urlOf(crawl, r), chain: s.redirects.map((h) => h.location), final: finalUrlOf(crawl, r), status: t.status[r] as number, loop: has(crawl, r, LOOP) });
      }
      if (has(crawl, r, PAGE) && s.externalLinks.length > 0) external.add(s.externalLinks);
    });
  }
  return {
    duplicates: { titles: titles.groups(), descriptions: descriptions.groups(), content: content.groups() },
    redirects: redirects.sort((a, b) => a.url.localeCompare(b.url)),
    external: external.summary(),
  };
}

/** Linked URLs that redirect (a link that should point at the target). */
function redirectedTargets(crawl: CrawlIndex, graph: LinkGraph): { url: string; final: string }[] {
  const { urls, t } = crawl;
  const out: { url: string; final: string }[] = [];
  for (let id = 0; id < urls.length; id++) {
    const r = t.recordOf[id] as number;
    if (r >= 0 && inlinksOf(graph, id) > 0 && has(crawl, r, FETCHED) && has(crawl, r, REDIRECTED)) out.push({ url: urlOf(crawl, r), final: finalUrlOf(crawl, r) });
  }
  return out;
}

/**
 * Sitemap URLs the home page's links do not lead to (the home page is never an orphan): no page
 * reached from the home page links to them. A section only the sitemap leads to is orphaned as a
 * whole, though its pages link to each other (WordPress's author archive and its pagination).
 */
function orphansOf(crawl: CrawlIndex, graph: LinkGraph): Orphan[] {
  const { input, t } = crawl;
  let home = -1;
  for (let r = 0; r < t.size && home < 0; r++) if (t.depth[r] === 0) home = r;
  const homeUrl = home >= 0 ? urlOf(crawl, home) : undefined;
  const homeFinal = home >= 0 ? finalUrlOf(crawl, home) : undefined;
  const reached = reachedFromHome(crawl);
  const linked = (url: string) => {
    const id = crawl.sitemapIds.get(url) ?? -1;
    if (id < 0) return inlinksOf(graph, id) > 0 || url === homeUrl || url === homeFinal;
    const r = t.recordOf[id] as number;
    return reached[id] === 1 || (r >= 0 && (t.depth[r] as number) >= 0) || url === homeUrl || url === homeFinal;
  };
  // Sitemap URLs that redirect or fail are not pages: they count as sitemap problems instead.
  return input.sitemapUrls
    .filter((u) => {
      if (linked(u)) return false;
      const r = sitemapRecord(crawl, u);
      return r < 0 || has(crawl, r, PAGE);
    })
    .map((u) => {
      const r = sitemapRecord(crawl, u);
      return { url: u, status: r >= 0 ? (t.status[r] as number) : 0 };
    })
    .sort((a, b) => a.url.localeCompare(b.url));
}

/** 1 for every URL a page reached by links from the home page (depth ≥ 0) links to, or redirects there. */
function reachedFromHome({ pages, t, urls }: CrawlIndex): Uint8Array {
  const reached = new Uint8Array(urls.length);
  const { linkFrom, linkCount, linkData, recordOf, finalId } = t;
  for (const p of pages) {
    if ((t.depth[p] as number) < 0) continue;
    for (let k = linkFrom[p] as number, end = k + (linkCount[p] as number); k < end; k++) {
      const target = linkData[k] as number;
      reached[target] = 1;
      const r = recordOf[target] as number;
      if (r >= 0 && (finalId[r] as number) >= 0) reached[finalId[r] as number] = 1;
    }
  }
  return reached;
}

/** Canonicals that point to what cannot be the indexed page. */
function canonicalProblems(crawl: CrawlIndex): CanonicalProblem[] {
  const { pages, t, urls } = crawl;
  const canonicals: CanonicalProblem[] = [];
  for (const r of pages) {
    const c = t.canonical[r] as number;
    if (c < 0 || c === t.finalId[r] || c === t.id[r]) continue;
    const canonical = urls[c] as string;
    let problem = "";
    const target = t.recordOf[c] as number;
    if (new URL(canonical).host !== new URL(finalUrlOf(crawl, r) || urlOf(crawl, r)).host) problem = "other host";
    else if (target < 0) continue; // not crawled: nothing known about it
    else if (has(crawl, target, REDIRECTED)) problem = `redirects to ${finalUrlOf(crawl, target)}`;
    else if (t.status[target] !== 200) problem = t.status[target] === 0 ? `no answer (${t.errors[t.error[target] as number] as string})` : `answers ${t.status[target] as number}`;
    else if (has(crawl, target, NOINDEX)) problem = "target is noindex";
    if (problem) canonicals.push({ url: urlOf(crawl, r), target: canonical, problem });
  }
  return canonicals.sort((a, b) => a.url.localeCompare(b.url));
}

/** hreflang alternates (crawled pages) that do not link back. */
function hreflangMissingReturn(crawl: CrawlIndex): HreflangProblem[] {
  const { pages, t, urls } = crawl;
  const { hrefFrom, hrefCount, hrefData, hrefLang } = t;
  const hreflang: HreflangProblem[] = [];
  for (const r of pages) {
    const self = t.id[r] as number;
    const final = t.finalId[r] as number;
    for (let k = hrefFrom[r] as number, end = k + (hrefCount[r] as number); k < end; k++) {
      const href = hrefData[k] as number;
      if (href === self || href === final) continue;
      const other = href >= 0 ? (t.recordOf[href] as number) : -1;
      if (other < 0 || !has(crawl, other, PAGE)) continue;
      let back = false;
      for (let j = hrefFrom[other] as number, e = j + (hrefCount[other] as number); j < e && !back; j++) back = hrefData[j] === self || (final >= 0 && hrefData[j] === final);
      if (!back) hreflang.push({ url: urlOf(crawl, r), alternate: urls[href] as string, hreflang: t.langs[hrefLang[k] as number] as string });
    }
  }
  return hreflang.sort((a, b) => a.url.localeCompare(b.url) || a.alternate.localeCompare(b.alternate));
}

/** Near-duplicate texts among indexable pages (near-clusters.ts), from the table's SimHash columns. */
function nearDuplicates(crawl: CrawlIndex): NearDuplicateResult {
  const { indexable, t } = crawl;
  return nearClustersOfHashed(
    (function* () {
      for (const r of indexable) {
        if (has(crawl, r, HAS_SIMHASH)) yield { url: urlOf(crawl, r), hi: t.simHi[r] as number, lo: t.simLo[r] as number, content: t.contentKey[r] as number };
      }
    })(),
  );
}

function clickDepths(crawl: CrawlIndex): Depths {
  const { pages, t } = crawl;
  const histogram = new Map<number, number>();
  let max = 0;
  const deep: number[] = [];
  for (const r of pages) {
    const depth = t.depth[r] as number;
    histogram.set(depth, (histogram.get(depth) ?? 0) + 1);
    if (depth > max) max = depth;
    if (depth > DEEP) deep.push(r);
  }
  return { histogram, max, deepPages: deep.length, deep: firstSorted(deep, SAMPLES, (a, b) => (t.depth[b] as number) - (t.depth[a] as number) || urlOf(crawl, a).localeCompare(urlOf(crawl, b))) };
}

/**
 * Pages a CMS keeps out of its sitemap on purpose, and rightly: the further pages of a paginated
 * series (`/page/2/`, `?paged=2`, `?page=2`) and date archives (`/2023/`, `/2023/05/`), which list
 * what the sitemap lists already.
 */
const SERIES_PAGE = /\/page\/\d+\/?$/;
const SERIES_QUERY = /[?&](paged|page)=\d+(&|$)/;
const DATE_ARCHIVE = /^\/(\d{4})(\/\d{1,2}){0,2}\/?$/;

function listingByDesign(url: string): boolean {
  const u = new URL(url);
  return SERIES_PAGE.test(u.pathname) || SERIES_QUERY.test(u.search) || DATE_ARCHIVE.test(u.pathname);
}

function sitemapConsistency(crawl: CrawlIndex, copies: ReadonlySet<string>): SitemapConsistency {
  const { input, indexable, sitemapSet, t } = crawl;
  const bad: { url: string; problem: string }[] = [];
  for (const u of input.sitemapUrls) {
    const r = sitemapRecord(crawl, u);
    if (r < 0 || !has(crawl, r, FETCHED)) continue;
    const status = t.status[r] as number;
    const problem = has(crawl, r, REDIRECTED) ? `redirects to ${finalUrlOf(crawl, r)}` : status !== 200 ? `answers ${status || (t.errors[t.error[r] as number] as string)}` : has(crawl, r, NOINDEX) ? "noindex" : "";
    if (problem !== "") bad.push({ url: u, problem });
  }
  bad.sort((a, b) => a.url.localeCompare(b.url));
  const notInSitemap: number[] = [];
  // Near-duplicates are left out too: the fix for a copy is a redirect, a canonical or noindex, not a listing.
  const missing = (r: number) => !sitemapSet.has(urlOf(crawl, r)) && !sitemapSet.has(finalUrlOf(crawl, r)) && !listingByDesign(urlOf(crawl, r)) && !copies.has(urlOf(crawl, r));
  if (sitemapSet.size > 0) for (const r of indexable) if (missing(r)) notInSitemap.push(r);
  return { bad, notInSitemap: notInSitemap.length, notInSitemapFirst: firstSorted(notInSitemap, SAMPLES, (a, b) => urlOf(crawl, a).localeCompare(urlOf(crawl, b))) };
}

/** Internal link rank: every URL's inlinks and score, and the 100 best pages. */
function rankPages(crawl: CrawlIndex, graph: LinkGraph): Ranks {
  const { pages, t } = crawl;
  const scores = rankGraph(pageGraph(crawl));
  /** Each record's score, rounded as reported (0 for what is not a page). */
  const score = new Float64Array(t.size);
  for (let i = 0; i < pages.length; i++) score[pages[i] as number] = Number((scores[i] as number).toFixed(2));
  const pageStats: PageLinkStats[] = new Array<PageLinkStats>(t.size);
  for (let r = 0; r < t.size; r++) pageStats[r] = { url: urlOf(crawl, r), inlinks: inlinksOf(graph, t.id[r] as number), score: score[r] as number };
  const inlinks = (r: number) => inlinksOf(graph, t.id[r] as number);
  const best = firstSorted(pages, 100, (a, b) => (score[b] as number) - (score[a] as number) || inlinks(b) - inlinks(a) || urlOf(crawl, a).localeCompare(urlOf(crawl, b)));
  const topPages = best.map((r) => ({ url: urlOf(crawl, r), score: score[r] as number, inlinks: inlinks(r), depth: t.depth[r] as number }));
  return { pageStats, topPages };
}

/** Links between pages as indexes into `pages` (a link to a redirect counts for its target), distinct, in first-link order. */
function pageGraph({ pages, t, urls }: CrawlIndex) {
  const { linkFrom, linkCount, linkData, recordOf, finalId } = t;
  const index = new Int32Array(urls.length).fill(-1);
  for (let i = 0; i < pages.length; i++) index[t.id[pages[i] as number] as number] = i;
  const resolve = (target: number): number => {
    if ((index[target] as number) >= 0) return index[target] as number;
    const r = recordOf[target] as number;
    return r >= 0 && (finalId[r] as number) >= 0 ? (index[finalId[r] as number] as number) : -1;
  };
  const offsets = new Int32Array(pages.length + 1);
  let total = 0;
  for (const r of pages) total += linkCount[r] as number;
  const targets = new Int32Array(total);
  const stamp = new Int32Array(pages.length).fill(-1);
  let k = 0;
  for (let i = 0; i < pages.length; i++) {
    const r = pages[i] as number;
    for (let j = linkFrom[r] as number, end = j + (linkCount[r] as number); j < end; j++) {
      const to = resolve(linkData[j] as number);
      if (to < 0 || stamp[to] === i) continue;
      stamp[to] = i;
      targets[k++] = to;
    }
    offsets[i + 1] = k;
  }
  return { n: pages.length, offsets, targets: targets.subarray(0, k) };
}

function crawlFindings(crawl: CrawlIndex, { problems, duplicates, depths, sitemap, external }: CrawlResults): CrawlFindings {
  const { input, fetched, pages, sitemapSet, t } = crawl;
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
    orphan: sample(orphans.map((o) => ({ url: o.url, detail: "listed in the sitemap, not reached by links from the home page" }))),
    redirectChains: chains.length,
    redirectLoops: chains.filter((c) => c.loop).length,
    redirectChain: sample(chains.map((c) => ({ url: c.url, detail: c.loop ? "redirect loop" : `${c.chain.length} hops: ${[c.url, ...c.chain].join(" → ")}` }))),
    redirectedLinks: redirectedTargets.length,
    redirected: sample([...redirectedTargets].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)).map((r) => ({ url: r.url, detail: `redirects to ${r.final}` }))),
    canonicalBad: canonicals.length,
    canonicalDeclared: pages.reduce((n, r) => n + ((t.canonical[r] as number) >= 0 ? 1 : 0), 0),
    externalChecked: external.links.filter((l) => l.state !== "unchecked").length,
    brokenExternal: external.links.filter((l) => l.state === "broken").length,
    externalBroken: sample(
      external.links.filter((l) => l.state === "broken").map((l) => ({ url: l.url, detail: `${l.status || l.error}, linked from ${l.sources} page${l.sources > 1 ? "s" : ""}` })),
    ),
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
    deep: sample(depths.deep.map((r) => ({ url: urlOf(crawl, r), detail: `${t.depth[r] as number} clicks from the home page` }))),
    maxDepth: depths.max,
    sitemapBad: sitemap.bad.length,
    sitemap: sample(sitemap.bad.map((s) => ({ url: s.url, detail: s.problem }))),
    notInSitemap: sitemap.notInSitemap,
    missingFromSitemap: sample(sitemap.notInSitemapFirst.map((r) => ({ url: urlOf(crawl, r), detail: "indexable, not in the sitemaps" }))),
    urlVariants: variants.reduce((n, g) => n + g.urls.length - 1, 0),
    urlVariant: sample(variants.flatMap((g) => g.urls.slice(1).map((url) => ({ url, detail: `same page as ${g.urls[0] ?? ""}` })))),
    sitemapListed: sitemapSet.size > 0,
  });
}

function crawlReport(crawl: CrawlIndex, { graph, problems, duplicates, depths, ranks, external }: CrawlResults): CrawlReport {
  const { input, t, fetched, pages, indexable } = crawl;
  let words = 0;
  let noindex = 0;
  let inlinks = 0;
  let noInlinks = 0;
  for (const r of pages) {
    words += t.words[r] as number;
    if (has(crawl, r, NOINDEX)) noindex += 1;
    const linked = inlinksOf(graph, t.id[r] as number);
    inlinks += linked;
    if ((t.depth[r] as number) > 0 && linked === 0 && inlinksOf(graph, t.finalId[r] as number) === 0) noInlinks += 1;
  }
  return {
    summary: {
      pages: pages.length,
      urls: fetched.length,
      known: t.size,
      statuses: statusClasses(t, fetched),
      skipped: skippedCounts(t),
      indexable: indexable.length,
      noindex,
      words_avg: pages.length > 0 ? Math.round(words / pages.length) : 0,
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
      inlinks_avg: pages.length > 0 ? Number((inlinks / pages.length).toFixed(1)) : 0,
      no_inlinks: noInlinks,
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
function statusClasses(t: FactsTable, fetched: Int32Array): Record<string, number> {
  const classes: Record<string, number> = {};
  for (const r of fetched) {
    const status = t.status[r] as number;
    const k = status === 0 ? "error" : `${Math.floor(status / 100)}xx`;
    classes[k] = (classes[k] ?? 0) + 1;
  }
  return classes;
}

/** Skipped URLs per reason (robots, trap). */
function skippedCounts(t: FactsTable): Record<string, number> {
  const skipped: Record<string, number> = {};
  for (let r = 0; r < t.size; r++) {
    const reason = t.skips[t.skipped[r] as number] as string;
    if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
  }
  return skipped;
}

/**
 * The first `k` of `items` in `order`, without sorting them all: a heap of the k best so far, its
 * root the worst of them; most items cost one comparison with the root.
 */
function firstSorted<T>(items: ArrayLike<T>, k: number, order: (a: T, b: T) => number): T[] {
  const heap: T[] = [];
  const worse = (i: number, j: number) => order(heap[i] as T, heap[j] as T) > 0;
  const swap = (i: number, j: number) => {
    const x = heap[i] as T;
    heap[i] = heap[j] as T;
    heap[j] = x;
  };
  for (let n = 0; n < items.length; n++) {
    const item = items[n] as T;
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
