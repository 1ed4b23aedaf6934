// A whole-site crawl: breadth-first over the site's own links and sitemap URLs, robots.txt and
// Crawl-delay honoured, 429/503 turned into pauses (Retry-After) rather than failures, bounded by
// page, depth and time limits and by trap rules. Every fetched URL becomes a CrawledPage (parsed on
// the parse pool) and is handed to `store` in batches: the stored pages are the crawl's checkpoint,
// and a crawl given them back in `resume` continues where they end.
import { performance } from "node:perf_hooks";
import { strictKey } from "../analyzer/index.ts";
import { CrawledPage, type ExternalLinkCheck, type RobotsFacts } from "../proto/index.ts";
import type { SampledPage } from "./collect-site.ts";
import { crawledPageFrom } from "./crawled-page.ts";
import type { Egress } from "./egress.ts";
import { fetchUrl, responseHeader, type FetchResult } from "./fetch-page.ts";
import { HostLimiter } from "./host-limiter.ts";
import type { ParsePool } from "./parse-pool.ts";
import { crawlDelaySeconds, isAllowed, ROBOTS_MAX_BYTES, robotsFacts } from "./robots.ts";
import { collectSitemaps, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from "./sitemaps.ts";

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
}

export const DEFAULT_CRAWL_LIMITS: CrawlLimits = Object.freeze({
  maxPages: 500,
  maxDepth: 10,
  maxDurationMs: 30 * 60_000,
  maxPerPattern: 100,
  maxUrlLength: 2000,
  maxQueryParameters: 10,
  maxSegmentRepeats: 3,
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
  /** Batch size of `store`. */
  readonly storeEvery: number;
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
  readonly pages: CrawledPage[];
  readonly sitemapUrls: string[];
  readonly truncatedBy: string;
  readonly traps: { pattern: string; example: string; urls: number }[];
  readonly external: ExternalLinkCheck[];
  readonly politeness: { delayMs: number; connections: number; throttled: number; retryAfterWaitS: number };
  readonly durationMs: number;
}

/** Unlinked (sitemap-only) URLs: fetched after every linked one, their depth unknown. */
const UNLINKED = Number.POSITIVE_INFINITY;
const NOT_PAGES = /\.(jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|zip|gz|tgz|rar|7z|mp[34]|webm|ogg|wav|avi|mov|css|js|mjs|woff2?|ttf|eot|exe|dmg|apk)$/i;
const MAX_THROTTLES_PER_URL = 10;
/** Query parameters that carry a session id (a new URL per visit). */
const SESSION_PARAMETERS: ReadonlySet<string> = new Set(["sid", "sessionid", "session_id", "session", "phpsessid", "jsessionid", "sessid", "aspsessionid", "cfid", "cftoken", "zenid", "osc_sid"]);
const ROBOTS_ATTEMPTS = 5;

interface Entry {
  readonly url: string;
  depth: number;
  started: boolean;
  throttles: number;
}

export async function crawlSite(input: CrawlSiteInput, opts: CrawlOptions, deps: CrawlDeps): Promise<CrawlOutcome> {
  const started = performance.now();
  const origin = new URL(input.origin);
  const originHost = origin.host;
  const limiter = deps.limiter ?? new HostLimiter({ maxConcurrent: opts.connections, minDelayMs: opts.minDelayMs });
  const politeness = { delayMs: 0, connections: opts.connections, throttled: 0, retryAfterWaitS: 0 };
  const robots = await usableRobots(input, opts, deps, limiter, politeness);
  const delayMs = Math.max(opts.minDelayMs, Math.min(opts.maxCrawlDelayMs, robots ? crawlDelaySeconds(robots, opts.userAgent) * 1000 : 0));
  limiter.setDelay(originHost, delayMs);
  politeness.delayMs = delayMs;
  const { limits } = opts;

  const stored = new Map<string, CrawledPage>();
  const known = new Map<string, Entry>();
  const buckets = new Map<number, Entry[]>();
  const inflightByDepth = new Map<number, number>();
  const patterns = new Map<string, number>();
  const traps = new Map<string, { pattern: string; example: string; urls: number }>();
  const skippedRecords: CrawledPage[] = [];
  let batch: CrawledPage[] = [];
  let storing: Promise<void> = Promise.resolve();
  let fetched = 0;
  let truncatedBy = "";
  const truncate = (why: string) => {
    if (!truncatedBy) truncatedBy = why;
  };

  const failed: { error?: Error } = {};
  const flush = (force: boolean) => {
    if (batch.length === 0 || (!force && batch.length < opts.storeEvery)) return;
    const out = batch;
    batch = [];
    const progress = { done: stored.size, known: Math.min(known.size, limits.maxPages) };
    // A failed store ends the crawl (the attempt is retried from what was stored), never the process.
    storing = storing.then(() => deps.store(out, progress)).catch((err: unknown) => {
      failed.error ??= err instanceof Error ? err : new Error(String(err));
    });
  };
  const record = (page: CrawledPage) => {
    stored.set(page.url, page);
    batch.push(page);
    flush(false);
  };

  const skip = (url: string, depth: number, why: string) => {
    if (known.has(url) || stored.has(url)) return;
    known.set(url, { url, depth, started: true, throttles: 0 });
    const page = CrawledPage.fromPartial({ url, finalUrl: url, depth: Number.isFinite(depth) ? depth : -1, skipped: why });
    skippedRecords.push(page);
    record(page);
  };

  const trapOf = (url: URL): string | null => {
    if (url.href.length > limits.maxUrlLength) return "long URL";
    const names = [...url.searchParams.keys()];
    if (names.length > limits.maxQueryParameters) return "too many parameters";
    if (new Set(names).size < names.length) return "repeated parameter";
    const segments = url.pathname.split("/").filter(Boolean);
    const counts = new Map<string, number>();
    for (const s of segments) counts.set(s, (counts.get(s) ?? 0) + 1);
    if ([...counts.values()].some((n) => n >= limits.maxSegmentRepeats)) return "repeated path segment";
    // Session ids make every visit a new URL: counted site-wide, by parameter.
    const session = names.find((n) => SESSION_PARAMETERS.has(n.toLowerCase()));
    if (session !== undefined) {
      const key = `session:${session.toLowerCase()}`;
      const n = (patterns.get(key) ?? 0) + 1;
      patterns.set(key, n);
      if (n > limits.maxPerPattern) return `more than ${limits.maxPerPattern} URLs with the session parameter ${session}`;
    }
    // Generated families: numbered paths (/calendar/2026/11) and parameter variations of one path.
    const numeric = segments.filter((s) => /^\d+$/.test(s)).length;
    if (numeric >= 2 || names.length > 0) {
      const key = `${segments.map((s) => (/^\d+$/.test(s) ? "N" : s)).join("/")}?${[...names].sort().join("&")}`;
      const n = (patterns.get(key) ?? 0) + 1;
      patterns.set(key, n);
      if (n > limits.maxPerPattern) return `more than ${limits.maxPerPattern} URLs of /${key}`;
    }
    return null;
  };

  const offer = (url: string, depth: number) => {
    const existing = known.get(url);
    if (existing) {
      if (!existing.started && depth < existing.depth) {
        existing.depth = depth;
        push(existing);
      }
      return;
    }
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    if (u.host !== originHost || u.protocol !== origin.protocol) return;
    if (NOT_PAGES.test(u.pathname)) return;
    if (!robotsAllow(robots, opts.userAgent, u)) return skip(url, depth, "robots");
    const trap = trapOf(u);
    if (trap) {
      const t = traps.get(trap) ?? { pattern: trap, example: url, urls: 0 };
      t.urls += 1;
      traps.set(trap, t);
      truncate("trap");
      return skip(url, depth, "trap");
    }
    if (depth > limits.maxDepth && Number.isFinite(depth)) {
      truncate("depth_limit");
      return;
    }
    const entry: Entry = { url, depth, started: false, throttles: 0 };
    known.set(url, entry);
    push(entry);
  };
  const offerUnlinked = (url: string) => {
    if (!known.has(url) && !stored.has(url)) offer(url, UNLINKED);
  };
  const push = (entry: Entry) => {
    const list = buckets.get(entry.depth) ?? [];
    list.push(entry);
    buckets.set(entry.depth, list);
  };

  /**
   * The next URL in breadth-first order. A URL of depth d starts only when no page shallower than
   * d − 1 is still being fetched: such a page could still find it at a smaller depth.
   */
  const nextEntry = (): Entry | null | "wait" => {
    const depths = [...buckets.keys()].sort((a, b) => a - b);
    for (const d of depths) {
      const list = buckets.get(d) as Entry[];
      while (list.length > 0 && ((list[0] as Entry).started || (list[0] as Entry).depth !== d)) list.shift();
      if (list.length === 0) {
        buckets.delete(d);
        continue;
      }
      for (const [fd, n] of inflightByDepth) if (n > 0 && fd < d - 1) return "wait";
      return list.shift() as Entry;
    }
    return null;
  };

  // Resume: what a previous attempt stored is done; its links are the frontier again.
  for (const page of deps.resume ?? []) {
    stored.set(page.url, page);
    known.set(page.url, { url: page.url, depth: page.depth < 0 ? UNLINKED : page.depth, started: true, throttles: 0 });
    if (!page.skipped) fetched += 1;
  }
  const homeUrl = strictKey(`${input.origin}/`) as string;
  if (!stored.has(homeUrl)) offer(homeUrl, 0);
  for (const page of deps.resume ?? []) {
    const depth = page.depth < 0 ? UNLINKED : page.depth;
    for (const link of page.internalLinks) if (!page.nofollowInternal.includes(link)) offer(link, Number.isFinite(depth) ? depth + 1 : UNLINKED);
    // What a stored page led to besides its links: its redirect's target and its canonical.
    const target = page.redirects[page.redirects.length - 1]?.location ?? "";
    if (target && new URL(target).host === originHost) offer(target, depth);
    if (page.canonical && page.canonical !== page.url && page.canonical !== page.finalUrl) offerUnlinked(page.canonical);
  }

  const sitemapUrls = await listSitemapUrls({ ...input, robots }, opts, deps, limiter, originHost);
  const sitemapSet = new Set(sitemapUrls);

  const externalToCheck = new Map<string, ExternalLinkCheck>();

  /** The analysis's fetch of a URL when it is an HTML page answered 2xx without redirects (anything else is fetched as the crawl would). */
  const reusable = async (url: string): Promise<SampledPage | null> => {
    const sampled = deps.sampled?.(url);
    if (!sampled) return null;
    const s = await sampled.catch(() => null);
    const res = s?.result.response;
    return s && res && res.status >= 200 && res.status < 300 && res.redirects.length === 0 && !res.error && s.extraction.facts.isHtml ? s : null;
  };

  const fetchOne = async (entry: Entry): Promise<void> => {
    // A page the analysis alongside fetched for its sample is not fetched and parsed again.
    const shared = await reusable(entry.url);
    const r: FetchResult = shared?.result ?? await limiter.run(originHost, () =>
      fetchUrl(entry.url, {
        dispatcher: deps.egress.dispatcher,
        userAgent: opts.userAgent,
        timeoutMs: opts.timeoutMs,
        maxBodyBytes: opts.maxBodyBytes,
        maxRedirects: opts.maxRedirects,
        ...(deps.signal ? { signal: deps.signal } : {}),
        followRedirect: (target) => new URL(target).host === originHost,
        // The parse thread decodes the body: the bytes move there without a copy, not a string.
        decodeText: false,
      }).then((res) => {
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
    deps.signal?.throwIfAborted();
    const status = r.response.status;
    if ((status === 429 || status === 503) && entry.throttles < MAX_THROTTLES_PER_URL && (status === 429 || responseHeader(r.response, "retry-after") !== "")) {
      // A request to slow down, not a failure: the URL goes back to the queue untouched.
      entry.throttles += 1;
      entry.started = false;
      push(entry);
      return;
    }
    fetched += 1;
    const depth = Number.isFinite(entry.depth) ? entry.depth : -1;
    // A redirect is not a page: its target is fetched as a URL of its own (at the same depth).
    const redirected = r.response.redirects.length > 0;
    const pageInput = { url: entry.url, depth, response: r.response, originHost, origin: input.origin, site: input.site, checkedAt: input.checkedAt };
    const page = shared ? crawledPageFrom(pageInput, shared.extraction) : await deps.pool.page({ ...pageInput, html: "", ...(redirected ? {} : { body: r.body }) });
    page.throttled = entry.throttles;
    page.inSitemap = sitemapSet.has(entry.url);
    record(page);
    const linkDepth = Number.isFinite(entry.depth) ? entry.depth + 1 : UNLINKED;
    const nofollow = new Set(page.nofollowInternal);
    for (const link of page.internalLinks) if (!nofollow.has(link)) offer(link, linkDepth);
    // A redirect's internal target is a URL of the site too.
    if (redirected) {
      const target = r.response.redirects[r.response.redirects.length - 1]?.location ?? "";
      if (target && new URL(target).host === originHost) offer(target, Number.isFinite(entry.depth) ? entry.depth : UNLINKED);
    }
    // A canonical target on the site is checked (fetched once) even when nothing links to it.
    if (page.canonical && page.canonical !== page.url && page.canonical !== page.finalUrl) offerUnlinked(page.canonical);
    for (const link of page.externalLinks) {
      if (externalToCheck.size >= opts.maxExternalChecks || externalToCheck.has(link.href)) continue;
      if (opts.externalAllowed(new URL(link.href).hostname)) externalToCheck.set(link.href, { url: link.href, status: 0, error: "" });
    }
  };

  for (const url of sitemapUrls) offer(url, UNLINKED);

  // The crawl loop: up to `connections` fetches at once, in breadth-first order.
  const inflight = new Set<Promise<void>>();
  for (;;) {
    deps.signal?.throwIfAborted();
    if (failed.error) throw failed.error;
    if (performance.now() - started > limits.maxDurationMs) {
      truncate("time_limit");
      break;
    }
    const next = fetched + inflight.size >= limits.maxPages ? null : nextEntry();
    if (next && next !== "wait") {
      next.started = true;
      const d = next.depth;
      inflightByDepth.set(d, (inflightByDepth.get(d) ?? 0) + 1);
      const p: Promise<void> = fetchOne(next)
        .catch((err: unknown) => {
          failed.error ??= err instanceof Error ? err : new Error(String(err));
        })
        .finally(() => {
          inflightByDepth.set(d, (inflightByDepth.get(d) ?? 1) - 1);
          inflight.delete(p);
          deps.onProgress?.(stored.size, Math.min(known.size, limits.maxPages));
        });
      inflight.add(p);
      if (inflight.size < Math.max(1, opts.connections)) continue;
    }
    if (inflight.size === 0) {
      if (next === null && fetched >= limits.maxPages && hasQueued(buckets)) truncate("page_limit");
      break;
    }
    await Promise.race(inflight);
  }
  throwIfFailed(failed);

  const external = await checkExternal([...externalToCheck.values()], opts, deps);
  flush(true);
  await storing;
  throwIfFailed(failed);
  return {
    pages: [...stored.values()],
    sitemapUrls,
    truncatedBy,
    traps: [...traps.values()],
    external,
    politeness: { ...politeness, retryAfterWaitS: Math.round(politeness.retryAfterWaitS * 10) / 10 },
    durationMs: Math.round(performance.now() - started),
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

function throwIfFailed(failed: { error?: Error }): void {
  if (failed.error) throw failed.error;
}

function hasQueued(buckets: Map<number, Entry[]>): boolean {
  for (const list of buckets.values()) if (list.some((e) => !e.started)) return true;
  return false;
}

/** Every URL of the site's sitemaps (robots.txt Sitemap lines, else /sitemap.xml), indexes followed. */
async function listSitemapUrls(input: CrawlSiteInput, opts: CrawlOptions, deps: CrawlDeps, limiter: HostLimiter, originHost: string): Promise<string[]> {
  const roots = input.robots && input.robots.sitemaps.length > 0 ? input.robots.sitemaps : [`${input.origin}/sitemap.xml`];
  const facts = await collectSitemaps(
    roots,
    (url) =>
      limiter.run(new URL(url).host, () =>
        fetchUrl(url, { dispatcher: deps.egress.dispatcher, userAgent: opts.userAgent, timeoutMs: opts.timeoutMs, maxBodyBytes: SITEMAP_MAX_BYTES, maxRedirects: 5, ...(deps.signal ? { signal: deps.signal } : {}) }),
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

/** RFC 9309 §2.3.1: an unreachable robots.txt (5xx, network) means "disallow all"; 4xx means "allow all". */
function robotsAllow(robots: RobotsFacts | undefined, userAgent: string, url: URL): boolean {
  const r = robots?.response;
  if (!robots || !r) return true;
  if ((r.error !== "" && r.error !== "too_large") || r.status >= 500 || r.status === 429) return false;
  return isAllowed(robots, userAgent, url.pathname + url.search);
}
