// The browser measurements of an analysis as GET /performance/{host} serves them: per page and
// profile, the lab metrics and a performance score on Lighthouse 12's curves and weights. Speed
// Index is not measured, so its weight (10) is left out and the other four are renormalised
// (FCP 10, LCP 25, TBT 30, CLS 25 over 90); INP and TTFB are shown, not scored, as in Lighthouse.
import type { BrowserMetrics, SiteFacts } from "../../proto/index.ts";
import { DESKTOP_CONTROL_POINTS, metricScore, MOBILE_CONTROL_POINTS, type LogNormalPoints } from "../lognormal.ts";

/** How one run was throttled, as the API shows it (crawler/browser/profiles.ts: appliedThrottling). */
export interface RunThrottling {
  readonly method: "simulate" | "devtools" | "provided";
  readonly cpu_slowdown: number;
  readonly request_latency_ms: number;
  readonly download_kbps: number;
  readonly upload_kbps: number;
  /** simulate: the round trip and throughput Lantern assumed (absent on runs stored before simulation). */
  readonly rtt_ms?: number;
  readonly throughput_kbps?: number;
}

/** What runs recorded before they stated their throttling were: unthrottled (the default until issue 33). */
export const UNTHROTTLED: RunThrottling = Object.freeze({ method: "provided", cpu_slowdown: 1, request_latency_ms: 0, download_kbps: 0, upload_kbps: 0 });

/** The throttling of a report's run; reports stored before runs stated it were unthrottled. */
export function throttlingOf(p: Pick<BrowserPageReport, "throttling">): RunThrottling {
  return p.throttling ?? UNTHROTTLED;
}

export interface BrowserPageReport {
  readonly device: "mobile" | "desktop";
  readonly url: string;
  readonly checked_at: number;
  /** 0-100 (Lighthouse's displayed performance score), null when the page could not be measured. */
  readonly score: number | null;
  readonly lcp_ms: number | null;
  readonly lcp_element: string;
  readonly cls: number | null;
  readonly inp_ms: number | null;
  readonly tbt_ms: number | null;
  readonly fcp_ms: number | null;
  readonly ttfb_ms: number | null;
  readonly requests: number;
  readonly bytes: number;
  readonly bytes_by_type: Record<string, number>;
  readonly dom_elements: number;
  readonly render_blocking: string[];
  /** Why nothing was measured ("" when measured). */
  readonly error: string;
  readonly abandoned: string;
  /** The throttling of the run (optional only in reports stored before runs stated it: read it with throttlingOf). */
  readonly throttling?: RunThrottling;
  /** The crawler node's 1-minute load average per core as the page was measured; null when not recorded. */
  readonly node_load?: number | null;
}

const WEIGHTS = Object.freeze({ fcp: 10, lcp: 25, tbt: 30, cls: 25 });
type Metric = keyof typeof WEIGHTS;

const READ: Readonly<Record<Metric, (m: BrowserMetrics) => number | undefined>> = {
  fcp: (m) => m.fcpMs,
  lcp: (m) => m.lcpMs,
  tbt: (m) => m.tbtMs,
  cls: (m) => m.cls,
};

/**
 * Lighthouse's performance score of one run, 0-100: the weighted mean of the metric scores on the
 * profile's curves (metrics the page never produced leave the mean); null without FCP.
 */
export function performanceScore(m: BrowserMetrics): number | null {
  if (m.error || m.fcpMs === undefined) return null;
  const points: Readonly<Record<Metric, LogNormalPoints>> = m.profile === "desktop" ? DESKTOP_CONTROL_POINTS : MOBILE_CONTROL_POINTS;
  let sum = 0;
  let weight = 0;
  for (const metric of Object.keys(WEIGHTS) as Metric[]) {
    const value = READ[metric](m);
    if (value === undefined) continue;
    sum += WEIGHTS[metric] * metricScore(points[metric], value);
    weight += WEIGHTS[metric];
  }
  return weight > 0 ? Math.round((100 * sum) / weight) : null;
}

/** Every page and profile the browser measured in this analysis, in measurement order. */
export function browserPages(facts: SiteFacts): BrowserPageReport[] {
  return facts.browserPages.map((m) => ({
    device: m.profile === "desktop" ? "desktop" : "mobile",
    url: m.url,
    checked_at: Number(m.checkedAt) || facts.checkedAt,
    score: performanceScore(m),
    lcp_ms: m.lcpMs ?? null,
    lcp_element: m.lcpElement,
    cls: m.error ? null : (m.cls ?? null),
    inp_ms: m.inpMs ?? null,
    tbt_ms: m.tbtMs ?? null,
    fcp_ms: m.fcpMs ?? null,
    ttfb_ms: m.ttfbMs ?? null,
    requests: m.requests,
    bytes: Number(m.transferBytes),
    bytes_by_type: Object.fromEntries(m.bytesByType.map((b) => [b.type, Number(b.bytes)])),
    dom_elements: m.domElements,
    render_blocking: m.renderBlocking,
    error: m.error,
    abandoned: m.abandoned,
    throttling: runThrottling(m),
    node_load: m.nodeLoad ?? null,
  }));
}

/** The throttling a run's facts state (facts from before issue 33 state none: those runs were unthrottled). */
export function runThrottling(m: Pick<BrowserMetrics, "throttling">): RunThrottling {
  const t = m.throttling;
  if (t?.method === "simulate") return { method: "simulate", cpu_slowdown: t.cpuSlowdown, request_latency_ms: 0, download_kbps: 0, upload_kbps: 0, rtt_ms: t.rttMs, throughput_kbps: t.throughputKbps };
  if (t?.method !== "devtools") return UNTHROTTLED;
  return { method: "devtools", cpu_slowdown: t.cpuSlowdown, request_latency_ms: t.requestLatencyMs, download_kbps: t.downloadKbps, upload_kbps: t.uploadKbps };
}

/** "DevTools throttling (4× CPU, 562.5 ms latency, 1474.56/675 Kbit/s)", "DevTools throttling (none: desktop preset)" or "unthrottled". */
export function describeThrottling(t: RunThrottling): string {
  if (t.method === "provided") return "unthrottled";
  if (t.method === "simulate") return `simulated throttling as Lighthouse's default (${t.cpu_slowdown}× CPU, ${t.rtt_ms ?? 0} ms RTT, ${t.throughput_kbps ?? 0} Kbit/s)`;
  const parts = [
    ...(t.cpu_slowdown > 1 ? [`${t.cpu_slowdown}× CPU`] : []),
    ...(t.request_latency_ms > 0 ? [`${t.request_latency_ms} ms latency`] : []),
    ...(t.download_kbps > 0 || t.upload_kbps > 0 ? [`${t.download_kbps}/${t.upload_kbps} Kbit/s`] : []),
  ];
  return `DevTools throttling (${parts.join(", ") || "none, as Lighthouse's desktop preset"})`;
}

/** What the report says about the browser: which pages were measured with which profile, or why none. */
export function browserNote(facts: SiteFacts): string {
  switch (facts.browserState) {
    case "measured": {
      const byProfile = new Map<string, { n: number; throttling: string }>();
      for (const m of facts.browserPages) {
        if (m.error) continue;
        const name = m.profile || "mobile";
        byProfile.set(name, { n: (byProfile.get(name)?.n ?? 0) + 1, throttling: describeThrottling(runThrottling(m)) });
      }
      const failed = facts.browserPages.filter((m) => m.error).length;
      const parts = [...byProfile].map(([p, { n, throttling }]) => `${n} page${n === 1 ? "" : "s"} ${p}, ${throttling}`);
      return `Measured in headless Chromium, lab runs: ${parts.join("; ") || "no page"}${failed ? `; ${failed} measurement${failed === 1 ? "" : "s"} failed` : ""}. The rank's metric checks use the home page's first profile.`;
    }
    case "sync":
      return "No browser run: a synchronous check (GET /analyze) does not start the browser. The performance group is scored on the diagnostics alone.";
    case "absent":
      return "No browser run: Chromium is not installed on the crawler node (apt-get install chromium). The performance group is scored on the diagnostics alone.";
    case "not_html":
      return "No browser run: the home page did not answer with HTML. The performance group is scored on the diagnostics alone.";
    default:
      return "No browser run: the browser is off (SVC_BROWSER=off). The performance group is scored on the diagnostics alone.";
  }
}
