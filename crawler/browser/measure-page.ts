// One page load in a fresh browser context: observers registered before any page script, load,
// wait for LCP and quiet, read the metrics and the rendered DOM, then one scripted click on a real
// input for INP. The egress rules hold for everything the page loads: every connection goes through
// fetch/egress-proxy.ts (loopback included: Playwright proxies it too), opened for the page by the
// pool's PageProxies (page-proxies.ts: on a thread of its own in a crawler node), which admits the
// target (the site's own origin; other origins only as the third-party setting allows; never an
// address the egress guard refuses) and dials the address it admitted. No request is paused in Node on the way
// (context.route would add a round trip to every request and inflate TTFB, FCP and LCP against
// Lighthouse's: bench:browser). The caller (browser-pool.ts) owns the deadline and the browser.
import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { BrowserThrottling, RenderedDom, ResourceBytes, type BrowserMetrics } from "../../proto/index.ts";
import { cumulativeLayoutShift, interactionToNextPaint, resourceGroup, totalBlockingTime, type InteractionEvent, type LayoutShift, type LongTask, type ThirdPartyPolicy } from "./browser-metrics.ts";
import { MAX_TRACE_EVENTS, TRACE_CATEGORIES, traceEventKept, type TraceEvent } from "./lantern.ts";
import type { LanternRunner } from "./lantern-runner.ts";
import { appliedThrottling, networkConditions, userAgentFor, type AppliedThrottling, type Profile } from "./profiles.ts";
import type { PageProxies } from "./page-proxies.ts";

export interface PageRun {
  readonly url: string;
  readonly profile: Profile;
  /** The network and CPU throttling to apply (profiles.ts: appliedThrottling). */
  readonly throttling: AppliedThrottling;
  readonly thirdParty: ThirdPartyPolicy;
  readonly userAgentToken: string | undefined;
  /** Quiet time (no long task, layout shift, new LCP candidate or request ending, at most 2 in flight) after load before reading. */
  readonly settleMs: number;
  /** Click one real input for INP. */
  readonly interact: boolean;
  /** Absolute deadline (ms since the epoch). */
  readonly deadline: number;
  /** Dialogs dismissed before the page is abandoned. */
  readonly maxDialogs: number;
  /** Windows the page may open before it is abandoned. */
  readonly maxPopups: number;
  /** Main-frame navigations (redirect or reload loops) before the page is abandoned. */
  readonly maxNavigations: number;
}

/** The page did something that ends its measurement (too many dialogs, popups or navigations). */
export class PageAbandonedError extends Error {
  constructor(readonly reason: "deadline" | "dialogs" | "popups" | "navigations") {
    super(`page abandoned: ${reason === "deadline" ? "it did not finish within the deadline" : `too many ${reason}`}`);
    this.name = "PageAbandonedError";
  }
}

/** The renderer or the browser crashed under the page. */
export class BrowserCrashedError extends Error {
  constructor(readonly process: CrashedProcess) {
    super(`the ${process} crashed`);
    this.name = "BrowserCrashedError";
  }
}

/** Which process of Chromium crashed under a page. */
export type CrashedProcess = "renderer" | "browser";

/** A measurement in progress: its result, and a way to stop it (closing its context). */
export interface Measurement {
  readonly result: Promise<Partial<BrowserMetrics>>;
  /** Resolves with the abandonment or crash that ends the page early (never rejects). */
  readonly interrupted: Promise<Error>;
  close(): Promise<void>;
}

interface Observed {
  fcp: number | null;
  lcp: number | null;
  lcpEl: string;
  shifts: LayoutShift[];
  longtasks: LongTask[];
  events: InteractionEvent[];
  last: number;
}

interface Reading extends Observed {
  ttfb: number | null;
  dcl: number | null;
  load: number | null;
  dom: number;
  blocking: string[];
}

/** The observers, under a random global name the page cannot guess. */
function observerScript(key: string): string {
  return `(() => {
  const m = { fcp: null, lcp: null, lcpEl: "", shifts: [], longtasks: [], events: [], last: 0 };
  Object.defineProperty(window, ${JSON.stringify(key)}, { value: m, enumerable: false });
  const po = (type, cb, extra) => { try { new PerformanceObserver((l) => l.getEntries().forEach(cb)).observe({ type, buffered: true, ...extra }); } catch {} };
  const seen = (t) => { m.last = Math.max(m.last, t); };
  const name = (e) => e ? e.tagName + (e.id ? "#" + e.id : "") : "";
  po("paint", (e) => { if (e.name === "first-contentful-paint") m.fcp = e.startTime; });
  po("largest-contentful-paint", (e) => { m.lcp = e.startTime; m.lcpEl = name(e.element); seen(e.startTime); });
  po("layout-shift", (e) => { m.shifts.push({ t: e.startTime, v: e.value, input: e.hadRecentInput }); seen(e.startTime); });
  po("longtask", (e) => { m.longtasks.push({ t: e.startTime, d: e.duration }); seen(e.startTime + e.duration); });
  po("event", (e) => { if (e.interactionId) m.events.push({ id: e.interactionId, d: e.duration }); }, { durationThreshold: 16 });
})();`;
}

/** What search engines see after JavaScript: read in the page, counted as the raw extractor counts. */
const RENDERED_SCRIPT = `(() => {
  const HIDDEN = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE", "SVG", "IFRAME"]);
  const words = (t) => (t.match(/[\\p{L}\\p{N}][^\\s]*/gu) || []).length;
  const abs = (h) => { try { const u = new URL(h, document.baseURI); u.hash = ""; return u.href; } catch { return ""; } };
  const collapse = (t) => (t || "").replace(/\\s+/g, " ").trim();
  const metas = (n) => [...document.querySelectorAll("meta[name]")].filter((x) => x.name.toLowerCase() === n).map((x) => x.content);
  let all = "";
  const walk = (node) => {
    for (const c of node.childNodes) {
      if (c.nodeType === 3) all += c.data + " ";
      else if (c.nodeType === 1 && !HIDDEN.has(c.tagName.toUpperCase())) walk(c);
    }
  };
  if (document.body) walk(document.body);
  const visible = document.body ? document.body.innerText : "";
  const types = new Set();
  const addType = (t) => { if (typeof t === "string" && t) types.add(t.replace(/^https?:\\/\\/schema\\.org\\//, "")); else if (Array.isArray(t)) t.forEach(addType); };
  const visit = (v) => { if (Array.isArray(v)) v.forEach(visit); else if (v && typeof v === "object") { addType(v["@type"]); if (v["@graph"]) visit(v["@graph"]); } };
  for (const s of document.querySelectorAll('script[type="application/ld+json"]')) { try { visit(JSON.parse(s.textContent)); } catch {} }
  for (const e of document.querySelectorAll("[itemtype]")) for (const t of e.getAttribute("itemtype").split(/\\s+/)) addType(t);
  const canonical = document.querySelector('link[rel~="canonical" i]');
  const total = words(collapse(all));
  return {
    present: true,
    title: collapse(document.title),
    metaDescription: collapse(metas("description")[0] || ""),
    canonical: canonical ? abs(canonical.getAttribute("href") || "") : "",
    metaRobots: ["robots", "googlebot", "yandex"].flatMap(metas).join(", ").toLowerCase(),
    headings: [...document.querySelectorAll("h1,h2,h3")].slice(0, 50).map((h) => ({ level: Number(h.tagName[1]), text: collapse(h.textContent).slice(0, 200) })),
    links: [...new Set([...document.querySelectorAll("a[href]")].map((a) => abs(a.getAttribute("href"))).filter((h) => /^https?:/.test(h)))].slice(0, 500),
    wordCount: total,
    schemaTypes: [...types],
    hiddenWords: Math.max(0, total - words(collapse(visible))),
  };
})()`;

/** Marks the first real input a user could click (no link, no form submission) and returns its name. */
const PICK_INPUT_SCRIPT = (attr: string) => `(() => {
  const cands = document.querySelectorAll('button, [role="button"], summary, input[type="checkbox"], input[type="radio"], [onclick]');
  for (const el of cands) {
    if (el.closest("a[href]") || el.disabled) continue;
    if (el.tagName === "BUTTON" && el.form && (el.getAttribute("type") || "submit").toLowerCase() === "submit") continue;
    el.scrollIntoView({ block: "center" });
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || st.visibility === "hidden" || st.display === "none") continue;
    el.setAttribute(${JSON.stringify(attr)}, "1");
    return el.tagName + (el.id ? "#" + el.id : "");
  }
  return "";
})()`;

const LCP_WAIT_MS = 3000;
const INP_WAIT_MS = 1500;

/**
 * Starts measuring one page in a fresh context of `browser`. The measurement ends by itself; the
 * pool races `result` with `interrupted` and its deadline, and calls close() in every case.
 */
export async function startMeasurement(browser: Browser, run: PageRun, proxies: PageProxies, lantern: LanternRunner): Promise<Measurement> {
  const page0 = new URL(run.url);
  if (page0.protocol !== "http:" && page0.protocol !== "https:") throw new Error(`not an http(s) URL: ${run.url}`);
  const counts = { blocked: 0, requests: 0, bytes: 0, dialogs: 0, popups: 0, navigations: 0 };
  const byType = new Map<string, { requests: number; bytes: number }>();
  // The proxy is the one gate: every connection of the page is admitted there (or refused, counted).
  const proxy = await proxies.open({ url: run.url, thirdParty: run.thirdParty, connectTimeoutMs: Math.min(10_000, Math.max(1000, run.deadline - Date.now())) });
  let interrupt: (err: Error) => void = () => undefined;
  const interrupted = new Promise<Error>((resolve) => (interrupt = resolve));
  let context: BrowserContext | null = null;
  // The browser's one trace, while this page holds it (simulated runs): given back by the trace's
  // end, or by close() when the page ends before it.
  let traceTurn: (() => void) | null = null;
  const close = async () => {
    await context?.close().catch(() => undefined);
    traceTurn?.();
    await proxy.close();
  };
  try {
    const p = run.profile;
    context = await browser.newContext({
      viewport: { width: p.width, height: p.height },
      deviceScaleFactor: p.deviceScaleFactor,
      isMobile: p.mobile,
      hasTouch: p.mobile,
      userAgent: userAgentFor(browser.version(), p, run.userAgentToken),
      serviceWorkers: "block", // a service worker's fetches would bypass context.route
      // Certificates are judged by the TLS checks; the metrics are measured even behind a private CA.
      ignoreHTTPSErrors: true,
      acceptDownloads: false,
      proxy: { server: proxy.server }, // no credentials: fetch/egress-proxy.ts says why
    });
  } catch (err) {
    await close();
    throw err;
  }
  const ctx = context;
  const pending: Promise<unknown>[] = [];
  // The network's part of "quiet": a request started after load (an image inserted by script, a
  // lazy load) may end, and paint the LCP, later than the page's last observed event, above all
  // under throttling, where each request waits 562.5 ms on mobile. A request in flight longer than
  // LONG_REQUEST_MS (a long poll, a stream) no longer holds the run.
  const network: NetworkActivity = { inflight: new Map(), lastMs: Date.now() };
  ctx.on("request", (request) => {
    network.inflight.set(request, Date.now());
    network.lastMs = Date.now();
  });
  const ended = (request: object) => {
    network.inflight.delete(request);
    network.lastMs = Date.now();
  };
  ctx.on("requestfailed", ended);
  ctx.on("requestfinished", ended);
  ctx.on("requestfinished", (request) => {
    counts.requests += 1;
    const group = resourceGroup(request.resourceType());
    pending.push(
      request.sizes().then((s) => {
        const n = s.responseHeadersSize + s.responseBodySize;
        counts.bytes += n;
        const entry = byType.get(group) ?? { requests: 0, bytes: 0 };
        entry.requests += 1;
        entry.bytes += n;
        byType.set(group, entry);
      }, () => undefined),
    );
  });
  let main: Page | null = null;
  // Popups are closed at once; a page that keeps opening them is abandoned.
  ctx.on("page", (opened) => {
    if (main === null || opened === main) return;
    counts.popups += 1;
    void opened.close().catch(() => undefined);
    if (counts.popups > run.maxPopups) interrupt(new PageAbandonedError("popups"));
  });
  const result = (async (): Promise<Partial<BrowserMetrics>> => {
    const key = `__svc_${randomBytes(8).toString("hex")}`;
    await ctx.addInitScript(observerScript(key));
    const page = await ctx.newPage();
    main = page;
    page.on("crash", () => interrupt(new BrowserCrashedError("renderer")));
    page.on("dialog", (dialog) => {
      counts.dialogs += 1;
      void dialog.dismiss().catch(() => undefined);
      if (counts.dialogs > run.maxDialogs) interrupt(new PageAbandonedError("dialogs"));
    });
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame()) return;
      counts.navigations += 1;
      if (counts.navigations > run.maxNavigations) interrupt(new PageAbandonedError("navigations"));
    });
    const cdp = await ctx.newCDPSession(page);
    await throttle(cdp, run.throttling);
    const { painted } = await watchFirstContentfulPaint(cdp);
    let tracing: Tracing | null = null;
    if (run.throttling.method === "simulate") {
      traceTurn = await turnToTrace(browser);
      tracing = await startTrace(cdp, traceTurn);
    }
    const left = () => Math.max(1, run.deadline - Date.now());
    await page.goto(run.url, { waitUntil: "load", timeout: left() });
    // Nothing runs in the page before its first contentful paint: Playwright's first evaluation
    // compiles its injected script on the page's main thread, which on a fast page fires load before
    // the first frame and pushed FCP (and an LCP equal to it) 15-300 ms later than Lighthouse's,
    // which reads a trace and touches no page until the load is over (bench:browser).
    // One budget for both waits: a page that never paints content costs LCP_WAIT_MS once.
    const paintBy = Date.now() + Math.min(LCP_WAIT_MS, left());
    await Promise.race([painted, delay(paintBy - Date.now())]);
    const m = `window[${JSON.stringify(key)}]`;
    // LCP is often not reported yet at load on a fast page (web-measurement-notes.md). Until the
    // load is read, the page is asked through the protocol (Runtime.evaluate of one expression), not
    // through Playwright, whose first evaluation compiles its injected script on the page's main
    // thread: a task Lighthouse's trace does not have, which a simulated 4x slower CPU turned into
    // tens of milliseconds of TBT on pages without a script (bench:browser).
    for (;;) {
      if ((await pageValue<boolean>(cdp, `${m}.lcp !== null`).catch(() => false)) || Date.now() >= paintBy) break;
      await delay(Math.min(LCP_POLL_MS, Math.max(1, paintBy - Date.now())));
    }
    const loadEnd = `(performance.getEntriesByType("navigation")[0]?.loadEventEnd ?? 0)`;
    await settle(cdp, `performance.now() - Math.max(${m}.last, ${loadEnd})`, network, run.settleMs, run.deadline);
    // The trace ends with the load's quiet, as Lighthouse's does: the click below is not part of it.
    const traceBatches = tracing ? await tracing.end() : null;
    // TBT and the DOM are read before the click: the click's own task must not count.
    const reading = await page.evaluate<Reading>(`(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const at = (x) => (x !== undefined && x > 0 ? x : null);
      const blocking = performance.getEntriesByType("resource").filter((e) => e.renderBlockingStatus === "blocking").map((e) => e.name).slice(0, 20);
      return { ...${m}, events: [], ttfb: at(nav?.responseStart), dcl: at(nav?.domContentLoadedEventStart), load: at(nav?.loadEventStart), dom: document.getElementsByTagName("*").length, blocking };
    })()`);
    const rendered = RenderedDom.fromPartial(await page.evaluate<Partial<RenderedDom>>(RENDERED_SCRIPT));
    const interaction = run.interact ? await interact(page, m, left) : { inp: null, target: "" };
    await Promise.all(pending);
    counts.blocked = await proxy.blocked();
    const out = toMetrics(reading, counts, byType);
    if (traceBatches) Object.assign(out, await simulated(lantern, traceBatches, run, out));
    if (interaction.inp !== null) out.inpMs = Math.round(interaction.inp * 10) / 10;
    out.inpTarget = interaction.target;
    out.rendered = rendered;
    return out;
  })();
  result.catch(() => undefined);
  return { result, interrupted, close };
}

/** One trusted click on the first real input; INP from its Event Timing entries. */
async function interact(page: Page, m: string, left: () => number): Promise<{ inp: number | null; target: string }> {
  const attr = `data-svc-${randomBytes(4).toString("hex")}`;
  const target = await page.evaluate<string>(PICK_INPUT_SCRIPT(attr)).catch(() => "");
  if (!target) return { inp: null, target: "" };
  await page.click(`[${attr}]`, { timeout: Math.min(2000, left()), noWaitAfter: true, force: true }).catch(() => undefined);
  // Event Timing entries arrive after the next paint that follows the handler.
  await page.waitForFunction(`${m}.events.length > 0`, undefined, { polling: 50, timeout: Math.min(INP_WAIT_MS, left()) }).catch(() => undefined);
  const events = await page.evaluate<InteractionEvent[]>(`${m}.events`).catch(() => []);
  return { inp: interactionToNextPaint(events), target };
}

/**
 * Resolves at the main frame's first contentful paint, told by the browser (a lifecycle event), so
 * that waiting for it runs nothing in the page.
 */
async function watchFirstContentfulPaint(cdp: CDPSession): Promise<{ painted: Promise<void> }> {
  const painted = new Promise<void>((resolve) => {
    cdp.on("Page.lifecycleEvent", (e) => {
      if (e.name === "firstContentfulPaint") resolve();
    });
  });
  await cdp.send("Page.enable");
  await cdp.send("Page.setLifecycleEventsEnabled", { enabled: true });
  return { painted };
}

const SETTLE_POLL_MS = 100;
/** How often the page is asked whether it has reported its LCP (Playwright's raf polling ran in the page). */
const LCP_POLL_MS = 25;
const LONG_REQUEST_MS = 10_000;

/** Requests of the page in flight (with the instant each started) and the last start or end. */
interface NetworkActivity {
  readonly inflight: Map<object, number>;
  lastMs: number;
}

/** Whether no request is in flight but long ones, and none started or ended for `settleMs`. */
function networkQuiet(network: NetworkActivity, settleMs: number, now: number): boolean {
  for (const startedAt of network.inflight.values()) if (now - startedAt < LONG_REQUEST_MS) return false;
  return now - network.lastMs >= settleMs;
}

/**
 * Waits until the page has been quiet for `settleMs` (`pageQuietMs`, evaluated in the page: no long
 * task, layout shift or LCP candidate, and load over) and the network too, or until just before
 * the deadline: still busy then, the run reads what there is.
 */
async function settle(cdp: CDPSession, pageQuietMs: string, network: NetworkActivity, settleMs: number, deadline: number): Promise<void> {
  for (;;) {
    const left = deadline - Date.now() - SETTLE_POLL_MS;
    if (left <= 0) return;
    if (networkQuiet(network, settleMs, Date.now())) {
      const quiet = await pageValue<number>(cdp, pageQuietMs).catch(() => Number.POSITIVE_INFINITY);
      if (quiet >= settleMs) return;
    }
    await delay(Math.min(SETTLE_POLL_MS, left));
  }
}

/** The value of one expression in the page's main world, through the protocol: nothing of Playwright's runs in the page. */
async function pageValue<T>(cdp: CDPSession, expression: string): Promise<T> {
  const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", { expression, returnByValue: true });
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  return result.value as T;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Lighthouse's DevTools throttling (core/lib/emulation.js): the network conditions when any is set,
 * the CPU slowdown when it is over 1. An unthrottled or simulated run sends nothing.
 */
async function throttle(cdp: CDPSession, t: AppliedThrottling): Promise<void> {
  if (t.method !== "devtools") return;
  const network = networkConditions(t);
  if (network) {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", network);
  }
  if (t.cpuSlowdown > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: t.cpuSlowdown });
}

/** A trace being recorded on the page's session: end() stops it and resolves with its batches of events as JSON. */
interface Tracing {
  end(): Promise<string[] | null>;
}

/** The browsers' traces: one at a time in each (Chromium's Tracing domain is the browser's: a second start is refused). */
const traceTurns = new WeakMap<Browser, Promise<void>>();

/** Waits for the browser's trace to be free and takes it; the function returned gives it back (once). */
async function turnToTrace(browser: Browser): Promise<() => void> {
  const before = traceTurns.get(browser) ?? Promise.resolve();
  let release = (): void => undefined;
  const mine = new Promise<void>((resolve) => (release = resolve));
  traceTurns.set(browser, before.then(() => mine));
  await before;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    release();
  };
}

/**
 * Records the page's trace (the categories Lantern reads) until end(), each batch the browser
 * reports kept as JSON (a string crosses to Lantern's thread as one copy), and gives the browser's
 * trace back when it ends; a trace longer than MAX_TRACE_EVENTS is dropped as it comes (end() then
 * resolves null).
 */
async function startTrace(cdp: CDPSession, giveBack: () => void): Promise<Tracing> {
  let batches: string[] | null = [];
  let count = 0;
  cdp.on("Tracing.dataCollected", ({ value }) => {
    if (batches === null) return;
    const kept = (value as TraceEvent[]).filter(traceEventKept);
    count += kept.length;
    if (count > MAX_TRACE_EVENTS) batches = null;
    else batches.push(JSON.stringify(kept));
  });
  const complete = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
  await cdp.send("Tracing.start", { categories: TRACE_CATEGORIES, transferMode: "ReportEvents" });
  return {
    async end() {
      try {
        await cdp.send("Tracing.end");
        await complete;
      } finally {
        giveBack();
      }
      return batches;
    },
  };
}

/**
 * FCP, LCP and TBT as Lantern estimates them on the profile's simulated network and CPU (lantern.ts).
 * A trace Lantern cannot read (no contentful paint, no navigation, too long) leaves the observed,
 * unthrottled figures, and the run says so: its throttling is "provided".
 */
async function simulated(lantern: LanternRunner, batches: string[] | null, run: PageRun, observed: Partial<BrowserMetrics>): Promise<Partial<BrowserMetrics>> {
  const round = (x: number) => Math.round(x * 10) / 10;
  try {
    if (batches === null) throw new Error("the trace was too long");
    if (observed.fcpMs === undefined) throw new Error("no contentful paint");
    const s = await lantern.simulate(batches, run.profile.throttling);
    return { fcpMs: round(s.fcpMs), lcpMs: round(s.lcpMs), tbtMs: round(s.tbtMs) };
  } catch {
    return { throttling: BrowserThrottling.fromPartial(appliedThrottling(run.profile, "provided")) };
  }
}

function toMetrics(r: Reading, counts: { blocked: number; requests: number; bytes: number; dialogs: number; popups: number }, byType: Map<string, { requests: number; bytes: number }>): Partial<BrowserMetrics> {
  const round = (x: number) => Math.round(x * 10) / 10;
  const out: Partial<BrowserMetrics> = {
    cls: Math.round(cumulativeLayoutShift(r.shifts) * 10_000) / 10_000,
    requests: counts.requests,
    transferBytes: counts.bytes,
    blockedRequests: counts.blocked,
    lcpElement: r.lcpEl,
    domElements: r.dom,
    renderBlocking: r.blocking,
    dialogs: counts.dialogs,
    popups: counts.popups,
    bytesByType: [...byType].sort(([a], [b]) => a.localeCompare(b)).map(([type, v]) => ResourceBytes.fromPartial({ type, requests: v.requests, bytes: v.bytes })),
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
