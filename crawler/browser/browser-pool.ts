// A crawler node's browser: one Chromium (launched on first use) and a bounded number of contexts,
// a fresh one per measured page (cold cache, as Lighthouse). The browser is recycled after a number
// of pages and when its memory passes a bound (a new one takes new pages; the old one closes when its
// last page ends). A page that does not finish within the deadline, opens endless dialogs or popups,
// or navigates in a loop is abandoned and reported; a crashed renderer or browser is tried once more
// on a fresh browser, then reported as crashed (the work kind queues it again without charging).
import { readFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
// Types only: playwright-core costs about 80 MB resident once loaded, which a node that never
// renders (SVC_BROWSER=off, no Chromium) must not pay; it is loaded at the first launch.
import type { Browser } from "playwright-core";
import { BrowserMetrics, BrowserThrottling } from "../../proto/index.ts";
import { CHROMIUM_ARGS, type ThirdPartyPolicy, type ViewportName } from "./browser-metrics.ts";
import { BrowserCrashedError, PageAbandonedError, startMeasurement, type CrashedProcess, type PageRun } from "./measure-page.ts";
import { inProcessPageProxies, type PageProxies } from "./page-proxies.ts";
import { threadLantern, type LanternRunner } from "./lantern-runner.ts";
import { NO_BROWSER_POOL_METRICS, type BrowserPoolMetrics, type PageOutcome } from "./pool-metrics.ts";
import { appliedThrottling, PROFILES, viewportLabel, type ThrottlingMethod } from "./profiles.ts";
import type { Egress } from "../fetch/egress.ts";

/** How long closing a browser may take before the process goes on without it (its close on an idle machine: about 0.1 s). */
export const BROWSER_CLOSE_MS = 2000;

export interface BrowserPoolOptions {
  readonly executablePath: string;
  /** One measurement, navigation to settled, at most this long. */
  readonly timeoutMs: number;
  /** Requests to other origins: auto (only hosts `externalAllowed` accepts), none, or all. */
  readonly thirdParty: ThirdPartyPolicy;
  readonly externalAllowed: (hostname: string) => boolean;
  /** Contexts (pages measured at once) of this node; default 1 (metrics inflate with parallelism on a small machine). */
  readonly concurrency?: number;
  /** The browser is replaced after this many pages (default 50). */
  readonly recyclePages?: number;
  /** …and when its processes' memory (PSS) passes this (default 1 GiB). */
  readonly maxMemoryBytes?: number;
  /** devtools: each profile's Lighthouse DevTools throttling; provided: none (SVC_BROWSER_THROTTLING). */
  readonly throttling: ThrottlingMethod;
  /** Appended to Chromium's user agent so that sites can tell the visit apart. */
  readonly userAgentToken?: string;
  /** Dialogs dismissed, windows opened and main-frame navigations a page may make before it is abandoned. */
  readonly maxDialogs?: number;
  readonly maxPopups?: number;
  readonly maxNavigations?: number;
}

export interface MeasureOptions {
  /** The profile (mobile by default). */
  readonly viewport?: ViewportName;
  /** Quiet time (no long task, layout shift or new LCP candidate) after load before reading; default 1000 ms. */
  readonly settleMs?: number;
  /** Click one real input for INP (default true). */
  readonly interact?: boolean;
  readonly signal?: AbortSignal;
}

export interface BrowserPool {
  /** Loads `url` once and returns its metrics; a page that cannot be measured gives `error` (and `abandoned` or `crashed`), never a throw. */
  measurePage(url: string, options?: MeasureOptions): Promise<BrowserMetrics>;
  close(): Promise<void>;
}

export interface BrowserPoolDeps {
  readonly egress: Pick<Egress, "resolve" | "dial">;
  /**
   * Where each page's egress proxy runs (page-proxies.ts); default: on this event loop, over
   * `egress`, third parties as `externalAllowed` says. The pool closes them with its browser.
   */
  readonly proxies?: PageProxies;
  /** Where simulated runs' traces are simulated (lantern-runner.ts); default: a thread of its own, started at the first. */
  readonly lantern?: LanternRunner;
  readonly metrics?: BrowserPoolMetrics;
  /** Unix seconds (checked_at of a measurement). */
  readonly now?: () => number;
  /** The node's load: 1-minute load average per core (default from os.loadavg), stated with each run. */
  readonly load?: () => number;
}

const DEFAULT_SETTLE_MS = 1000;
/** Playwright's default Chromium flags Svc's lab runs leave out (Lighthouse's Chrome has neither). */
export const PLAYWRIGHT_ARGS_DROPPED: readonly string[] = Object.freeze(["--hide-scrollbars"]);
/** How long closing an abandoned page's context may take before its browser is killed instead. */
const CLOSE_GRACE_MS = 5000;

interface Instance {
  readonly browser: Browser;
  pages: number;
  active: number;
  retiring: boolean;
  dead: boolean;
}

/** A pool of one lazily launched Chromium at a time; close() ends it. */
export function createBrowserPool(options: BrowserPoolOptions, deps: BrowserPoolDeps): BrowserPool {
  const metrics = deps.metrics ?? NO_BROWSER_POOL_METRICS;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const load = deps.load ?? nodeLoad;
  const proxies = deps.proxies ?? inProcessPageProxies(deps.egress, options.externalAllowed);
  const lantern = deps.lantern ?? threadLantern();
  const slots = new Slots(Math.max(1, options.concurrency ?? 1), metrics);
  const recyclePages = Math.max(1, options.recyclePages ?? 50);
  const maxMemory = options.maxMemoryBytes ?? 1024 ** 3;
  let current: Promise<Instance> | null = null;
  const all = new Set<Instance>();
  let closed = false;

  const retire = (inst: Instance, reason: "pages" | "memory" | "crash") => {
    if (inst.retiring) return;
    inst.retiring = true;
    metrics.recycled(reason);
    void current?.then((c) => void (c === inst && (current = null)), () => undefined);
    if (inst.active === 0) void end(inst);
  };
  const end = async (inst: Instance) => {
    all.delete(inst);
    metrics.browsers(all.size);
    // Bounded: a browser that does not close in time (a loaded machine, a renderer stuck) is left
    // to Playwright, which kills the browsers it launched when the process exits.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([inst.browser.close().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, BROWSER_CLOSE_MS)))]);
    clearTimeout(timer);
  };

  const acquire = (): Promise<Instance> => {
    if (current) return current;
    // Playwright's own signal handlers would close the browser and exit on SIGINT, and swallow
    // SIGHUP: the process's composition root drains and closes the pool (and the store) instead.
    // Scrollbars as a desktop user (and Lighthouse) has them: Playwright's headless launch hides
    // them, which removes the shift of a page whose classic scrollbar appears while it loads and
    // under-reported desktop CLS against Lighthouse (0.1231 against 0.2198 on such a page).
    const launch = { executablePath: options.executablePath, headless: true, args: [...CHROMIUM_ARGS], ignoreDefaultArgs: [...PLAYWRIGHT_ARGS_DROPPED], timeout: options.timeoutMs, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };
    const launching = import("playwright-core").then(({ chromium }) => chromium.launch(launch)).then((browser) => {
      const inst: Instance = { browser, pages: 0, active: 0, retiring: false, dead: false };
      all.add(inst);
      metrics.browsers(all.size);
      browser.on("disconnected", () => {
        inst.dead = true;
        all.delete(inst);
        metrics.browsers(all.size);
        if (current === launching) current = null;
      });
      return inst;
    });
    launching.catch(() => void (current === launching && (current = null)));
    current = launching;
    return launching;
  };

  /** A crash under a page: counted, and its browser replaced (a renderer's crash may be the browser's trouble). */
  const crashed = (inst: Instance, process: CrashedProcess) => {
    metrics.crashed(process);
    retire(inst, "crash");
  };

  const sampleMemory = async (inst: Instance) => {
    const bytes = await browserMemory(inst.browser).catch(() => null);
    if (bytes === null) return;
    metrics.memory(bytes);
    if (bytes > maxMemory) retire(inst, "memory");
  };

  /** One attempt on the current browser. */
  const attempt = async (url: string, m: MeasureOptions): Promise<Partial<BrowserMetrics>> => {
    const inst = await acquire();
    inst.active += 1;
    inst.pages += 1;
    if (inst.pages >= recyclePages) retire(inst, "pages");
    const deadline = Date.now() + options.timeoutMs;
    const run: PageRun = {
      url,
      profile: PROFILES[m.viewport ?? "mobile"],
      throttling: appliedThrottling(PROFILES[m.viewport ?? "mobile"], options.throttling),
      thirdParty: options.thirdParty,
      userAgentToken: options.userAgentToken,
      settleMs: m.settleMs ?? DEFAULT_SETTLE_MS,
      interact: m.interact ?? true,
      deadline,
      maxDialogs: options.maxDialogs ?? 5,
      maxPopups: options.maxPopups ?? 5,
      maxNavigations: options.maxNavigations ?? 10,
    };
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let onGone: (() => void) | undefined;
    const measurement = await startMeasurement(inst.browser, run, proxies, lantern).catch((err: unknown) => {
      inst.active -= 1;
      if (!inst.dead) throw err;
      crashed(inst, "browser");
      throw new BrowserCrashedError("browser");
    });
    let crashedProcess: CrashedProcess | null = null;
    try {
      const stops = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PageAbandonedError("deadline")), Math.max(1, deadline - Date.now()));
        onAbort = () => reject(m.signal?.reason instanceof Error ? m.signal.reason : new Error("measurement aborted"));
        m.signal?.addEventListener("abort", onAbort, { once: true });
        void measurement.interrupted.then(reject);
        onGone = () => reject(new BrowserCrashedError("browser"));
        inst.browser.once("disconnected", onGone);
      });
      return await Promise.race([measurement.result, stops]);
    } catch (err) {
      // A page closed under a dead browser fails with Playwright's "closed" errors: the crash is the cause.
      const cause = inst.dead && !(err instanceof PageAbandonedError) ? new BrowserCrashedError("browser") : err;
      if (cause instanceof BrowserCrashedError) crashedProcess = cause.process;
      throw cause;
    } finally {
      clearTimeout(timer);
      if (onAbort) m.signal?.removeEventListener("abort", onAbort);
      if (onGone) inst.browser.off("disconnected", onGone);
      // A page stuck in a loop may not let its context close: then the browser goes instead.
      const closedInTime = await Promise.race([measurement.close().then(() => true), delay(CLOSE_GRACE_MS).then(() => false)]);
      if (!closedInTime) retire(inst, "crash");
      inst.active -= 1;
      if (crashedProcess) crashed(inst, crashedProcess);
      if (!inst.dead && !inst.retiring) await sampleMemory(inst);
      if (inst.retiring && inst.active === 0 && all.has(inst)) await end(inst);
    }
  };

  return {
    async measurePage(url, m = {}) {
      const started = Date.now();
      const profile = PROFILES[m.viewport ?? "mobile"];
      // Every result states its throttling and how busy the node was (a run on a loaded node is
      // slower by itself: docs/analysis.md, "Throttling"), measured or not.
      const base = { url, viewport: viewportLabel(profile), profile: profile.name, checkedAt: now(), throttling: BrowserThrottling.fromPartial(appliedThrottling(profile, options.throttling)), nodeLoad: Math.round(load() * 100) / 100 };
      const release = await slots.take();
      let outcome: PageOutcome = "measured";
      try {
        if (closed) throw new Error("browser pool closed");
        let metricsOf: Partial<BrowserMetrics>;
        try {
          metricsOf = await attempt(url, m);
        } catch (err) {
          if (!(err instanceof BrowserCrashedError) || m.signal?.aborted) throw err;
          // Once more on a fresh browser (the crashed one was retired): a crash may be the browser's, not the page's.
          current = null;
          metricsOf = await attempt(url, m);
        }
        // A simulated run whose trace could not be simulated states what it was: unthrottled.
        return BrowserMetrics.fromPartial({ ...metricsOf, ...base, throttling: metricsOf.throttling ?? base.throttling, durationMs: Date.now() - started });
      } catch (err) {
        outcome = err instanceof PageAbandonedError ? "abandoned" : err instanceof BrowserCrashedError ? "crashed" : "error";
        return BrowserMetrics.fromPartial({
          ...base,
          error: describe(err),
          abandoned: err instanceof PageAbandonedError ? err.reason : "",
          crashed: err instanceof BrowserCrashedError,
          durationMs: Date.now() - started,
        });
      } finally {
        metrics.page(outcome, (Date.now() - started) / 1000);
        release();
      }
    },
    async close() {
      closed = true;
      current = null;
      await Promise.all([...all].map((inst) => end(inst)));
      await proxies.close();
      await lantern.close();
    },
  };
}

/**
 * Memory of a browser: PSS summed over its processes (web-measurement-notes.md: RSS double-counts
 * shared pages), from /proc; null where /proc is not there.
 */
async function browserMemory(browser: Browser): Promise<number | null> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const info = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { id: number }[] };
    let total = 0;
    for (const { id } of info.processInfo) {
      const text = await readFile(`/proc/${id}/smaps_rollup`, "utf8").catch(() => "");
      const pss = /^Pss:\s+(\d+) kB/m.exec(text);
      if (pss) total += Number(pss[1]) * 1024;
    }
    return total > 0 ? total : null;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The 1-minute load average per core (0 where the platform has none). */
function nodeLoad(): number {
  return (loadavg()[0] ?? 0) / availableParallelism();
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0]?.slice(0, 300) ?? "measurement failed";
}

/** A counting semaphore: at most `n` holders at once, served in order; the queue and open contexts go to the metrics. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(
    private readonly n: number,
    private readonly metrics: BrowserPoolMetrics,
  ) {
    this.free = n;
  }
  async take(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else {
      this.metrics.queue(this.waiting.length + 1);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      this.metrics.queue(this.waiting.length);
    }
    this.metrics.contexts(this.n - this.free);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
      this.metrics.contexts(this.n - this.free);
    };
  }
}
