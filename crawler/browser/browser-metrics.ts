// Lab metrics of a page in headless Chromium (playwright-core driving Debian's chromium): FCP, LCP,
// CLS, TBT, TTFB, DOMContentLoaded, load, requests and bytes, measured the way
// web-measurement-notes.md cross-checked against Lighthouse (observers registered before any page
// script, LCP waited for, CLS as the largest session window, TBT as blocking time after FCP).
//
// One browser, launched on first use; one page at a time by default (on a small machine the
// metrics inflate with parallelism); a fresh context per page (cold cache, as Lighthouse); a fixed
// viewport; no CPU or network throttling (figures compare with Lighthouse's
// --throttling-method=provided). The egress rules hold for everything the page loads: each request
// is admitted by context.route (the site's own origin; other origins only as the third-party
// setting allows; never an address the egress guard refuses), and every connection goes through
// browser-proxy.ts, which dials the address it admitted.
import { randomBytes } from "node:crypto";
// Types only here: playwright-core costs about 80 MB resident once loaded, which a node that never
// renders (SVC_BROWSER=off, no Chromium) must not pay; it is loaded at the first launch.
import type { Browser, BrowserContext, Route } from "playwright-core";
import { BrowserMetrics } from "../../proto/index.ts";
import { startEgressProxy, type AdmitTarget } from "./browser-proxy.ts";
import type { Egress, ResolvedAddress } from "../fetch/egress.ts";

/** Chromium's flags for lab runs (web-measurement-notes.md; /dev/shm is small in containers). */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  // WebRTC could otherwise send UDP past the proxy.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
]);

/** Lighthouse's screen emulations (config/constants.js): mobile is its default (a Moto G Power). */
export const VIEWPORTS = Object.freeze({
  mobile: Object.freeze({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true }),
  desktop: Object.freeze({ width: 1350, height: 940, deviceScaleFactor: 1, isMobile: false }),
});
export type ViewportName = keyof typeof VIEWPORTS;

export type ThirdPartyPolicy = "auto" | "none" | "all";

export interface BrowserPoolOptions {
  readonly executablePath: string;
  /** One measurement, navigation to settled, at most this long. */
  readonly timeoutMs: number;
  /** Requests to other origins: auto (only hosts `externalAllowed` accepts), none, or all. */
  readonly thirdParty: ThirdPartyPolicy;
  readonly externalAllowed: (hostname: string) => boolean;
  /** Pages measured at once (default 1). */
  readonly concurrency?: number;
  /** Appended to Chromium's user agent so that sites can tell the visit apart. */
  readonly userAgentToken?: string;
}

export interface MeasureOptions {
  readonly viewport?: ViewportName;
  /** Quiet time (no long task, layout shift or new LCP candidate) after load before reading; default 1000 ms. */
  readonly settleMs?: number;
  readonly signal?: AbortSignal;
}

export interface BrowserPool {
  /** Loads `url` once and returns its metrics; a page that cannot be measured gives `error`, never a throw. */
  measurePage(url: string, options?: MeasureOptions): Promise<BrowserMetrics>;
  close(): Promise<void>;
}

export interface LayoutShift {
  readonly t: number;
  readonly v: number;
  readonly input: boolean;
}

export interface LongTask {
  readonly t: number;
  readonly d: number;
}

/** Chromium flags shifts within 500 ms of the emulated viewport change as "recent input" (crbug 1094974). */
const RECENT_INPUT_WINDOW_MS = 500;

/**
 * CLS: the largest session window of shifts (gap < 1 s, window < 5 s). Shifts with recent input do
 * not count, except — as Lighthouse's CumulativeLayoutShift reads the trace — those within 500 ms of
 * navigation start before any shift without the flag: with mobile emulation Chromium flags them
 * although nobody touched the page.
 */
export function cumulativeLayoutShift(shifts: readonly LayoutShift[]): number {
  let best = 0;
  let current = 0;
  let windowStart = Number.NEGATIVE_INFINITY;
  let previous = Number.NEGATIVE_INFINITY;
  let respectInput = false;
  for (const s of [...shifts].sort((a, b) => a.t - b.t)) {
    if (s.input && (respectInput || s.t > RECENT_INPUT_WINDOW_MS)) continue;
    if (!s.input) respectInput = true;
    if (s.t - previous > 1000 || s.t - windowStart > 5000) {
      current = 0;
      windowStart = s.t;
    }
    current += s.v;
    previous = s.t;
    best = Math.max(best, current);
  }
  return best;
}

const BLOCKING_THRESHOLD_MS = 50;

/** TBT as Lighthouse clips it (TBTUtils.js): each long task cut to [fcp, end], the part over 50 ms. */
export function totalBlockingTime(tasks: readonly LongTask[], fcpMs: number, endMs = Number.POSITIVE_INFINITY): number {
  let sum = 0;
  for (const { t, d } of tasks) {
    if (d < BLOCKING_THRESHOLD_MS || t + d < fcpMs || t > endMs) continue;
    const clipped = Math.min(t + d, endMs) - Math.max(t, fcpMs);
    if (clipped >= BLOCKING_THRESHOLD_MS) sum += clipped - BLOCKING_THRESHOLD_MS;
  }
  return sum;
}

/** What the observers collect in the page (a random global name, so that the page cannot guess it). */
interface Observed {
  fcp: number | null;
  lcp: number | null;
  lcpEl: string;
  shifts: LayoutShift[];
  longtasks: LongTask[];
  last: number;
}

function observerScript(key: string): string {
  return `(() => {
  const m = { fcp: null, lcp: null, lcpEl: "", shifts: [], longtasks: [], last: 0 };
  Object.defineProperty(window, ${JSON.stringify(key)}, { value: m, enumerable: false });
  const po = (type, cb) => { try { new PerformanceObserver((l) => l.getEntries().forEach(cb)).observe({ type, buffered: true }); } catch {} };
  const seen = (t) => { m.last = Math.max(m.last, t); };
  po("paint", (e) => { if (e.name === "first-contentful-paint") m.fcp = e.startTime; });
  po("largest-contentful-paint", (e) => { m.lcp = e.startTime; m.lcpEl = e.element ? e.element.tagName : ""; seen(e.startTime); });
  po("layout-shift", (e) => { m.shifts.push({ t: e.startTime, v: e.value, input: e.hadRecentInput }); seen(e.startTime); });
  po("longtask", (e) => { m.longtasks.push({ t: e.startTime, d: e.duration }); seen(e.startTime + e.duration); });
})();`;
}

interface Reading extends Observed {
  ttfb: number | null;
  dcl: number | null;
  load: number | null;
}

const LCP_WAIT_MS = 3000;
const DEFAULT_SETTLE_MS = 1000;

/** A pool of one lazily launched Chromium; close() ends it. */
export function createBrowserPool(options: BrowserPoolOptions, deps: { readonly egress: Pick<Egress, "resolve"> }): BrowserPool {
  let browser: Promise<Browser> | null = null;
  let closed = false;
  const slots = new Slots(Math.max(1, options.concurrency ?? 1));

  const launch = (): Promise<Browser> => {
    if (browser) return browser;
    const launching: Promise<Browser> = import("playwright-core").then(({ chromium }) => chromium.launch({ executablePath: options.executablePath, headless: true, args: [...CHROMIUM_ARGS], timeout: options.timeoutMs })).then((b) => {
      // A crashed browser is launched again next time.
      b.on("disconnected", () => void (browser === launching && (browser = null)));
      return b;
    });
    launching.catch(() => void (browser === launching && (browser = null)));
    browser = launching;
    return launching;
  };

  return {
    async measurePage(url, measure = {}) {
      const started = Date.now();
      const viewportName = measure.viewport ?? "mobile";
      const v = VIEWPORTS[viewportName];
      const viewport = `${viewportName} ${v.width}x${v.height} @${v.deviceScaleFactor}x`;
      const release = await slots.take();
      try {
        if (closed) throw new Error("browser pool closed");
        const b = await launch();
        // The deadline runs from here: waiting for the slot or the launch is not the page's time.
        const run = { ...options, viewport: viewportName, settleMs: measure.settleMs ?? DEFAULT_SETTLE_MS, signal: measure.signal, started: Date.now() };
        const metrics = await measureOnce(b, url, run, deps.egress);
        return BrowserMetrics.fromPartial({ ...metrics, url, viewport, durationMs: Date.now() - started });
      } catch (err) {
        return BrowserMetrics.fromPartial({ url, viewport, error: describe(err), durationMs: Date.now() - started });
      } finally {
        release();
      }
    },
    async close() {
      closed = true;
      const b = browser;
      browser = null;
      if (b) await b.then((x) => x.close()).catch(() => undefined);
    },
  };
}

interface Run extends BrowserPoolOptions {
  readonly viewport: ViewportName;
  readonly settleMs: number;
  readonly signal: AbortSignal | undefined;
  readonly started: number;
}

async function measureOnce(browser: Browser, url: string, run: Run, egress: Pick<Egress, "resolve">): Promise<Partial<BrowserMetrics>> {
  const page0 = new URL(url);
  if (page0.protocol !== "http:" && page0.protocol !== "https:") throw new Error(`not an http(s) URL: ${url}`);
  const left = () => Math.max(1, run.started + run.timeoutMs - Date.now());
  const counts = { blocked: 0, requests: 0, bytes: 0 };
  const admit = admitter(page0, run, egress);
  const proxy = await startEgressProxy(admit, { connectTimeoutMs: Math.min(10_000, run.timeoutMs) });
  let context: BrowserContext | null = null;
  const abort = () => void context?.close().catch(() => undefined);
  run.signal?.addEventListener("abort", abort, { once: true });
  try {
    run.signal?.throwIfAborted();
    const v = VIEWPORTS[run.viewport];
    const userAgent = userAgentFor(browser.version(), run.viewport, run.userAgentToken);
    context = await browser.newContext({
      viewport: { width: v.width, height: v.height },
      deviceScaleFactor: v.deviceScaleFactor,
      isMobile: v.isMobile,
      hasTouch: v.isMobile,
      userAgent,
      serviceWorkers: "block", // a service worker's fetches would bypass context.route
      // Certificates are judged by the TLS checks; the metrics are measured even behind a private CA
      // (SVC_EXTRA_CA_FILE), which Chromium does not know.
      ignoreHTTPSErrors: true,
      acceptDownloads: false,
      proxy: { server: proxy.server, username: proxy.username, password: proxy.password },
    });
    const pending: Promise<unknown>[] = [];
    context.on("requestfinished", (request) => {
      counts.requests += 1;
      pending.push(request.sizes().then((s) => void (counts.bytes += s.responseHeadersSize + s.responseBodySize), () => undefined));
    });
    await context.route("**/*", (route) => routeRequest(route, admit, counts));
    const key = `__svc_${randomBytes(8).toString("hex")}`;
    await context.addInitScript(observerScript(key));
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load", timeout: left() });
    // LCP is often not reported yet at load on a fast page (web-measurement-notes.md).
    const m = `window[${JSON.stringify(key)}]`;
    await page.waitForFunction(`${m}.lcp !== null`, undefined, { polling: "raf", timeout: Math.min(LCP_WAIT_MS, left()) }).catch(() => undefined);
    const loadEnd = `(performance.getEntriesByType("navigation")[0]?.loadEventEnd ?? 0)`;
    await page
      .waitForFunction(`performance.now() - Math.max(${m}.last, ${loadEnd}) >= ${run.settleMs}`, undefined, { polling: 100, timeout: left() })
      .catch(() => undefined); // still busy at the deadline: read what there is
    const reading = await page.evaluate<Reading>(`(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const at = (x) => (x !== undefined && x > 0 ? x : null);
      return { ...${m}, ttfb: at(nav?.responseStart), dcl: at(nav?.domContentLoadedEventStart), load: at(nav?.loadEventStart) };
    })()`);
    await Promise.all(pending);
    return toMetrics(reading, counts);
  } finally {
    run.signal?.removeEventListener("abort", abort);
    await context?.close().catch(() => undefined);
    await proxy.close();
  }
}

function toMetrics(r: Reading, counts: { blocked: number; requests: number; bytes: number }): Partial<BrowserMetrics> {
  const round = (x: number) => Math.round(x * 10) / 10;
  const out: Partial<BrowserMetrics> = {
    cls: Math.round(cumulativeLayoutShift(r.shifts) * 10_000) / 10_000,
    requests: counts.requests,
    transferBytes: counts.bytes,
    blockedRequests: counts.blocked,
    lcpElement: r.lcpEl,
  };
  if (r.fcp !== null) {
    out.fcpMs = round(r.fcp);
    out.tbtMs = round(totalBlockingTime(r.longtasks, r.fcp));
  }
  if (r.lcp !== null) out.lcpMs = round(r.lcp);
  if (r.ttfb !== null) out.ttfbMs = round(r.ttfb);
  if (r.dcl !== null) out.domContentLoadedMs = round(r.dcl);
  if (r.load !== null) out.loadMs = round(r.load);
  return out;
}

/**
 * The egress rules of one measured page, as one function that both context.route and the proxy ask:
 * the page's own host (on its port, or on 80/443: the http and https of the same site) always, other
 * hosts as the third-party setting allows, and in every case only addresses the egress guard
 * accepts (resolved once per host and measurement).
 */
function admitter(page: URL, run: Pick<Run, "thirdParty" | "externalAllowed">, egress: Pick<Egress, "resolve">): AdmitTarget {
  const own = { hostname: page.hostname.replace(/^\[|\]$/g, "").toLowerCase(), port: Number(page.port || (page.protocol === "https:" ? 443 : 80)) };
  const resolved = new Map<string, Promise<ResolvedAddress>>();
  return (hostname, port) => {
    const name = hostname.toLowerCase();
    const firstParty = name === own.hostname && (port === own.port || port === 80 || port === 443);
    const allowed = firstParty || run.thirdParty === "all" || (run.thirdParty === "auto" && run.externalAllowed(name));
    if (!allowed) return Promise.reject(new ThirdPartyRefused(name));
    let address = resolved.get(name);
    if (!address) resolved.set(name, (address = egress.resolve(name)));
    return address;
  };
}

class ThirdPartyRefused extends Error {
  constructor(host: string) {
    super(`${host} is not the site's origin`);
  }
}

async function routeRequest(route: Route, admit: AdmitTarget, counts: { blocked: number }): Promise<void> {
  const url = new URL(route.request().url());
  if (url.protocol !== "http:" && url.protocol !== "https:") return route.continue();
  try {
    await admit(url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || (url.protocol === "https:" ? 443 : 80)));
  } catch {
    // Refused (blocked address, third party) or unresolvable: the page sees a failed request.
    counts.blocked += 1;
    return route.abort("blockedbyclient").catch(() => undefined);
  }
  return route.continue().catch(() => undefined);
}

/** Lighthouse's emulated user agents, on this Chromium's version, with Svc's token appended. */
function userAgentFor(version: string, viewport: ViewportName, token: string | undefined): string {
  const chrome = `Chrome/${version.split(".")[0] ?? "0"}.0.0.0`;
  const base =
    viewport === "mobile"
      ? `Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Mobile Safari/537.36`
      : `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Safari/537.36`;
  return token ? `${base} ${token}` : base;
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0]?.slice(0, 300) ?? "measurement failed";
}

/** A counting semaphore: at most `n` holders at once, served in order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(n: number) {
    this.free = n;
  }
  async take(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}
