// The crawler's site-collection core: guarded egress, fetching, robots.txt, sitemaps, page
// extraction, TLS and DNS facts, and the site collection that ties them together.
export {
  BLOCKED_PRIVATE_ADDRESS,
  EgressBlockedError,
  blockedRange,
  createEgress,
  dnsResolver,
  resolveTarget,
  type Egress,
  type EgressDeps,
  type EgressOptions,
  type ResolvedAddress,
  type Resolver,
} from "./fetch/egress.ts";
export { DEFAULT_USER_AGENT, fetchUrl, parseContentType, responseHeader, type FetchOptions, type FetchResult } from "./fetch/fetch-page.ts";
export { prescanCharset } from "./fetch/charset-prescan.ts";
export { classifyFetchError, type FetchErrorCode } from "./fetch/fetch-errors.ts";
export { crawlDelaySeconds, isAllowed, matchingGroups, parseRobots, productToken, robotsFacts, ROBOTS_MAX_BYTES } from "./site/robots.ts";
export { collectSitemaps, parseSitemap, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS, SITEMAP_NS, type ParsedSitemap, type SitemapFetch, type SitemapOptions } from "./site/sitemaps.ts";
export { extractPage, isHtmlResponse, TEXT_SAMPLE_CHARS, type ExtractInput, type Extraction } from "./page/extract.ts";
export { detectTechnologies, type TechEvidence } from "./page/tech-detect.ts";
export { collectTlsFacts, type TlsFactsOptions } from "./site/tls-facts.ts";
export { collectDnsFacts, type DnsFactsOptions } from "./site/dns-facts.ts";
export { HostLimiter, type HostLimiterOptions } from "./fetch/host-limiter.ts";
export { fetchErrorClass, fetchMetrics, NO_FETCH_METRICS, FETCH_ERROR_CLASSES, FETCH_SOURCES, POLITENESS_WAITS, type FetchErrorClass, type FetchMetrics, type FetchSource, type PolitenessWait } from "./fetch/fetch-metrics.ts";
export {
  collectSiteFacts,
  DEFAULT_COLLECT_OPTIONS,
  mostLinked,
  type BrowserPlan,
  type CollectDeps,
  type CollectOptions,
  type ProgressCallback,
} from "./site/collect-site.ts";
export { CrawlerWorker, HAND_BACK_WAIT_MS, type WorkerDeps } from "./worker.ts";
export {
  failureOf,
  isRetryableWorkError,
  FatalWorkError,
  NonRetryableWorkError,
  RetryableWorkError,
  ThrottledWorkError,
  UndecodableWorkItemError,
  WorkerClosingError,
  type Failure,
} from "./work-errors.ts";
export { CRAWLER_KINDS, signatureHeaders, type CrawlerKind, type PageStore, type WorkContext } from "./kinds/index.ts";
export { createCrawlerNode, SYNC_CONFIRM_MAX_MS, type CrawlerNode, type NodeSettings } from "./node.ts";
export { politenessFor, splitHost, type Politeness } from "./fetch/politeness.ts";
export { workerMetrics, type JobLabel, type JobOutcome, type WorkerMetrics } from "./worker-metrics.ts";
export { cumulativeLayoutShift, interactionToNextPaint, totalBlockingTime, CHROMIUM_ARGS, VIEWPORTS, type ThirdPartyPolicy, type ViewportName } from "./browser/browser-metrics.ts";
export { BROWSER_CLOSE_MS, createBrowserPool, type BrowserPool, type BrowserPoolOptions, type MeasureOptions } from "./browser/browser-pool.ts";
export { browserPoolMetrics, type BrowserPoolMetrics } from "./browser/pool-metrics.ts";
export { PROFILES, PROFILE_NAMES, type Profile, type ProfileName } from "./browser/profiles.ts";
export { imageSize, socialImageUrls } from "./site/social-images.ts";
export { factsFilePath, factsPages, FactsFileWriter, loadFacts, loadTable, prepareFactsDir, readFactsFile, readFactsTable, removeFactsFile, sweepStaleFactsFiles, type SpilledFacts } from "./crawl/facts-file.ts";
export { crawlSite, DEFAULT_CRAWL_LIMITS, retryAfterMs, type CrawlDeps, type CrawlLimits, type CrawlOptions, type CrawlOutcome, type CrawlSiteInput } from "./crawl/crawl-site.ts";
export { inlineParsePool, ParseThreadCrashedError, threadParsePool, type ParsePool, type ThreadPoolOptions } from "./page/parse-pool.ts";
export { crawledPage, type PageInput } from "./page/crawled-page.ts";
export { simhash } from "./page/simhash.ts";
export { crawlerStreamKinds, ProbeHealth, probeFailureText, probeMetrics, probeOne, type CrawlerStreamKind } from "./stream/index.ts";
export { collectGarbage } from "./heap-trim.ts";
