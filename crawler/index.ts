// The crawler's site-collection core: guarded egress, fetching, robots.txt, sitemaps, page
// extraction, TLS and DNS facts, and the site collection that ties them together.
export {
  EgressBlockedError,
  blockedRange,
  createEgress,
  dnsResolver,
  resolveTarget,
  type Egress,
  type ResolvedAddress,
  type Resolver,
} from "./fetch/egress.ts";
export { fetchUrl, responseHeader } from "./fetch/fetch-page.ts";
export { prescanCharset } from "./fetch/charset-prescan.ts";
export { crawlDelaySeconds, isAllowed, parseRobots, productToken, robotsFacts } from "./site/robots.ts";
export { collectSitemaps, parseSitemap } from "./site/sitemaps.ts";
export { extractPage } from "./page/extract.ts";
export { detectTechnologies } from "./page/tech-detect.ts";
export { collectTlsFacts } from "./site/tls-facts.ts";
export { collectDnsFacts } from "./site/dns-facts.ts";
export { HostLimiter } from "./fetch/host-limiter.ts";
export { fetchMetrics } from "./fetch/fetch-metrics.ts";
export {
  collectSiteFacts,
  mostLinked,
} from "./site/collect-facts.ts";
export { CrawlerWorker, HAND_BACK_WAIT_MS } from "./worker.ts";
export {
  failureOf,
  isRetryableWorkError,
  FatalWorkError,
  NonRetryableWorkError,
  RetryableWorkError,
  ThrottledWorkError,
  UndecodableWorkItemError,
  WorkerClosingError,
} from "./work-errors.ts";
export { CRAWLER_KINDS, signatureHeaders, type WorkContext } from "./kinds/index.ts";
export { createCrawlerNode, type CrawlerNode } from "./node.ts";
export { politenessFor } from "./fetch/politeness.ts";
export { workerMetrics } from "./worker-metrics.ts";
export { cumulativeLayoutShift, totalBlockingTime, CHROMIUM_ARGS } from "./browser/browser-metrics.ts";
export { BROWSER_CLOSE_MS, createBrowserPool, type BrowserPool } from "./browser/browser-pool.ts";
export { inProcessPageProxies, type PageProxies } from "./browser/page-proxies.ts";
export { threadPageProxies } from "./browser/thread-page-proxies.ts";
export { browserPoolMetrics, type BrowserPoolMetrics } from "./browser/pool-metrics.ts";
export { appliedThrottling, networkConditions, PROFILES, type Profile, type ProfileName } from "./browser/profiles.ts";
export { imageSize } from "./site/social-images.ts";
export { factsFilePath, FactsFileWriter, loadFacts, loadTable, prepareFactsDir, readFactsFile, readFactsTable, sweepStaleFactsFiles, type SpilledFacts } from "./crawl/facts-file.ts";
export { crawlSite, DEFAULT_CRAWL_LIMITS, retryAfterMs, type CrawlDeps, type CrawlOptions, type CrawlOutcome } from "./crawl/crawl-site.ts";
export { inlineParsePool, ParseThreadCrashedError, threadParsePool, type ParsePool } from "./page/parse-pool.ts";
export { simhash } from "./page/simhash.ts";
export { crawlerStreamKinds, ProbeHealth, probeFailureText, probeMetrics, probeOne } from "./stream/index.ts";
export { collectGarbage } from "./heap-trim.ts";
