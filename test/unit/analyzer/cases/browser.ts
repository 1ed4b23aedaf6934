// The browser-metric checks (seo-anchors §2.5, metric block M): a fast home page passes, a slow
// one fails (or warns), scored on Lighthouse's mobile curves. Without a browser run they are N/A.
import { BrowserMetrics, type SiteFacts } from "../../../../proto/index.ts";
import { ORIGIN } from "../site-builder.ts";
import type { CheckCase } from "./check-case.ts";

/** Lighthouse's performance weights (seo-anchors §1.1), which metric checks use instead of the bad/warn/info scale. */
export const METRIC_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({ lcp: 25, cls: 25, tbt: 30, fcp: 10 });

/** A browser run of the healthy home page: every metric scores 1. */
export function fastBrowserRun(patch: Partial<BrowserMetrics> = {}): BrowserMetrics {
  return BrowserMetrics.fromPartial({
    url: `${ORIGIN}/`,
    viewport: "mobile 412x823 @1.75x",
    fcpMs: 900,
    lcpMs: 1200,
    cls: 0.02,
    tbtMs: 40,
    ttfbMs: 120,
    domContentLoadedMs: 700,
    loadMs: 1100,
    requests: 12,
    transferBytes: 180_000,
    lcpElement: "IMG",
    durationMs: 2400,
    ...patch,
  });
}

function run(patch: Partial<BrowserMetrics> = {}): (f: SiteFacts) => void {
  return (f) => void (f.browser = fastBrowserRun(patch));
}

export const BROWSER_CASES: Record<string, CheckCase> = {
  lcp: {
    pass: run(),
    passValue: 1200,
    fail: run({ lcpMs: 6000 }),
    failStatus: "fail",
    failValue: 6000,
    failScore: 0.13, // Lighthouse: LCP 6000 ms on the mobile curve (2500 / 4000)
  },
  cls: {
    pass: run(),
    passValue: 0.02,
    fail: run({ cls: 0.3 }),
    failStatus: "fail",
    failValue: 0.3,
    failScore: 0.39,
  },
  tbt: {
    pass: run(),
    passValue: 40,
    // Between p10 (200) and the median (600): the warn band.
    fail: run({ tbtMs: 450 }),
    failStatus: "warn",
    failValue: 450,
    failScore: 0.63,
  },
  fcp: {
    pass: run(),
    passValue: 900,
    fail: run({ fcpMs: 3500 }),
    failStatus: "fail",
    failValue: 3500,
    failScore: 0.34,
  },
};
