import { isIP } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { getDomain } from "tldts";
import { capTriggers, confirmationInputs } from "../../analyzer/index.ts";
import { Confirmation, RobotsFacts, SiteFacts, type BrowserMetrics, type HttpResponse, type PageFacts, type SecurityTxtFields, type WebManifestFacts } from "../../proto/index.ts";
import { unixSeconds, type Clock } from "../../runtime/index.ts";
import type { BrowserPool } from "../browser/browser-pool.ts";
import type { ProfileName } from "../browser/profiles.ts";
import { fetchSocialImages, socialImageUrls } from "./social-images.ts";
import { collectDnsFacts } from "./dns-facts.ts";
import { EgressBlockedError, type Egress } from "../fetch/egress.ts";
import { extractPage, type Extraction, type ExtractInput } from "../page/extract.ts";
import { DEFAULT_USER_AGENT, fetchUrl, type FetchOptions, type FetchResult } from "../fetch/fetch-page.ts";
import { HostLimiter } from "../fetch/host-limiter.ts";
import type { FetchMetrics } from "../fetch/fetch-metrics.ts";
import { samplePages } from "./page-sample.ts";
import { crawlDelaySeconds, isAllowed, robotsFacts } from "./robots.ts";
import { parseSecurityTxt } from "./security-txt.ts";
import { collectSitemaps, SITEMAP_MAX_BYTES } from "./sitemaps.ts";
import { detectTechnologies } from "../page/tech-detect.ts";
import { collectTlsFacts } from "./tls-facts.ts";
import { MANIFEST_MAX_BYTES, parseWebManifest } from "./web-manifest.ts";

export interface CollectOptions {
  readonly userAgent: string;
  /** Internal pages sampled besides the home page. */
  readonly maxPages: number;
  /** Link hops from the home page that are followed. */
  readonly maxDepth: number;
  /** The site's watched pages: sampled first (within maxPages), so that the watchdog sees them each time. */
  readonly watchUrls: readonly string[];
  readonly maxConnectionsPerHost: number;
  readonly minDelayMs: number;
  /** robots.txt Crawl-delay is honoured up to this. */
  readonly maxCrawlDelayMs: number;
  /** Per fetch, redirects included. */
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly tlsTimeoutMs: number;
  readonly dnsTimeoutMs: number;
  /**
   * When the collection would cap the rank, the inputs of those caps are observed again this long
   * after it (seo-anchors §3.4: a cap counts only when confirmed); 0 looks again at once.
   */
  readonly confirmDelayMs: number;
}

export const DEFAULT_COLLECT_OPTIONS: CollectOptions = Object.freeze({
  userAgent: DEFAULT_USER_AGENT,
  maxPages: 20,
  maxDepth: 2,
  watchUrls: [],
  maxConnectionsPerHost: 4,
  minDelayMs: 0,
  maxCrawlDelayMs: 5000,
  timeoutMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  tlsTimeoutMs: 10_000,
  dnsTimeoutMs: 3000,
  confirmDelayMs: 0,
});

export type ProgressCallback = (progress: number, step: string) => void;

export interface CollectDeps {
  readonly egress: Egress;
  readonly clock: Clock;
  /** `bytes` random bytes as hex (the not-found probe's path). */
  readonly randomHex: (bytes: number) => string;
  readonly onProgress?: ProgressCallback;
  /** Abandons the collection (rejecting with the signal's reason). */
  readonly signal?: AbortSignal;
  /** Measures pages in a browser (after the sample); absent: no browser metrics. */
  readonly browser?: Pick<BrowserPool, "measurePage">;
  /** What to measure with it: how many pages, which profiles (the first profile's home page feeds the rank). */
  readonly browserPlan?: BrowserPlan;
  /** Why there is no browser (recorded as the facts' browser_state): off, absent or sync. */
  readonly noBrowserReason?: string;
  /** Whether another host than the site's may be fetched (a social card's image on a CDN); default: none. */
  readonly externalAllowed?: (hostname: string) => boolean;
  /** Paces the fetches; shared with a crawl that runs alongside, so that the host's politeness holds for both. */
  readonly limiter?: HostLimiter;
  /** Called once the origin and robots.txt are known (a crawl can start from them). */
  readonly onSiteKnown?: (site: SiteKnown) => void;
  /** Called as each sample page's fetch starts, with its outcome to come (a crawl alongside reuses it). */
  readonly onSamplePage?: (url: string, page: Promise<SampledPage>) => void;
  /** Parses a fetched page (the crawler node's parse threads); absent: on the calling thread. */
  readonly parse?: (input: ExtractInput) => Promise<Extraction>;
  /** The node's fetch metrics (absent: not counted). */
  readonly metrics?: FetchMetrics;
}

export interface BrowserPlan {
  readonly pages: number;
  readonly profiles: readonly ProfileName[];
}

/** A sample page as fetched and parsed by the analysis. */
export interface SampledPage {
  readonly result: FetchResult;
  readonly extraction: Extraction;
}

/** What a whole-site crawl starts from: the origin the site answers on and its robots.txt. */
export interface SiteKnown {
  readonly origin: string;
  readonly robots: RobotsFacts;
  /** Unix seconds: when the collection started. */
  readonly checkedAt: number;
}

interface Site {
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly fetch: (url: string, extra?: Partial<FetchOptions>) => Promise<FetchResult>;
  readonly limiter: HostLimiter;
  readonly opts: CollectOptions;
  readonly deps: CollectDeps;
  readonly progress: ProgressCallback;
}

/**
 * Collects what the analyzer needs to judge a site: the home page and its variants, robots.txt,
 * sitemaps, probes, TLS and DNS, and a polite sample of internal pages. `host` is a host or
 * host:port (then only that origin is tried). Throws EgressBlockedError when the site's address is
 * not allowed; every other failure is recorded in the facts.
 */
export async function collectSiteFacts(host: string, options: Partial<CollectOptions>, deps: CollectDeps): Promise<SiteFacts> {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<CollectOptions>;
  const opts: CollectOptions = { ...DEFAULT_COLLECT_OPTIONS, ...given };
  const site = openSite(host, opts, deps);
  const checkedAt = unixSeconds(deps.clock);
  site.progress(0, "home");
  await refuseBlocked(site);
  const { home, httpsAttempt } = await fetchHome(site);
  deps.signal?.throwIfAborted();
  const origin = new URL(home.response.status > 0 ? home.response.finalUrl : home.response.requestedUrl).origin;
  const parse = deps.parse ?? (async (input: ExtractInput) => extractPage(input));
  const homePage = await parse({ url: home.response.finalUrl, response: home.response, html: home.text, depth: 0 });
  deps.signal?.throwIfAborted();
  site.progress(10, "home");

  const prelim = preliminaries(site, origin, home, homePage, httpsAttempt);
  if (deps.onSiteKnown) {
    const known = deps.onSiteKnown;
    void prelim.robots.then((robots) => known({ origin, robots, checkedAt }), () => undefined);
  }
  const [robots, sitemaps] = await Promise.all([prelim.robots, prelim.sitemaps]);
  const pages = await samplePages({
    home: homePage.facts,
    sitemapUrls: sitemaps.filter((s) => !s.isIndex).flatMap((s) => s.sampleUrls),
    firstUrls: opts.watchUrls,
    originHost: new URL(origin).host,
    maxPages: opts.maxPages,
    maxDepth: opts.maxDepth,
    concurrency: opts.maxConnectionsPerHost,
    allowed: (url) => robotsAllow(robots, opts.userAgent, url),
    fetchPage: async (url) => {
      const sampled = site.fetch(url).then(async (r): Promise<SampledPage> => {
        deps.signal?.throwIfAborted();
        return { result: r, extraction: await parse({ url: r.response.finalUrl, response: r.response, html: r.text }) };
      });
      deps.onSamplePage?.(url, sampled);
      return (await sampled).extraction.facts;
    },
    onPage: (done) => site.progress(40 + Math.round((55 * done) / Math.max(1, opts.maxPages)), "pages"),
  });
  deps.signal?.throwIfAborted();
  const measured = await measurePages(site, homePage, pages);
  const socialImages = await fetchSocialImages(socialImageUrls([homePage.facts, ...pages]), (url) => site.fetch(url), (url) => url.hostname === new URL(origin).hostname || (deps.externalAllowed?.(url.hostname) ?? false));
  const facts = SiteFacts.fromPartial({
    host,
    origin,
    checkedAt,
    home: homePage.facts,
    pages,
    robots,
    sitemaps,
    tls: await prelim.tls,
    dns: await prelim.dns,
    httpVariant: await prelim.httpVariant,
    wwwVariant: await prelim.wwwVariant,
    notFoundProbe: await prelim.notFound,
    securityTxt: await prelim.securityTxt,
    securityTxtFields: await prelim.securityTxtFields,
    favicon: await prelim.favicon,
    manifest: await prelim.manifest,
    browser: measured.rankInput,
    browserPages: measured.pages,
    browserState: measured.state,
    socialImages,
    technologies: detectTechnologies({ generator: homePage.generator, headers: home.response.headers, scriptSrcs: homePage.scriptSrcs }),
  });
  facts.confirmation = await lookAgain(site, facts, { origin, home, httpsAttempt });
  site.progress(100, "done");
  return facts;
}

/**
 * Browser metrics of the home page and of the sample pages with the most internal links to them
 * (HTML pages that answered 2xx), in each profile, one after another, alone on the machine (after
 * the sample's fetches). The first profile's home page is the rank's input.
 */
async function measurePages(site: Site, homePage: Extraction, sample: readonly PageFacts[]): Promise<{ state: string; pages: BrowserMetrics[]; rankInput: BrowserMetrics | undefined }> {
  const { browser, signal } = site.deps;
  if (!browser) return { state: site.deps.noBrowserReason ?? "off", pages: [], rankInput: undefined };
  const homeUrl = measurable(homePage.facts);
  if (!homeUrl) return { state: "not_html", pages: [], rankInput: undefined };
  const plan = site.deps.browserPlan ?? { pages: 1, profiles: ["mobile"] };
  const urls = [homeUrl, ...mostLinked([homePage.facts, ...sample], homeUrl, plan.pages - 1)];
  site.progress(95, "browser");
  const pages: BrowserMetrics[] = [];
  for (const url of urls) {
    for (const profile of plan.profiles) {
      pages.push(await browser.measurePage(url, { viewport: profile, ...(signal ? { signal } : {}) }));
      signal?.throwIfAborted();
    }
  }
  return { state: "measured", pages, rankInput: pages[0] };
}

/** The URL a browser would load for a page, when it is HTML that answered 2xx. */
function measurable(page: PageFacts): string | null {
  const r = page.response;
  if (!r || r.status < 200 || r.status >= 300 || !page.isHtml) return null;
  return r.finalUrl || r.requestedUrl;
}

/** The `n` measurable sample pages with the most internal links to them (ties: sample order). */
export function mostLinked(pages: readonly PageFacts[], homeUrl: string, n: number): string[] {
  if (n <= 0) return [];
  const inbound = new Map<string, number>();
  for (const page of pages.filter((p) => measurable(p) !== null)) for (const link of new Set(page.links.filter((l) => l.internal).map((l) => l.href))) inbound.set(link, (inbound.get(link) ?? 0) + 1);
  const candidates = pages.slice(1).flatMap((p, i) => {
    const url = measurable(p);
    return url && url !== homeUrl ? [{ url, links: Math.max(inbound.get(url) ?? 0, inbound.get(p.response?.requestedUrl ?? "") ?? 0), i }] : [];
  });
  const seen = new Set<string>();
  return candidates
    .sort((a, b) => b.links - a.links || a.i - b.i)
    .filter((c) => !seen.has(c.url) && seen.add(c.url))
    .slice(0, n)
    .map((c) => c.url);
}

function openSite(host: string, opts: CollectOptions, deps: CollectDeps): Site {
  const { hostname, port } = splitHost(host);
  const limiter = deps.limiter ?? new HostLimiter({ maxConcurrent: opts.maxConnectionsPerHost, minDelayMs: opts.minDelayMs, ...(deps.metrics ? { onWait: deps.metrics.waited } : {}) });
  let last = 0;
  const progress: ProgressCallback = (value, step) => {
    last = Math.max(last, Math.min(100, Math.round(value)));
    deps.onProgress?.(last, step);
  };
  const fetch = (url: string, extra: Partial<FetchOptions> = {}) =>
    limiter.run(new URL(url).host, () =>
      fetchUrl(url, { dispatcher: deps.egress.dispatcher, userAgent: opts.userAgent, timeoutMs: opts.timeoutMs, maxBodyBytes: opts.maxBodyBytes, ...(deps.signal ? { signal: deps.signal } : {}), ...extra }).then((res) => {
        deps.metrics?.fetched("analysis", res.response);
        return res;
      }),
    );
  return { host, hostname, port, fetch, limiter, opts, deps, progress };
}

/** The site's own address decides whether the job may run at all. */
async function refuseBlocked(site: Site): Promise<void> {
  try {
    await site.deps.egress.resolve(site.hostname);
  } catch (err) {
    if (err instanceof EgressBlockedError) throw err;
    // DNS failures are facts: the home fetch records them.
  }
}

/** https first, then http (on the given port when there is one); the first that answers is the home page. */
async function fetchHome(site: Site): Promise<{ home: FetchResult; httpsAttempt: FetchResult }> {
  const authority = site.port ? `${bracket(site.hostname)}:${site.port}` : bracket(site.hostname);
  const https = await site.fetch(`https://${authority}/`);
  throwIfBlocked(https);
  if (https.response.status > 0) return { home: https, httpsAttempt: https };
  const http = await site.fetch(`http://${authority}/`);
  throwIfBlocked(http);
  return { home: http.response.status > 0 ? http : https, httpsAttempt: https };
}

function throwIfBlocked(r: FetchResult): void {
  if (r.cause instanceof EgressBlockedError) throw r.cause;
}

interface Preliminaries {
  readonly robots: Promise<RobotsFacts>;
  readonly sitemaps: Promise<SiteFacts["sitemaps"]>;
  readonly httpVariant: Promise<HttpResponse | undefined>;
  readonly wwwVariant: Promise<HttpResponse | undefined>;
  readonly notFound: Promise<HttpResponse | undefined>;
  readonly securityTxt: Promise<HttpResponse | undefined>;
  readonly securityTxtFields: Promise<SecurityTxtFields | undefined>;
  readonly favicon: Promise<HttpResponse | undefined>;
  readonly manifest: Promise<WebManifestFacts | undefined>;
  readonly tls: Promise<SiteFacts["tls"]>;
  readonly dns: Promise<SiteFacts["dns"]>;
}

/**
 * Starts every site-level fetch at once (the limiter paces them); each reports progress as it ends.
 * When the home page did not answer at all, the origin's own paths are not tried: they would only
 * time out one after another.
 */
function preliminaries(site: Site, origin: string, home: FetchResult, homePage: Extraction, httpsAttempt: FetchResult): Preliminaries {
  const { opts, deps } = site;
  const originUrl = new URL(origin);
  let finished = 0;
  const step = <T>(name: string, p: Promise<T>): Promise<T> =>
    p.then((v) => {
      site.progress(10 + (30 * ++finished) / 10, name);
      return v;
    });
  const response = (url: string, extra?: Partial<FetchOptions>) => site.fetch(url, extra).then((r) => r.response);
  const reachable = home.response.status > 0;
  const onOrigin = (url: () => string) => (reachable ? response(url()) : Promise.resolve(undefined));

  const robots = step(
    "robots",
    (reachable ? site.fetch(`${origin}/robots.txt`, { maxRedirects: 5 }) : Promise.resolve(null)).then((r) => {
      if (r === null) return RobotsFacts.fromPartial({});
      const facts = robotsFacts(r.response, r.text);
      const delayMs = Math.min(crawlDelaySeconds(facts, opts.userAgent) * 1000, opts.maxCrawlDelayMs);
      site.limiter.setDelay(originUrl.host, delayMs);
      return facts;
    }),
  );
  const sitemaps = step(
    "sitemaps",
    robots.then((r) => {
      if (!reachable) return [];
      const urls = r.sitemaps.length > 0 ? r.sitemaps : [`${origin}/sitemap.xml`];
      return collectSitemaps(urls, (u) => site.fetch(u, { maxBodyBytes: SITEMAP_MAX_BYTES }), { siteHost: originUrl.host });
    }),
  );
  // security.txt is read whole (its Contact and Expires fields); the manifest only when the home page links one.
  const securityTxt = reachable ? site.fetch(`${origin}/.well-known/security.txt`) : Promise.resolve(undefined);
  const manifestHref = homePage.facts.manifestHref;
  const manifest =
    reachable && manifestHref
      ? site.fetch(manifestHref, { maxBodyBytes: MANIFEST_MAX_BYTES }).then((r) => parseWebManifest(manifestHref, r.response, r.body))
      : Promise.resolve(undefined);
  const twin = site.port || isIP(site.hostname) ? null : twinHost(originUrl.hostname);
  const tlsTarget = tlsTargetOf(originUrl, httpsAttempt);
  return {
    robots,
    sitemaps,
    httpVariant: step("http_variant", httpVariant(site, originUrl, home, response)),
    wwwVariant: step("www_variant", twin ? response(`${originUrl.protocol}//${twin}/`) : Promise.resolve(undefined)),
    notFound: step("not_found_probe", onOrigin(() => `${origin}/svc-probe-${deps.randomHex(16)}`)),
    securityTxt: step("security_txt", securityTxt.then((r) => r?.response)),
    securityTxtFields: securityTxt.then((r) => (r?.response.status === 200 ? parseSecurityTxt(r.text || r.body.toString("utf8")) : undefined)),
    favicon: step("favicon", onOrigin(() => homePage.facts.faviconHref || `${origin}/favicon.ico`)),
    manifest: step("manifest", manifest),
    tls: step("tls", tlsFacts(site, tlsTarget)),
    dns: step("dns", dnsFacts(site)),
  };
}

/** TLS is always examined where https was (or would be) served: a refused or broken handshake is a fact too. */
function tlsTargetOf(originUrl: URL, httpsAttempt: FetchResult): URL {
  return originUrl.protocol === "https:" ? originUrl : new URL(httpsAttempt.response.requestedUrl);
}

function tlsFacts(site: Site, target: URL): Promise<SiteFacts["tls"]> {
  const { opts, deps } = site;
  return site.limiter.run(target.host, () => collectTlsFacts(unbracket(target.hostname), Number(target.port || 443), deps.egress, { timeoutMs: opts.tlsTimeoutMs }));
}

function dnsFacts(site: Site): Promise<SiteFacts["dns"]> {
  return collectDnsFacts(site.hostname, { dnsServers: site.deps.egress.options.dnsServers, timeoutMs: site.opts.dnsTimeoutMs });
}

/**
 * The second look (seo-anchors §3.4): when the facts would cap the rank (the analyzer's own
 * definition), waits confirmDelayMs and observes again only the inputs of those caps. Healthy sites
 * pay nothing: done is false and nothing is fetched.
 */
async function lookAgain(site: Site, facts: SiteFacts, first: { origin: string; home: FetchResult; httpsAttempt: FetchResult }): Promise<Confirmation> {
  const triggers = capTriggers(facts);
  if (triggers.length === 0) return Confirmation.fromPartial({ done: false });
  const inputs = new Set(confirmationInputs(triggers));
  const { opts, deps } = site;
  // The job shows what it waits for and until when (a minute at 96 % looked like a hang).
  const until = new Date(deps.clock.nowMs() + opts.confirmDelayMs).toISOString().replace(/\.\d{3}Z$/, "Z");
  site.progress(96, `confirm: ${triggers.map((t) => t.code).join(", ")} would cap the rank; looking again at ${until}`);
  await pause(opts.confirmDelayMs, deps.signal);
  const originUrl = new URL(first.origin);
  const plainIsHome = originUrl.protocol === "http:" && !site.port;
  const needHome = inputs.has("home") || (inputs.has("httpVariant") && plainIsHome);
  const home = needHome ? site.fetch(first.home.response.requestedUrl).then((r) => (throwIfBlocked(r), r)) : undefined;
  const homeResponse = home?.then((r) => r.response);
  const refetch = (url: string) => site.fetch(url).then((r) => r.response);
  const [again, robots, tls, dns, httpVariantAgain] = await Promise.all([
    inputs.has("home") ? home : undefined,
    inputs.has("robots") ? site.fetch(`${first.origin}/robots.txt`, { maxRedirects: 5 }).then((r) => robotsFacts(r.response, r.text)) : undefined,
    inputs.has("tls") ? tlsFacts(site, tlsTargetOf(originUrl, first.httpsAttempt)) : undefined,
    inputs.has("dns") ? dnsFacts(site) : undefined,
    inputs.has("httpVariant") ? (plainIsHome ? homeResponse : httpVariant(site, originUrl, first.home, refetch)) : undefined,
  ]);
  deps.signal?.throwIfAborted();
  const page = again ? extractPage({ url: again.response.finalUrl || again.response.requestedUrl, response: again.response, html: again.text, depth: 0 }).facts : undefined;
  return Confirmation.fromPartial({
    done: true,
    delayMs: opts.confirmDelayMs,
    home: again?.response,
    robots,
    tls,
    dns,
    httpVariant: httpVariantAgain,
    homeMetaRobots: page?.metaRobots ?? "",
    homeXRobotsTag: page?.xRobotsTag ?? "",
  });
}

/** Waits, abandoned with the signal's reason when it aborts. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms > 0) {
    try {
      await sleep(ms, undefined, signal ? { signal } : {});
    } catch (err) {
      signal?.throwIfAborted();
      throw err;
    }
  }
  signal?.throwIfAborted();
}

/** http:// of the host (none with an explicit port; the home page itself when the site is http only). */
function httpVariant(site: Site, originUrl: URL, home: FetchResult, fetch: (url: string) => Promise<HttpResponse>): Promise<HttpResponse | undefined> {
  if (site.port) return Promise.resolve(undefined);
  if (originUrl.protocol === "http:") return Promise.resolve(home.response);
  return fetch(`http://${bracket(site.hostname)}/`);
}

/** RFC 9309 §2.3.1: an unreachable robots.txt (5xx, network) means "disallow all"; 4xx means "allow all". */
function robotsAllow(robots: RobotsFacts, userAgent: string, url: string): boolean {
  const r = robots.response;
  if (!r || (r.error !== "" && r.error !== "too_large") || r.status >= 500 || r.status === 429) return false;
  const u = new URL(url);
  return isAllowed(robots, userAgent, u.pathname + u.search);
}

/** The www/non-www twin of an apex or www host; null for other subdomains (they have no twin). */
function twinHost(hostname: string): string | null {
  const domain = getDomain(hostname, { allowPrivateDomains: true });
  if (!domain) return null;
  if (hostname === domain) return `www.${domain}`;
  if (hostname === `www.${domain}`) return domain;
  return null;
}

function splitHost(host: string): { hostname: string; port: string } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (v6) return { hostname: v6[1] as string, port: v6[2] ?? "" };
  const m = /^([^:]+)(?::(\d+))?$/.exec(host);
  if (!m) return { hostname: host, port: "" };
  return { hostname: (m[1] as string).toLowerCase(), port: m[2] ?? "" };
}

function unbracket(hostname: string): string {
  return hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
}

function bracket(hostname: string): string {
  return isIP(hostname) === 6 ? `[${hostname}]` : hostname;
}
