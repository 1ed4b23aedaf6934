import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Registry } from "prom-client";
import { unixSeconds, type Clock, type CrawlSettings } from "../runtime/index.ts";
import { createBrowserPool, type BrowserPool } from "./browser/browser-pool.ts";
import { browserPoolMetrics } from "./browser/pool-metrics.ts";
import { threadPageProxies } from "./browser/thread-page-proxies.ts";
import { webhookMetrics, type WebhookMetrics } from "./webhook-metrics.ts";
import { fetchMetrics, NO_FETCH_METRICS, type FetchMetrics } from "./fetch/fetch-metrics.ts";
import type { CollectOptions } from "./site/collect-facts.ts";
import { createEgress, EgressBlockedError, type Egress } from "./fetch/egress.ts";
import type { FetchOptions } from "./fetch/fetch-page.ts";
import { prepareFactsDir } from "./crawl/facts-file.ts";
import { inlineParsePool, threadParsePool, type ParsePool } from "./page/parse-pool.ts";
import { hostMatches, politenessFor, type Politeness } from "./fetch/politeness.ts";

/** What every fetch of a work kind takes from the node's settings: user agent, timeout, body cap, redirects. */
export function fetchSettings(settings: Pick<CrawlSettings, "userAgent" | "fetchTimeoutMs" | "maxBodyBytes" | "maxRedirects">): Required<Pick<FetchOptions, "userAgent" | "timeoutMs" | "maxBodyBytes" | "maxRedirects">> {
  return { userAgent: settings.userAgent, timeoutMs: settings.fetchTimeoutMs, maxBodyBytes: settings.maxBodyBytes, maxRedirects: settings.maxRedirects };
}

/** A work kind's fetch options: through the node's egress guard, with the node's settings, cancelled by the job's signal. */
export function nodeFetchOptions(node: Pick<CrawlerNode, "egress" | "settings">, signal: AbortSignal): FetchOptions {
  return { dispatcher: node.egress.dispatcher, ...fetchSettings(node.settings), signal };
}

/** The longest confirmation delay of a synchronous check (GET /analyze). */
export const SYNC_CONFIRM_MAX_MS = 5000;

export type NodeSettings = CrawlSettings & {
  readonly allowPrivateTargets: boolean;
  /** SVC_ALLOW_LINK_LOCAL_TARGETS (none when absent). */
  readonly allowLinkLocal?: readonly string[];
  readonly extraCa: string | null;
};

/**
 * What the work kinds of one crawler node share: the one egress (SSRF guard and pinned
 * addresses), the parse threads, the browser (when installed), the operator's settings and the
 * clock. Built once per process; kinds receive it in their context.
 */
export interface CrawlerNode {
  readonly settings: NodeSettings;
  readonly clock: Clock;
  readonly egress: Egress;
  readonly pool: ParsePool;
  /** The folder of the crawls' facts files (SVC_CRAWL_FACTS_DIR), made and swept of stale files at start. */
  readonly factsDir: string;
  readonly browser: BrowserPool | null;
  /** The webhook kind's metrics (absent: not exported). */
  readonly webhookMetrics?: WebhookMetrics;
  /** Pages fetched, fetch errors by class, politeness waits (go nowhere without a registry). */
  readonly fetchMetrics: FetchMetrics;
  /** Whether an external host may be fetched (the operator's allow list of SVC_EGRESS_ALLOW). */
  readonly externalAllowed: (hostname: string) => boolean;
  readonly randomHex: (bytes: number) => string;
  /** The politeness for a host (operator overrides, else defaults). */
  politeness(host: string): Promise<Politeness>;
  /** A site collection's options under a host's politeness. */
  collectOptions(politeness: Politeness, pageSample: number, sync: boolean): Partial<CollectOptions>;
  /** Throws when a target resolves only to refused addresses; a name that does not resolve is left to the fetch to record. */
  refuseBlocked(hostname: string): Promise<void>;
  /** Resolves once the parse threads have loaded: the node takes work after that. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The crawler node's shared parts, configured from the operator's settings. */
/** `metrics`: the process's registry, for the browser pool's gauges, the fetch and the webhook kind's metrics (none: not exported). */
export function createCrawlerNode(settings: NodeSettings, clock: Clock, metrics?: Registry): CrawlerNode {
  const egress = createEgress({
    allowPrivateTargets: settings.allowPrivateTargets,
    allowLinkLocal: settings.allowLinkLocal ?? [],
    dnsServers: settings.dnsServers,
    extraCa: settings.extraCa,
    connectTimeoutMs: Math.min(10_000, settings.fetchTimeoutMs),
  });
  // A young generation of 8 MB per parse thread (V8's default grows to 3 x 16 MB): about 20 MB less
  // resident per thread (docs/operations.md, Memory). Its price: more scavenges, 5 % more CPU per
  // page than 32 MB in a running server's crawl, 9 % less peak RSS (docs/benchmarks.md, crawl).
  const pool = settings.parseThreads > 0 ? threadParsePool(settings.parseThreads, settings.parseWarmUpPages, { resourceLimits: { maxYoungGenerationSizeMb: 8 }, idleMs: settings.parseIdleSeconds * 1000, startAsleep: settings.parseStartAsleep }) : inlineParsePool();
  // Before any crawl of this process writes there: files of a process that crashed mid-crawl go (and
  // those earlier versions left in the temp dir itself).
  const factsDir = settings.crawlFactsDir || join(tmpdir(), "svc-crawl-facts");
  prepareFactsDir(factsDir, tmpdir());
  const externalAllowed = (hostname: string) => settings.egressAllow.some((pattern) => hostMatches(hostname, pattern));
  const browser = browserPoolFor(settings, egress, externalAllowed, clock, metrics);
  return {
    settings,
    clock,
    egress,
    pool,
    factsDir,
    browser,
    ...(metrics ? { webhookMetrics: webhookMetrics(metrics) } : {}),
    fetchMetrics: metrics ? fetchMetrics(metrics) : NO_FETCH_METRICS,
    externalAllowed,
    randomHex: (n) => randomBytes(n).toString("hex"),
    politeness: (host) => politenessFor(host, settings, egress),
    collectOptions: (politeness, pageSample, sync) => ({
      userAgent: settings.userAgent,
      maxPages: pageSample,
      maxConnectionsPerHost: politeness.connectionsPerHost,
      minDelayMs: politeness.minDelayMs,
      maxCrawlDelayMs: settings.crawlDelayCapSeconds * 1000,
      timeoutMs: settings.fetchTimeoutMs,
      maxBodyBytes: settings.maxBodyBytes,
      // A synchronous caller waits at most SVC_SYNC_WAIT_MS: its second look comes sooner.
      confirmDelayMs: sync ? Math.min(settings.confirmDelayMs, SYNC_CONFIRM_MAX_MS) : settings.confirmDelayMs,
    }),
    async refuseBlocked(hostname) {
      try {
        await egress.resolve(hostname);
      } catch (err) {
        if (err instanceof EgressBlockedError) throw err;
      }
    },
    ready: () => pool.ready(),
    // The browser, the parse threads and the egress connections close together: a closing node
    // keeps to its grace period (each waits for its own processes or threads, not for the others).
    async close() {
      await Promise.all([browser?.close(), pool.close(), egress.close()]);
    },
  };
}

/** The browser pool when SVC_BROWSER=auto and the executable exists (launched on first use). */
function browserPoolFor(settings: CrawlSettings, egress: Egress, externalAllowed: (hostname: string) => boolean, clock: Clock, metrics: Registry | undefined): BrowserPool | null {
  if (!browserAvailable(settings)) return null;
  return createBrowserPool(
    {
      executablePath: settings.browserPath,
      timeoutMs: settings.browserTimeoutMs,
      thirdParty: settings.browserThirdParty,
      externalAllowed,
      userAgentToken: settings.userAgent,
      concurrency: settings.browserContexts,
      maxMemoryBytes: settings.browserMaxMemoryMb * 1024 * 1024,
      throttling: settings.browserThrottling,
    },
    // The pages' proxies on a thread of their own: the crawl's parsing and analyses on this event
    // loop would otherwise delay every request of a measured page (page-proxies.ts).
    { egress, proxies: threadPageProxies({ egress: egress.options, egressAllow: settings.egressAllow }), now: () => unixSeconds(clock), ...(metrics ? { metrics: browserPoolMetrics(metrics, settings.browserContexts) } : {}) },
  );
}

/** Whether this node measures pages in a browser: SVC_BROWSER=auto and Chromium at SVC_BROWSER_PATH. */
export function browserAvailable(settings: Pick<CrawlSettings, "browser" | "browserPath">): boolean {
  return settings.browser === "auto" && existsSync(settings.browserPath);
}
