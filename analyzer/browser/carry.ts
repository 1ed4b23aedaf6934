// The rank's stability rule for browser metrics (docs/analysis.md, "The browser by default"): a
// check without a usable home-page run — a synchronous GET /analyze, a crawler node without
// Chromium, a measurement that failed — carries the site's last measured run forward for up to
// CARRY_MAX_AGE_S, so that the rank does not move only because another node or lane ran the check.
import { BrowserMetrics, BrowserThrottling, type SiteFacts } from "../../proto/index.ts";
import { throttlingOf } from "./performance.ts";
import type { BrowserSection } from "./index.ts";

/** How long a measured home-page run stands in for checks that measured none. */
export const CARRY_MAX_AGE_S = 7 * 86400;

/** The facts with `browser` set from the previous check's home-page run when this one has none usable; else the facts as given. */
export function carryBrowserRun(facts: SiteFacts, previous: BrowserSection | undefined, previousCheckedAt: number, now: number): SiteFacts {
  if (facts.browser && !facts.browser.error) return facts;
  const home = previous?.carried ?? previous?.pages[0];
  if (!home || home.error || home.fcp_ms === null || now - home.checked_at > CARRY_MAX_AGE_S) return facts;
  const browser = BrowserMetrics.fromPartial({
    url: home.url,
    profile: home.device,
    viewport: `${home.device}, carried from the check of ${new Date(home.checked_at * 1000).toISOString().slice(0, 10)}`,
    checkedAt: home.checked_at || previousCheckedAt,
    fcpMs: home.fcp_ms,
    ...(home.lcp_ms !== null ? { lcpMs: home.lcp_ms } : {}),
    ...(home.cls !== null ? { cls: home.cls } : {}),
    ...(home.tbt_ms !== null ? { tbtMs: home.tbt_ms } : {}),
    ...(home.ttfb_ms !== null ? { ttfbMs: home.ttfb_ms } : {}),
    lcpElement: home.lcp_element,
    throttling: carriedThrottling(home),
    ...(typeof home.node_load === "number" ? { nodeLoad: home.node_load } : {}),
  });
  return { ...facts, browser };
}

function carriedThrottling(home: Parameters<typeof throttlingOf>[0]): BrowserThrottling {
  const t = throttlingOf(home);
  return BrowserThrottling.fromPartial({ method: t.method, cpuSlowdown: t.cpu_slowdown, requestLatencyMs: t.request_latency_ms, downloadKbps: t.download_kbps, uploadKbps: t.upload_kbps, rttMs: t.rtt_ms ?? 0, throughputKbps: t.throughput_kbps ?? 0 });
}
