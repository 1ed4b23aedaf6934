import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { CrashedProcess } from "./measure-page.ts";

/** How a page's measurement ended: measured, error (unreachable, refused), abandoned, crashed. */
export type PageOutcome = "measured" | "error" | "abandoned" | "crashed";
/** Why a browser was replaced. */
export type RecycleReason = "pages" | "memory" | "crash";

/** The browser pool's metrics, on the process's registry; labels are the two small sets above. */
export interface BrowserPoolMetrics {
  contexts(open: number): void;
  queue(waiting: number): void;
  browsers(running: number): void;
  memory(bytes: number): void;
  recycled(reason: RecycleReason): void;
  /** A measurement attempt that a crash ended (the page is then tried again on a fresh browser). */
  crashed(process: CrashedProcess): void;
  page(outcome: PageOutcome, seconds: number): void;
}

export function browserPoolMetrics(registry: Registry, size: number): BrowserPoolMetrics {
  const opts = { registers: [registry] };
  new Gauge({ name: "svc_browser_pool_size", help: "Browser contexts this crawler node may open at once (SVC_BROWSER_CONTEXTS).", ...opts }).set(size);
  const contexts = new Gauge({ name: "svc_browser_contexts_open", help: "Browser contexts open now (pages being measured).", ...opts });
  const queue = new Gauge({ name: "svc_browser_queue", help: "Page measurements waiting for a browser context.", ...opts });
  const browsers = new Gauge({ name: "svc_browser_processes", help: "Chromium browsers running (two while a recycled one finishes its pages).", ...opts });
  const memory = new Gauge({ name: "svc_browser_memory_bytes", help: "Memory (PSS summed over its processes) of the current browser, sampled after each page.", ...opts });
  const recycles = new Counter({ name: "svc_browser_recycles_total", help: "Browsers replaced, by reason (pages, memory, crash).", labelNames: ["reason"], ...opts });
  const crashes = new Counter({ name: "svc_browser_crashes_total", help: "Measurement attempts a crash ended, by the process that crashed (renderer, browser).", labelNames: ["process"], ...opts });
  const pages = new Counter({ name: "svc_browser_pages_total", help: "Page measurements, by outcome (measured, error, abandoned, crashed).", labelNames: ["outcome"], ...opts });
  const duration = new Histogram({
    name: "svc_browser_page_duration_seconds",
    help: "Wall time of a page measurement, the wait for a context included.",
    labelNames: ["outcome"],
    buckets: [0.5, 1, 2, 4, 8, 15, 30, 60],
    ...opts,
  });
  for (const reason of ["pages", "memory", "crash"]) recycles.inc({ reason }, 0);
  for (const outcome of ["measured", "error", "abandoned", "crashed"]) pages.inc({ outcome }, 0);
  for (const process of ["renderer", "browser"]) crashes.inc({ process }, 0);
  return {
    contexts: (n) => contexts.set(n),
    queue: (n) => queue.set(n),
    browsers: (n) => browsers.set(n),
    memory: (n) => memory.set(n),
    recycled: (reason) => recycles.inc({ reason }),
    crashed: (process) => crashes.inc({ process }),
    page: (outcome, seconds) => {
      pages.inc({ outcome });
      duration.observe({ outcome }, seconds);
    },
  };
}

/** Metrics that go nowhere (a pool built without a registry). */
export const NO_BROWSER_POOL_METRICS: BrowserPoolMetrics = {
  contexts: () => undefined,
  queue: () => undefined,
  browsers: () => undefined,
  memory: () => undefined,
  recycled: () => undefined,
  crashed: () => undefined,
  page: () => undefined,
};
