// A whole-site crawl: breadth-first over the site's own links and sitemap URLs, robots.txt and
// Crawl-delay honoured, 429/503 turned into pauses (Retry-After) rather than failures, bounded by
// page, depth and time limits and by trap rules. Every fetched URL becomes a CrawledPage (parsed on
// the parse pool) and is handed to `store` in batches: the stored pages are the crawl's checkpoint,
// and a crawl given them back in `resume` continues where they end. Of a stored page the crawl
// keeps only its compact facts (analyzer/crawl-facts.ts) for the whole-crawl analysis.
import { performance } from "node:perf_hooks";
import { strictKey } from "../../analyzer/index.ts";
import type { CrawlFacts } from "../../analyzer/index.ts";
import type { CrawledPage, ExternalLinkCheck, PageIssueCount, RobotsFacts } from "../../proto/index.ts";
import type { SampledPage } from "../site/collect-facts.ts";
import { CrawlCheckpoint } from "./crawl-checkpoint.ts";
import type { SpilledFacts } from "./facts-file.ts";
import { Frontier, UNLINKED, type FrontierEntry } from "./crawl-frontier.ts";
import { crawledPage, crawledPageFrom, type PageInput } from "../page/crawled-page.ts";
import type { Egress } from "../fetch/egress.ts";
import { fetchUrl, responseHeader, type FetchResult } from "../fetch/fetch-page.ts";
import { HostLimiter } from "../fetch/host-limiter.ts";
import type { FetchMetrics } from "../fetch/fetch-metrics.ts";
import { ParseThreadCrashedError, type ParsePool } from "../page/parse-pool.ts";
import { crawlDelaySeconds, ROBOTS_MAX_BYTES, robotsFacts } from "../site/robots.ts";
import { collectSitemaps, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from "../site/sitemaps.ts";

export interface CrawlLimits {
  /** URLs fetched at most (pages, redirects, errors and files alike). */
  readonly maxPages: number;
  /** Link hops from the home page. */
  readonly maxDepth: number;
  readonly maxDurationMs: number;
  /** URLs sharing one pattern (path with numbers collapsed, parameter names) beyond which the rest are a trap. */
  readonly maxPerPattern: number;
  readonly maxUrlLength: number;
  readonly maxQueryParameters: number;
  /** A path segment repeated this many times marks a trap (/a/b/a/b/a/…). */
  readonly maxSegmentRepeats: number;
  /** What the crawl keeps of its pages for the analysis (CrawlFactsBuilder.bytes), at most: the memory budget. */
  readonly maxFactsBytes: number;
}

export const DEFAULT_CRAWL_LIMITS: CrawlLimits = Object.freeze({
  maxPages: 500,
  maxDepth: 10,
  maxDurationMs: 30 * 60_000,
  maxPerPattern: 100,
  maxUrlLength: 2000,
  maxQueryParameters: 10,
  maxSegmentRepeats: 3,
  maxFactsBytes: 512 * 1024 * 1024,
});

export interface CrawlOptions {
  readonly userAgent: string;
  readonly connections: number;
  readonly minDelayMs: number;
  readonly maxCrawlDelayMs: number;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxRedirects: number;
  readonly limits: CrawlLimits;
  /** External hosts whose links may be fetched to tell whether they are broken. */
  readonly externalAllowed: (hostname: string) => boolean;
  readonly maxExternalChecks: number;
  /** Longest pause a Retry-After may impose at once. */
  readonly maxRetryAfterMs: number;
  /** Batch size of `store` (the least, when storeMax and storeAfterMs let fast crawls store larger batches: crawl-checkpoint.ts). */
  readonly storeEvery: number;
  /** Pages a batch of a fast crawl may grow to (absent: storeEvery). */
  readonly storeMax?: number;
  /** How long a batch of storeEvery pages or more may wait for more (ms; absent: not at all). */
  readonly storeAfterMs?: number;
  /**
   * Where the stored pages' compact facts go until the analysis reads them back (a file,
   * crawler/crawl/facts-file.ts); absent: kept in memory. The caller removes the file.
   */
  readonly factsFile?: string;
}

export interface CrawlDeps {
  readonly egress: Egress;
  readonly pool: ParsePool;
  readonly signal?: AbortSignal;
  /** Stores a batch of pages (the checkpoint). */
  readonly store: (pages: CrawledPage[], progress: { done: number; known: number }) => Promise<void>;
  readonly onProgress?: (done: number, known: number) => void;
  /** Pages a previous attempt stored. */
  readonly resume?: readonly CrawledPage[];
  /** Paces the site's fetches; shared with the analysis that runs alongside (else the crawl's own, of opts.connections). */
  readonly limiter?: HostLimiter;
  /** A URL the analysis alongside fetched and parsed (or is fetching) for its sample; undefined otherwise. */
  readonly sampled?: (url: string) => Promise<SampledPage> | undefined;
  /** The node's fetch metrics (absent: not counted). */
  readonly metrics?: FetchMetrics;
}

export interface CrawlSiteInput {
  /** As monitored: host or host:port. */
  readonly site: string;
  /** scheme://host[:port] the site is served from (the analysis found it). */
  readonly origin: string;
  readonly robots: RobotsFacts | undefined;
  /** Unix seconds. */
  readonly checkedAt: number;
}

export interface CrawlOutcome {
  /** Every URL stored (fetched or skipped), as the compact facts the whole-crawl analysis reads (in memory, or in opts.factsFile). */
  readonly facts: CrawlFacts | SpilledFacts;
  readonly sitemapUrls: string[];
  readonly truncatedBy: string;
  readonly traps: { pattern: string; example: string; urls: number }[];
  readonly external: ExternalLinkCheck[];
  readonly politeness: { delayMs: number; connections: number; throttled: number; retryAfterWaitS: number };
  readonly durationMs: number;
  /** Per page check, the crawled HTML pages it fails on (CrawlFindings.page_issues): what the report's page checks are decided by. */
  readonly pageIssues: PageIssueCount[];
}

const MAX_THROTTLES_PER_URL = 10;
/** Body cap of a subresource asked by GET because its server refuses HEAD: its status is all the crawl wants. */
const PROBE_MAX_BODY_BYTES = 64 * 1024;
const ROBOTS_ATTEMPTS = 5;

type Politeness = CrawlOutcome["politeness"];

/** One crawl's shared state: what its steps read and update. */
interface CrawlRun {
  readonly input: CrawlSiteInput;
  readonly opts: CrawlOptions;
  readonly deps: CrawlDeps;
  readonly originHost: string;
  readonly limiter: HostLimiter;
  readonly politeness: Politeness;
  /** performance.now() at the start. */
  readonly startedAt: number;
  readonly frontier: Frontier;
  readonly checkpoint: CrawlCheckpoint;
  /** robots.txt as the crawl obeys it (page checks read it too). */
  readonly robots: RobotsFacts | undefined;
  /** Sitemap URLs (their pages are marked inSitemap); set once the sitemaps are read. */
  sitemapSet: ReadonlySet<string>;
  /** External links on allowed hosts, checked once the crawl is done (opts.maxExternalChecks at most). */
  readonly externalToCheck: Map<string, ExternalLinkCheck>;
  /** URLs fetched (not those throttled and requeued), resumed ones included. */
  fetched: number;
  /** The first failure (a fetch's or a store's): it ends the crawl. */
  failure: Error | undefined;
}

/** Crawls the site from its home page (and its sitemaps), storing pages as it goes; see the file comment. */
export async function crawlSite(input: CrawlSiteInput, opts: CrawlOptions, deps: CrawlDeps): Promise<CrawlOutcome> {
  const startedAt = performance.now();
  const origin = new URL(input.origin);
  const limiter = deps.limiter ?? new HostLimiter({ maxConcurrent: opts.connections, minDelayMs: opts.minDelayMs, ...(deps.metrics ? { onWait: deps.metrics.waited } : {}) });
  const politeness: Politeness = { delayMs: 0, connections: opts.connections, throttled: 0, retryAfterWaitS: 0 };
  const robots = await usableRobots(input, opts, deps, limiter, politeness);
  const delayMs = Math.max(opts.minDelayMs, Math.min(opts.maxCrawlDelayMs, robots ? crawlDelaySeconds(robots, opts.userAgent) * 1000 : 0));
  limiter.setDelay(origin.host, delayMs);
  politeness.delayMs = delayMs;

  const run = newCrawlRun(input, opts, deps, { origin, robots, limiter, politeness, startedAt });
  seedFrontier(run);
  const sitemapUrls = await listSitemapUrls({ ...input, robots }, opts, deps, limiter, run.originHost);
  run.sitemapSet = new Set(sitemapUrls);
  for (const url of sitemapUrls) run.frontier.offer(url, UNLINKED);

  await fetchAll(run);
  const external = await checkExternal([...run.externalToCheck.values()], opts, deps);
  await run.checkpoint.drain();
  throwIfFailed(run);
  return crawlOutcome(run, sitemapUrls, external);
}

function newCrawlRun(
  input: CrawlSiteInput,
  opts: CrawlOptions,
  deps: CrawlDeps,
  { origin, robots, limiter, politeness, startedAt }: { origin: URL; robots: RobotsFacts | undefined; limiter: HostLimiter; politeness: Politeness; startedAt: number },
): CrawlRun {
  const frontier = new Frontier({ origin, robots, userAgent: opts.userAgent, limits: opts.limits }, (page) => checkpoint.record(page));
  const checkpoint = new CrawlCheckpoint(
    (pages, progress) => deps.store(pages, progress),
    { every: opts.storeEvery, ...(opts.storeMax !== undefined ? { max: opts.storeMax } : {}), ...(opts.storeAfterMs !== undefined ? { afterMs: opts.storeAfterMs } : {}) },
    () => Math.min(frontier.known.size, opts.limits.maxPages),
    (err) => fail(run, err),
    opts.factsFile,
  );
  const run: CrawlRun = { input, opts, deps, originHost: origin.host, limiter, politeness, startedAt, frontier, checkpoint, robots, sitemapSet: new Set(), externalToCheck: new Map(), fetched: 0, failure: undefined };
  return run;
}

/** Resume: what a previous attempt stored is done, and what it led to is the frontier again; else the home page starts it. */
function seedFrontier(run: CrawlRun): void {
  const resume = run.deps.resume ?? [];
  for (const page of resume) {
    run.checkpoint.restore(page);
    run.frontier.restore(page);
    if (!page.skipped) run.fetched += 1;
  }
  const homeUrl = strictKey(`${run.input.origin}/`) as string;
  if (!run.checkpoint.facts.has(homeUrl)) run.frontier.offer(homeUrl, 0);
  for (const page of resume) offerWhatPageLeadsTo(run, page, { depth: page.depth < 0 ? UNLINKED : page.depth, below: 0 });
}

/**
 * The fetch loop: up to `connections` fetches at once, in breadth-first order, until the frontier
 * is empty or a limit (pages, time, memory) is reached.
 */
async function fetchAll(run: CrawlRun): Promise<void> {
  const { limits } = run.opts;
  const inflight = new Set<Promise<void>>();
  for (;;) {
    run.deps.signal?.throwIfAborted();
    throwIfFailed(run);
    if (performance.now() - run.startedAt > limits.maxDurationMs) {
      run.frontier.truncate("time_limit");
      break;
    }
    // Past the memory budget no URL starts; those in flight finish.
    const overMemory = run.checkpoint.facts.bytes >= limits.maxFactsBytes;
    const next = run.fetched + inflight.size >= limits.maxPages || overMemory ? null : run.frontier.next();
    if (next && next !== "wait") {
      startFetch(run, next, inflight);
      if (inflight.size < Math.max(1, run.opts.connections)) continue;
    }
    if (inflight.size === 0) {
      if (next === null && run.fetched >= limits.maxPages && run.frontier.hasQueued()) run.frontier.truncate("page_limit");
      else if (next === null && overMemory && run.frontier.hasQueued()) run.frontier.truncate("memory_limit");
      break;
    }
    await Promise.race(inflight);
  }
  throwIfFailed(run);
}

/** Starts crawling one entry; it leaves `inflight` when done, its failure kept for the loop to throw. */
function startFetch(run: CrawlRun, entry: FrontierEntry, inflight: Set<Promise<void>>): void {
  const depth = run.frontier.start(entry);
  const p: Promise<void> = crawlEntry(run, entry)
    .catch((err: unknown) => fail(run, err))
    .finally(() => {
      run.frontier.finished(depth);
      inflight.delete(p);
      const { done, known } = run.checkpoint.progress();
      run.deps.onProgress?.(done, known);
    });
  inflight.add(p);
}

/** One URL: fetched (or taken from the analysis's sample), parsed, recorded, and what it leads to offered. */
async function crawlEntry(run: CrawlRun, entry: FrontierEntry): Promise<void> {
  // A page the analysis alongside fetched for its sample is not fetched and parsed again.
  const shared = await reusable(run.deps, entry.url);
  const r: FetchResult = shared?.result ?? (entry.probe ? await probeEntry(run, entry) : await fetchEntry(run, entry));
  run.deps.signal?.throwIfAborted();
  if (askedToWait(r, entry)) {
    // A request to slow down, not a failure: the URL goes back to the queue untouched.
    run.frontier.requeue(entry);
    return;
  }
  run.fetched += 1;
  const depth = Number.isFinite(entry.depth) ? entry.depth : -1;
  const { input, originHost } = run;
  const pageInput = { url: entry.url, depth, response: r.response, originHost, origin: input.origin, site: input.site, checkedAt: input.checkedAt, robots: run.robots };
  // A redirect is not a page: its target is fetched as a URL of its own (at the same depth).
  const redirected = r.response.redirects.length > 0;
  const page = shared ? crawledPageFrom(pageInput, shared.extraction) : await parsedOrFailed(run, pageInput, redirected ? undefined : r.body);
  page.throttled = entry.throttles;
  page.inSitemap = run.sitemapSet.has(entry.url);
  run.checkpoint.record(page);
  offerWhatPageLeadsTo(run, page, entry);
  collectExternal(run, page);
}

/**
 * A URL that may be a file: HEAD first, so a download is not fetched whole. A link answered as
 * HTML is a page (MediaWiki's `File:Shot.png`) and is fetched as one; a server refusing HEAD
 * (405, 501) is asked by GET, a subresource's body capped as an external link's is.
 */
async function probeEntry(run: CrawlRun, entry: FrontierEntry): Promise<FetchResult> {
  const head = await fetchEntry(run, entry, "HEAD");
  const status = head.response.status;
  if (status === 405 || status === 501) return fetchEntry(run, entry, "GET", entry.asset ? PROBE_MAX_BODY_BYTES : undefined);
  const html = /^(text\/html|application\/xhtml\+xml)\b/i.test(head.response.contentType);
  return !entry.asset && html && status >= 200 && status < 300 ? fetchEntry(run, entry) : head;
}

/**
 * The page's facts from a parse thread; when the thread crashed on it (out of memory…), the page
 * is recorded as fetched but not parsed, with the cause, and the crawl goes on.
 */
async function parsedOrFailed(run: CrawlRun, pageInput: Omit<PageInput, "html" | "body">, body: Uint8Array | undefined): Promise<CrawledPage> {
  try {
    return await run.deps.pool.page({ ...pageInput, html: "", ...(body ? { body } : {}) });
  } catch (err) {
    if (!(err instanceof ParseThreadCrashedError)) throw err;
    const page = crawledPage({ ...pageInput, html: "" });
    page.error = `parse_failed: ${err.reason}`;
    return page;
  }
}

/** The analysis's fetch of a URL when it is an HTML page answered 2xx without redirects (anything else is fetched as the crawl would). */
async function reusable(deps: CrawlDeps, url: string): Promise<SampledPage | null> {
  const sampled = deps.sampled?.(url);
  if (!sampled) return null;
  const s = await sampled.catch(() => null);
  const res = s?.result.response;
  return s && res && res.status >= 200 && res.status < 300 && res.redirects.length === 0 && !res.error && s.extraction.facts.isHtml ? s : null;
}

/** Fetches an entry through the site's limiter; a 429 or 503 pauses the site (Retry-After) before its slot is released. */
function fetchEntry(run: CrawlRun, entry: FrontierEntry, method: "GET" | "HEAD" = "GET", maxBodyBytes?: number): Promise<FetchResult> {
  const { opts, deps, originHost, limiter, politeness } = run;
  return limiter.run(originHost, () =>
    fetchUrl(entry.url, {
      dispatcher: deps.egress.dispatcher,
      userAgent: opts.userAgent,
      timeoutMs: opts.timeoutMs,
      maxBodyBytes: maxBodyBytes ?? opts.maxBodyBytes,
      method,
      maxRedirects: opts.maxRedirects,
      ...(deps.signal ? { signal: deps.signal } : {}),
      followRedirect: (target) => new URL(target).host === originHost,
      // The parse thread decodes the body: the bytes move there without a copy, not a string.
      decodeText: false,
    }).then((res) => {
      deps.metrics?.fetched("crawl", res.response);
      // Set the pause before the slot is released, so no request slips in before it.
      const status = res.response.status;
      if ((status === 429 || status === 503) && entry.throttles < MAX_THROTTLES_PER_URL) {
        const wait = Math.min(opts.maxRetryAfterMs, retryAfterMs(responseHeader(res.response, "retry-after")) ?? (status === 429 ? 5000 : -1));
        if (wait >= 0) {
          limiter.pause(originHost, wait);
          politeness.throttled += 1;
          politeness.retryAfterWaitS += wait / 1000;
        }
      }
      return res;
    }),
  );
}

/** Whether the answer asks to come back later (429, or 503 with Retry-After) and the URL may still be retried. */
function askedToWait(r: FetchResult, entry: FrontierEntry): boolean {
  const status = r.response.status;
  return (status === 429 || status === 503) && entry.throttles < MAX_THROTTLES_PER_URL && (status === 429 || responseHeader(r.response, "retry-after") !== "");
}

/**
 * Offers the URLs a crawled page leads to: its followed internal links (a hop deeper; below a
 * sitemap URL, a hop further below it), its images, scripts and stylesheets (checked at its
 * depth), its redirect's target on the site (at the same depth), and its canonical (checked,
 * fetched once, even when nothing links to it).
 */
function offerWhatPageLeadsTo(run: CrawlRun, page: CrawledPage, from: { depth: number; below: number }): void {
  const { frontier, originHost } = run;
  const { depth, below } = from;
  const linked = Number.isFinite(depth);
  const linkDepth = linked ? depth + 1 : UNLINKED;
  const linkBelow = linked ? 0 : below + 1;
  const nofollow = new Set(page.nofollowInternal);
  for (const link of page.internalLinks) if (!nofollow.has(link)) frontier.offer(link, linkDepth, "link", linkBelow);
  for (const asset of page.internalAssets) frontier.offer(asset, depth, "asset", below);
  const target = page.redirects[page.redirects.length - 1]?.location ?? "";
  if (target && new URL(target).host === originHost) frontier.offer(target, depth, "link", below);
  if (page.canonical && page.canonical !== page.url && page.canonical !== page.finalUrl) frontier.offerUnlinked(page.canonical);
}

/** The page's external links on allowed hosts, kept to be checked once the crawl is done. */
function collectExternal(run: CrawlRun, page: CrawledPage): void {
  const { opts, externalToCheck } = run;
  for (const link of page.externalLinks) {
    if (externalToCheck.size >= opts.maxExternalChecks || externalToCheck.has(link.href)) continue;
    if (opts.externalAllowed(new URL(link.href).hostname)) externalToCheck.set(link.href, { url: link.href, status: 0, error: "" });
  }
}

function fail(run: CrawlRun, err: unknown): void {
  run.failure ??= err instanceof Error ? err : new Error(String(err));
}

function throwIfFailed(run: CrawlRun): void {
  if (run.failure) throw run.failure;
}

function crawlOutcome(run: CrawlRun, sitemapUrls: string[], external: ExternalLinkCheck[]): CrawlOutcome {
  const { politeness } = run;
  return {
    facts: run.checkpoint.outcomeFacts(),
    sitemapUrls,
    truncatedBy: run.frontier.truncatedBy,
    traps: [...run.frontier.traps.values()],
    external,
    politeness: { ...politeness, retryAfterWaitS: Math.round(politeness.retryAfterWaitS * 10) / 10 },
    durationMs: Math.round(performance.now() - run.startedAt),
    pageIssues: run.checkpoint.facts.pageIssues(),
  };
}

/**
 * robots.txt as the analysis saw it, unless that answer asked us to come back later (429, 503) or
 * never came: then it is fetched again, Retry-After honoured, up to ROBOTS_ATTEMPTS times.
 */
async function usableRobots(input: CrawlSiteInput, opts: CrawlOptions, deps: CrawlDeps, limiter: HostLimiter, politeness: { throttled: number; retryAfterWaitS: number }): Promise<RobotsFacts | undefined> {
  const retry = (r: RobotsFacts | undefined) => !r?.response || r.response.status === 429 || r.response.status === 503 || (r.response.status === 0 && r.response.error !== "");
  let robots = input.robots;
  const host = new URL(input.origin).host;
  for (let attempt = 0; attempt < ROBOTS_ATTEMPTS && retry(robots); attempt++) {
    const r = await limiter.run(host, () =>
      fetchUrl(`${input.origin}/robots.txt`, { dispatcher: deps.egress.dispatcher, userAgent: opts.userAgent, timeoutMs: opts.timeoutMs, maxBodyBytes: ROBOTS_MAX_BYTES, maxRedirects: 5, ...(deps.signal ? { signal: deps.signal } : {}) }).then((res) => {
        deps.metrics?.fetched("crawl", res.response);
        const status = res.response.status;
        if (status === 429 || status === 503) {
          const wait = Math.min(opts.maxRetryAfterMs, retryAfterMs(responseHeader(res.response, "retry-after")) ?? 5000);
          limiter.pause(host, wait);
          politeness.throttled += 1;
          politeness.retryAfterWaitS += wait / 1000;
        }
        return res;
      }),
    );
    deps.signal?.throwIfAborted();
    robots = robotsFacts(r.response, r.text);
  }
  return robots;
}

/** Every URL of the site's sitemaps (robots.txt Sitemap lines, else /sitemap.xml), indexes followed. */
async function listSitemapUrls(input: CrawlSiteInput, opts: CrawlOptions, deps: CrawlDeps, limiter: HostLimiter, originHost: string): Promise<string[]> {
  const roots = input.robots && input.robots.sitemaps.length > 0 ? input.robots.sitemaps : [`${input.origin}/sitemap.xml`];
  const facts = await collectSitemaps(
    roots,
    (url) =>
      limiter.run(new URL(url).host, () =>
        fetchUrl(url, { dispatcher: deps.egress.dispatcher, userAgent: opts.userAgent, timeoutMs: opts.timeoutMs, maxBodyBytes: SITEMAP_MAX_BYTES, maxRedirects: 5, ...(deps.signal ? { signal: deps.signal } : {}) }).then((res) => {
          deps.metrics?.fetched("crawl", res.response);
          return res;
        }),
      ),
    { siteHost: originHost, maxRoots: 10, maxChildren: 50, sampleSize: SITEMAP_MAX_URLS },
  );
  const out = new Set<string>();
  for (const f of facts) {
    if (f.isIndex) continue;
    for (const u of f.sampleUrls) {
      const key = strictKey(u);
      if (key && new URL(key).host === originHost) out.add(key);
    }
  }
  return [...out];
}

/** External links on allowed hosts: HEAD, then GET when HEAD is refused; a few at a time. */
async function checkExternal(links: ExternalLinkCheck[], opts: CrawlOptions, deps: CrawlDeps): Promise<ExternalLinkCheck[]> {
  const limiter = new HostLimiter({ maxConcurrent: 2, minDelayMs: 0 });
  await Promise.all(
    links.map((link) =>
      limiter.run(new URL(link.url).host, async () => {
        const common = { dispatcher: deps.egress.dispatcher, userAgent: opts.userAgent, timeoutMs: opts.timeoutMs, maxBodyBytes: 64 * 1024, maxRedirects: opts.maxRedirects, ...(deps.signal ? { signal: deps.signal } : {}) };
        let r = await fetchUrl(link.url, { ...common, method: "HEAD" });
        if (r.response.status === 405 || r.response.status === 501) r = await fetchUrl(link.url, common);
        link.status = r.response.status;
        link.error = r.response.error;
      }),
    ),
  );
  return links;
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string): number | null {
  const v = value.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
