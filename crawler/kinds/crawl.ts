import { rmSync } from "node:fs";
import { homeNoAnswer } from "../../analyzer/index.ts";
import { CrawlResult, RobotsFacts, type SiteFacts } from "../../proto/index.ts";
import { unixSeconds } from "../../runtime/index.ts";
import { collectSiteFacts, type SampledPage, type SiteKnown } from "../site/collect-facts.ts";
import { factsFilePath, factsPages } from "../crawl/facts-file.ts";
import { collectGarbage, TRIM_AFTER_CRAWL_OF } from "../heap-trim.ts";
import { crawlSite, DEFAULT_CRAWL_LIMITS, type CrawlOutcome } from "../crawl/crawl-site.ts";
import { HostLimiter } from "../fetch/host-limiter.ts";
import type { Politeness } from "../fetch/politeness.ts";
import { NonRetryableWorkError, RetryableWorkError } from "../work-errors.ts";
import { fetchSettings } from "../node.ts";
import type { CrawlerKind, WorkContext } from "./kind.ts";

/**
 * A whole-site crawl with the site's analysis: both run at once (the crawl starts as soon as the
 * origin and robots.txt are known) and share the host's politeness; a later attempt resumes from
 * the pages earlier ones stored. Progress: the analysis's first tenth, then pages done of known.
 */
export const crawlKind: CrawlerKind<"crawl"> = {
  name: "crawl",
  async run(task, ctx) {
    await requireResolvable(ctx);
    const politeness = await ctx.node.politeness(ctx.host);
    const resume = ctx.attempt > 1 ? await ctx.pages.stored() : [];
    // The analysis and the crawl run at once on one limiter: together they keep to the host's politeness.
    const limiter = new HostLimiter({ maxConcurrent: politeness.connectionsPerHost, minDelayMs: politeness.minDelayMs, onWait: ctx.node.fetchMetrics.waited });
    // A failed analysis stops the crawl (and its error is the attempt's); an aborted job stops both.
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    const state = { crawling: false, collected: 0 };
    const analysis = startAnalysis(task, ctx, politeness, limiter, signal, state);
    analysis.facts.catch((err: unknown) => stop.abort(err));
    // The pages' compact facts wait on disk for the whole-crawl analysis (the serving thread keeps only the URL table).
    const factsFile = factsFilePath(ctx.node.factsDir, ctx.jobId, ctx.attempt, ctx.node.randomHex(4));
    const crawl = analysis.start.then((start) => crawlFrom(start, task, ctx, politeness, limiter, signal, analysis.sampled, resume, state, factsFile));
    crawl.catch((err: unknown) => stop.abort(err));
    try {
      const [siteFacts, outcome] = await Promise.all([analysis.facts, crawl]);
      requireAnswer(ctx.host, siteFacts);
      return await wholeSiteResult(ctx, await measureCrashedAgain(ctx, siteFacts), outcome);
    } finally {
      // Once the crawl has stopped writing to it (a failed analysis aborts it; pages in flight finish).
      await crawl.then(
        () => undefined,
        () => undefined,
      );
      rmSync(factsFile, { force: true });
    }
  },
};

/** A crawl's pages are stored in batches of STORE_EVERY, growing up to STORE_MAX while a batch is younger than STORE_AFTER_MS (crawl-checkpoint.ts). */
export const STORE_EVERY = 50;
export const STORE_MAX = 200;
export const STORE_AFTER_MS = 2000;

/** Pages stored between two full collections of the crawling thread (the first after that many: smaller crawls never pay one). */
export const COLLECT_EVERY_PAGES = 10_000;

/**
 * A page measurement the browser crashed under (twice: the pool tries once more on a fresh
 * browser) is queued again behind the crawl's pages, once, instead of failing a whole crawl for it
 * (an analysis is queued again instead: it is cheap). A page that crashes a third time stays
 * reported as crashed; the rank then carries the last measured run forward (docs/analysis.md).
 */
async function measureCrashedAgain(ctx: WorkContext, facts: SiteFacts): Promise<SiteFacts> {
  const browser = ctx.node.browser;
  if (!browser || !facts.browserPages.some((p) => p.crashed)) return facts;
  ctx.progress(96, "browser");
  const pages = [];
  for (const page of facts.browserPages) {
    pages.push(page.crashed ? await browser.measurePage(page.url, { viewport: page.profile === "desktop" ? "desktop" : "mobile", signal: ctx.signal }) : page);
    ctx.signal.throwIfAborted();
  }
  // The first measurement (the home page in the first profile) is the rank's input.
  return { ...facts, browserPages: pages, browser: facts.browser ? pages[0] : facts.browser };
}

// Answers that say the name does not exist (no retry helps), as opposed to a DNS server failing.
const NO_SUCH_NAME = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"]);

/**
 * A crawl of a host that does not resolve ends in an error that says so, before anything is
 * fetched (it used to end done, its home page marked skipped by robots.txt). A refused address is
 * left to the egress guard, which fails the fetches with its own reason.
 */
async function requireResolvable(ctx: WorkContext): Promise<void> {
  const hostname = ctx.host.startsWith("[") ? ctx.host.slice(1, ctx.host.indexOf("]")) : ctx.host.replace(/:\d+$/, "");
  try {
    await ctx.node.egress.resolve(hostname);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (NO_SUCH_NAME.has(code)) throw new NonRetryableWorkError("dns", `${hostname} does not resolve (${code}): check the name, or its DNS records`);
    if (code.startsWith("E") && code !== "blocked_private_address") throw new RetryableWorkError("dns", `${hostname} could not be resolved (${code})`);
  }
}

/**
 * A site whose home page gave no HTTP answer (connection refused, reset, timed out) has nothing
 * to crawl: the crawl ends in an error that says why, rather than done with a page list of one
 * unanswered URL (its robots.txt unanswered too, which would read as "skipped by robots.txt").
 */
function requireAnswer(host: string, facts: SiteFacts): void {
  const error = homeNoAnswer(facts);
  if (error !== null) throw new NonRetryableWorkError("unreachable", `${host} did not answer (${error}): nothing to crawl`);
}

interface CrawlStart {
  readonly origin: string;
  readonly robots: RobotsFacts;
  readonly checkedAt: number;
}

/**
 * The site's analysis on the crawl's limiter. `start` resolves with the origin and robots.txt as
 * soon as the analysis knows them (or, should it end before telling, from its facts); the sample
 * pages it fetches are offered to the crawl, which takes each instead of fetching it again.
 */
function startAnalysis(task: { pageSample: number; watch: readonly string[] }, ctx: WorkContext, politeness: Politeness, limiter: HostLimiter, signal: AbortSignal, state: { crawling: boolean; collected: number }) {
  const { node } = ctx;
  let known!: (site: SiteKnown) => void;
  const siteKnown = new Promise<SiteKnown>((resolve) => (known = resolve));
  const sampled = new Map<string, Promise<SampledPage>>();
  const facts = collectSiteFacts(ctx.host, { ...node.collectOptions(politeness, task.pageSample, false), watchUrls: task.watch }, {
    egress: node.egress,
    clock: node.clock,
    randomHex: node.randomHex,
    parse: node.pool.extract,
    signal,
    limiter,
    metrics: node.fetchMetrics,
    onSiteKnown: known,
    onSamplePage: (url, page) => void sampled.set(url, page),
    // The analysis is the first tenth of a crawl's progress, until the crawl reports its own.
    onProgress: (p, step) => {
      if (!state.crawling) ctx.progress(Math.round(p / 10), step);
    },
    ...(node.browser ? { browser: node.browser, browserPlan: { pages: node.settings.browserPages, profiles: node.settings.browserProfiles } } : {}),
    noBrowserReason: node.settings.browser === "off" ? "off" : "absent",
    externalAllowed: node.externalAllowed,
  });
  const start: Promise<CrawlStart> = Promise.race([
    siteKnown,
    facts.then((f) => ({ origin: f.origin, robots: f.robots ?? RobotsFacts.fromPartial({}), checkedAt: f.checkedAt })),
  ]);
  return { facts, start, sampled };
}

/** The crawl itself, from the analysis's origin and robots.txt, storing pages as it goes. */
function crawlFrom(
  start: CrawlStart,
  task: { maxPages: number; maxDepth: number },
  ctx: WorkContext,
  politeness: Politeness,
  limiter: HostLimiter,
  signal: AbortSignal,
  sampled: Map<string, Promise<SampledPage>>,
  resume: Parameters<typeof crawlSite>[2]["resume"],
  state: { crawling: boolean; collected: number },
  factsFile: string,
): Promise<CrawlOutcome> {
  const { settings, egress, pool, externalAllowed } = ctx.node;
  return crawlSite(
    { site: ctx.host, origin: start.origin, robots: start.robots, checkedAt: start.checkedAt },
    {
      ...fetchSettings(settings),
      connections: politeness.connectionsPerHost,
      minDelayMs: politeness.minDelayMs,
      maxCrawlDelayMs: settings.crawlDelayCapSeconds * 1000,
      limits: {
        ...DEFAULT_CRAWL_LIMITS,
        maxPages: task.maxPages,
        maxDepth: task.maxDepth,
        maxDurationMs: settings.crawlMaxMinutes * 60_000,
        maxPerPattern: settings.crawlMaxPerPattern,
        maxFactsBytes: settings.crawlMemoryMb * 1024 * 1024,
      },
      externalAllowed,
      maxExternalChecks: 200,
      maxRetryAfterMs: 60_000,
      // 50 pages a batch, up to 200 while they come faster than 50 in 2 s: the stored pages are
      // the checkpoint (a crash loses at most one batch), and each batch costs the cluster a call,
      // a lease renewal and an insert.
      storeEvery: STORE_EVERY,
      storeMax: STORE_MAX,
      storeAfterMs: STORE_AFTER_MS,
      factsFile,
    },
    {
      egress,
      pool,
      signal,
      limiter,
      metrics: ctx.node.fetchMetrics,
      // Taken once: the crawl starts each URL once, and the analysis keeps its facts itself.
      sampled: (url) => {
        const page = sampled.get(url);
        sampled.delete(url);
        return page;
      },
      store: (pages, progress) => ctx.pages.put(pages, progress),
      resume,
      onProgress: (done, total) => {
        state.crawling = true;
        ctx.progress(10 + Math.floor((85 * done) / Math.max(1, total)), "crawling");
        // Every COLLECT_EVERY_PAGES pages of a large crawl, a full collection on this thread: V8
        // otherwise lets the old generation grow with the crawl's garbage (measured on a crawler
        // node at 100,000 pages: heap 253 MB committed mid-crawl, 79 at idle, most of it garbage).
        const round = Math.floor(done / COLLECT_EVERY_PAGES);
        if (round > state.collected) {
          state.collected = round;
          collectGarbage();
        }
      },
    },
  );
}

/** The whole-crawl analysis over every stored page, on a parse thread, as the kind's result. */
async function wholeSiteResult(ctx: WorkContext, siteFacts: SiteFacts, outcome: CrawlOutcome): Promise<CrawlResult> {
  // The crawl's garbage on this thread goes before the analysis runs beside it: the crawl's peak is
  // then, and a heap V8 grew to it stays committed (crawler/heap-trim.ts).
  if (factsPages(outcome.facts) >= TRIM_AFTER_CRAWL_OF) collectGarbage();
  const analysis = await ctx.node.pool.analyze({
    jobId: ctx.jobId,
    crawledAt: unixSeconds(ctx.node.clock),
    facts: outcome.facts,
    sitemapUrls: outcome.sitemapUrls,
    truncatedBy: outcome.truncatedBy,
    traps: outcome.traps,
    external: outcome.external,
    politeness: outcome.politeness,
    durationMs: outcome.durationMs,
  });
  // A literal, not fromPartial: that deep-copies the site's facts and every page's figures (megabytes on a large crawl).
  return {
    facts: { ...siteFacts, crawl: { ...analysis.findings, pageIssues: outcome.pageIssues, pageIssuesCounted: true } },
    reportJson: JSON.stringify(analysis.report),
    pageStats: analysis.pageStats,
  };
}
