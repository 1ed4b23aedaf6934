import { Counter, Histogram, type Registry } from "prom-client";
import type { HttpResponse } from "../../proto/index.ts";
import { BLOCKED_PRIVATE_ADDRESS } from "./egress.ts";

/** On whose behalf a site was fetched: a whole-site crawl, a site analysis, a single-page check (GET /full, /check). */
export type FetchSource = "crawl" | "analysis" | "page";
export const FETCH_SOURCES: readonly FetchSource[] = ["crawl", "analysis", "page"];

/**
 * Why a fetch failed, a closed set: the fetcher's outcome codes (no answer, or an answer cut
 * short), or the site's own error status class; anything the fetcher may add later is `other`.
 */
export const FETCH_ERROR_CLASSES = ["timeout", "refused", "dns", "tls", "reset", "too_large", "too_many_redirects", BLOCKED_PRIVATE_ADDRESS, "http_4xx", "http_5xx", "other"] as const;
export type FetchErrorClass = (typeof FETCH_ERROR_CLASSES)[number];

/** What held a request back to keep a host's politeness: its spacing (minimum delay, Crawl-delay), the host's own Retry-After, or its connection cap. */
export type PolitenessWait = "delay" | "retry_after" | "connections";
export const POLITENESS_WAITS: readonly PolitenessWait[] = ["delay", "retry_after", "connections"];

/** A crawler node's fetch metrics (docs/metrics.md). */
export interface FetchMetrics {
  /** One fetch of a site's URL (redirects followed within it), with what it ended in. */
  readonly fetched: (source: FetchSource, response: Pick<HttpResponse, "status" | "error">) => void;
  /** A request waited `seconds` before it started, for the host's politeness. */
  readonly waited: (reason: PolitenessWait, seconds: number) => void;
}

export const NO_FETCH_METRICS: FetchMetrics = { fetched: () => undefined, waited: () => undefined };

/** The class of a fetch's failure; null when it got an answer below 400 in full. */
export function fetchErrorClass(response: Pick<HttpResponse, "status" | "error">): FetchErrorClass | null {
  if (response.error) return (FETCH_ERROR_CLASSES as readonly string[]).includes(response.error) ? (response.error as FetchErrorClass) : "other";
  if (response.status >= 500) return "http_5xx";
  if (response.status >= 400) return "http_4xx";
  return null;
}

export function fetchMetrics(registry: Registry): FetchMetrics {
  const fetched = new Counter({
    name: "svc_crawler_pages_fetched_total",
    help: "Fetches of a site's URLs by this crawler node (pages, robots.txt, sitemaps; redirects followed within one), answered or not, by source (crawl, analysis, page).",
    labelNames: ["source"],
    registers: [registry],
  });
  const errors = new Counter({
    name: "svc_crawler_fetch_errors_total",
    help: "Fetches that failed, by source and class: timeout, refused, dns, tls, reset, too_large, too_many_redirects, blocked_private_address, http_4xx, http_5xx, other.",
    labelNames: ["source", "class"],
    registers: [registry],
  });
  const waits = new Histogram({
    name: "svc_crawler_politeness_wait_seconds",
    help: "Time a request to a site waited before it started, for the host's politeness, by reason (delay: minimum spacing or Crawl-delay; retry_after: the host asked; connections: per-host connection cap).",
    labelNames: ["reason"],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  // Every series exists from the start (0): dashboards and rate() see a node that fetched nothing yet.
  for (const source of FETCH_SOURCES) {
    fetched.inc({ source }, 0);
    for (const cls of FETCH_ERROR_CLASSES) errors.inc({ source, class: cls }, 0);
  }
  for (const reason of POLITENESS_WAITS) waits.zero({ reason });
  return {
    fetched: (source, response) => {
      fetched.inc({ source });
      const cls = fetchErrorClass(response);
      if (cls) errors.inc({ source, class: cls });
    },
    waited: (reason, seconds) => waits.observe({ reason }, seconds),
  };
}
