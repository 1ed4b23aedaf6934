import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { Clock, CrawlSettings } from "../runtime/index.ts";
import { createBrowserPool, type BrowserPool } from "./browser-metrics.ts";
import { collectSiteFacts, type SampledPage, type SiteKnown } from "./collect-site.ts";
import { HostLimiter } from "./host-limiter.ts";
import { createEgress, EgressBlockedError, type Egress } from "./egress.ts";
import type { ClassifyFailure, CollectFacts, CrawlWholeSite, SingleChecks } from "./worker.ts";
import { crawlSite, DEFAULT_CRAWL_LIMITS } from "./crawl-site.ts";
import { inlineParsePool, threadParsePool } from "./parse-pool.ts";
import { CrawlResult, RobotsFacts } from "../proto/index.ts";
import { unixSeconds } from "../runtime/index.ts";
import { collectDnsFacts } from "./dns-facts.ts";
import { extractPage } from "./extract.ts";
import { fetchUrl } from "./fetch-page.ts";
import { collectTlsFacts } from "./tls-facts.ts";

/** The longest confirmation delay of a synchronous check (GET /analyze). */
export const SYNC_CONFIRM_MAX_MS = 5000;

export interface SiteCollector {
  readonly collect: CollectFacts;
  readonly crawl: CrawlWholeSite;
  readonly checks: SingleChecks;
  readonly classify: ClassifyFailure;
  /** Resolves once the parse threads have loaded: the node takes work after that. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The crawler node's collection, configured from the operator's settings (one egress for all of it). */
export function createSiteCollector(settings: CrawlSettings & { allowPrivateTargets: boolean; extraCa: string | null }, clock: Clock): SiteCollector {
  const egress = createEgress({
    allowPrivateTargets: settings.allowPrivateTargets,
    dnsServers: settings.dnsServers,
    extraCa: settings.extraCa,
    connectTimeoutMs: Math.min(10_000, settings.fetchTimeoutMs),
  });
  const pool = settings.parseThreads > 0 ? threadParsePool(settings.parseThreads, settings.parseWarmUpPages) : inlineParsePool();
  const externalAllowed = (hostname: string) => settings.egressAllow.some((pattern) => hostMatches(hostname, pattern));
  const browser = browserPoolFor(settings, egress, externalAllowed);
  const collectOptions = (politeness: Politeness, pageSample: number, sync: boolean) => ({
    userAgent: settings.userAgent,
    maxPages: pageSample,
    maxConnectionsPerHost: politeness.connectionsPerHost,
    minDelayMs: politeness.minDelayMs,
    maxCrawlDelayMs: settings.crawlDelayCapSeconds * 1000,
    timeoutMs: settings.fetchTimeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    // A synchronous caller waits at most SVC_SYNC_WAIT_MS: its second look comes sooner.
    confirmDelayMs: sync ? Math.min(settings.confirmDelayMs, SYNC_CONFIRM_MAX_MS) : settings.confirmDelayMs,
  });
  const randomHex = (n: number) => randomBytes(n).toString("hex");
  return {
    collect: async (host, { pageSample, sync, onProgress, signal }) => {
      const politeness = await politenessFor(host, settings, egress);
      return collectSiteFacts(
        host,
        collectOptions(politeness, pageSample, sync),
        // The synchronous lane has a deadline a browser run would eat into: no browser metrics there.
        { egress, clock, randomHex, onProgress, signal, parse: pool.extract, ...(browser && !sync ? { browser } : {}) },
      );
    },
    crawl: async ({ jobId, host, pageSample, maxPages, maxDepth, resume, store, onProgress, signal }) => {
      const politeness = await politenessFor(host, settings, egress);
      // The analysis and the crawl run at once on one limiter: together they keep to the host's politeness.
      const limiter = new HostLimiter({ maxConcurrent: politeness.connectionsPerHost, minDelayMs: politeness.minDelayMs });
      // A failed analysis stops the crawl (and its error is the attempt's); an aborted job stops both.
      const stop = new AbortController();
      const both = AbortSignal.any([signal, stop.signal]);
      let crawling = false;
      let known!: (site: SiteKnown) => void;
      // The analysis's sample pages, as their fetches start: the crawl takes them instead of fetching again.
      const sampled = new Map<string, Promise<SampledPage>>();
      const siteKnown = new Promise<SiteKnown>((resolve) => (known = resolve));
      const facts = collectSiteFacts(host, collectOptions(politeness, pageSample, false), {
        egress,
        clock,
        randomHex,
        parse: pool.extract,
        signal: both,
        limiter,
        onSiteKnown: known,
        onSamplePage: (url, page) => void sampled.set(url, page),
        // The analysis is the first tenth of a crawl's progress, until the crawl reports its own.
        onProgress: (p, step) => {
          if (!crawling) onProgress(Math.round(p / 10), step);
        },
        ...(browser ? { browser } : {}),
      });
      facts.catch((err: unknown) => stop.abort(err));
      // The crawl starts from the origin and robots.txt the analysis found (or, should it end
      // before telling, from its facts).
      const crawlOutcome = Promise.race([siteKnown, facts.then((f) => ({ origin: f.origin, robots: f.robots ?? RobotsFacts.fromPartial({}), checkedAt: f.checkedAt }))]).then((start) =>
        crawlSite(
          { site: host, origin: start.origin, robots: start.robots, checkedAt: start.checkedAt },
          {
            userAgent: settings.userAgent,
            connections: politeness.connectionsPerHost,
            minDelayMs: politeness.minDelayMs,
            maxCrawlDelayMs: settings.crawlDelayCapSeconds * 1000,
            timeoutMs: settings.fetchTimeoutMs,
            maxBodyBytes: settings.maxBodyBytes,
            maxRedirects: settings.maxRedirects,
            limits: { ...DEFAULT_CRAWL_LIMITS, maxPages, maxDepth, maxDurationMs: settings.crawlMaxMinutes * 60_000, maxPerPattern: settings.crawlMaxPerPattern },
            externalAllowed,
            maxExternalChecks: 200,
            maxRetryAfterMs: 60_000,
            storeEvery: 50,
          },
          {
            egress,
            pool,
            signal: both,
            limiter,
            // Taken once: the crawl starts each URL once, and the analysis keeps its facts itself.
            sampled: (url) => {
              const page = sampled.get(url);
              sampled.delete(url);
              return page;
            },
            store,
            resume,
            onProgress: (done, total) => {
              crawling = true;
              onProgress(10 + Math.floor((85 * done) / Math.max(1, total)), "crawling");
            },
          },
        ),
      );
      crawlOutcome.catch((err: unknown) => stop.abort(err));
      const [siteFacts, outcome] = await Promise.all([facts, crawlOutcome]);
      const analysis = await pool.analyze({
        jobId,
        crawledAt: unixSeconds(clock),
        pages: outcome.pages,
        sitemapUrls: outcome.sitemapUrls,
        truncatedBy: outcome.truncatedBy,
        traps: outcome.traps,
        external: outcome.external,
        politeness: outcome.politeness,
        durationMs: outcome.durationMs,
      });
      return CrawlResult.fromPartial({
        facts: { ...siteFacts, crawl: analysis.findings },
        reportJson: JSON.stringify(analysis.report),
        pageStats: analysis.pageStats,
      });
    },
    checks: {
      async page(url, signal) {
        // Refused targets end the check (bad_host); any other failure is recorded in the facts.
        await refuseBlocked(egress, new URL(url).hostname.replace(/^\[|\]$/g, ""));
        const res = await fetchUrl(url, {
          dispatcher: egress.dispatcher,
          userAgent: settings.userAgent,
          timeoutMs: settings.fetchTimeoutMs,
          maxBodyBytes: settings.maxBodyBytes,
          maxRedirects: settings.maxRedirects,
          signal,
        });
        return extractPage({ url: res.response.finalUrl || url, response: res.response, html: res.text }).facts;
      },
      async tls(host) {
        const { hostname, port } = splitHost(host);
        await refuseBlocked(egress, hostname);
        return collectTlsFacts(hostname, port ?? 443, egress, { timeoutMs: Math.min(10_000, settings.fetchTimeoutMs) });
      },
      dns: (host) => collectDnsFacts(splitHost(host).hostname, { dnsServers: settings.dnsServers, timeoutMs: 3000 }),
    },
    classify: (err) => {
      if (err instanceof EgressBlockedError) return { error: err.reason, detail: err.message, retryable: false };
      // Unreachable sites are recorded in the facts; what throws is unexpected, and worth another attempt.
      return { error: "collect_failed", detail: (err as Error).message ?? String(err), retryable: true };
    },
    ready: () => pool.ready(),
    close: async () => {
      await browser?.close();
      await pool.close();
      await egress.close();
    },
  };
}

/** The browser of the metrics when SVC_BROWSER=auto and the executable exists (launched on first use). */
function browserPoolFor(settings: CrawlSettings, egress: Egress, externalAllowed: (hostname: string) => boolean): BrowserPool | null {
  if (settings.browser !== "auto" || !existsSync(settings.browserPath)) return null;
  return createBrowserPool(
    {
      executablePath: settings.browserPath,
      timeoutMs: settings.browserTimeoutMs,
      thirdParty: settings.browserThirdParty,
      externalAllowed,
      userAgentToken: settings.userAgent,
    },
    { egress },
  );
}

function splitHost(host: string): { hostname: string; port: number | null } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(host);
  return { hostname: m?.[1] ?? host, port: m?.[2] ? Number(m[2]) : null };
}

interface Politeness {
  readonly connectionsPerHost: number;
  readonly minDelayMs: number;
}

/**
 * The politeness for a host: the first operator override whose name matches the host, or whose
 * network holds the host's address; otherwise the defaults.
 */
export async function politenessFor(
  host: string,
  settings: Pick<CrawlSettings, "connectionsPerHost" | "minDelayMs" | "overrides">,
  egress: Pick<Egress, "resolve">,
): Promise<Politeness> {
  const name = splitHost(host).hostname.toLowerCase();
  let address: string | null = null;
  for (const o of settings.overrides) {
    if (o.match.includes("/")) {
      address ??= isIP(name) !== 0 ? name : await egress.resolve(name).then((a) => a.address, () => "");
      if (address && inNetwork(address, o.match)) return o;
    } else if (o.match === name || (o.match.startsWith("*.") && name.endsWith(o.match.slice(1)))) return o;
  }
  return { connectionsPerHost: settings.connectionsPerHost, minDelayMs: settings.minDelayMs };
}

/** A host name against a pattern: the name itself, *.domain (the domain and its subdomains) or a CIDR (address literals). */
function hostMatches(hostname: string, pattern: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (pattern.includes("/")) return isIP(name) !== 0 && inNetwork(name, pattern);
  if (pattern.startsWith("*.")) return name === pattern.slice(2) || name.endsWith(pattern.slice(1));
  return name === pattern;
}

function inNetwork(address: string, cidr: string): boolean {
  try {
    const ip = ipaddr.process(address);
    const [net, bits] = ipaddr.parseCIDR(cidr);
    return ip.kind() === net.kind() && ip.match(net, bits);
  } catch {
    return false;
  }
}

/** Throws when the target resolves only to refused addresses; a name that does not resolve is left to the fetch to record. */
async function refuseBlocked(egress: Pick<Egress, "resolve">, hostname: string): Promise<void> {
  try {
    await egress.resolve(hostname);
  } catch (err) {
    if (err instanceof EgressBlockedError) throw err;
  }
}
