import { MOBILE_CONTROL_POINTS } from "../lognormal.ts";
import { metricOutcome } from "./browser-metric.ts";
import type { CheckDef } from "./check.ts";

export const lcp: CheckDef = {
  code: "lcp",
  title: "Main content appears quickly (LCP)",
  group: "performance",
  rankGroup: "performance",
  level: "bad",
  weight: 25, // Lighthouse's performance weight (seo-anchors §1.1), not the bad/warn/info scale
  effort: 3,
  recheck: true,
  hint: "Serve the largest above-the-fold image or text block sooner: a fast server response, the hero image preloaded and compressed (WebP/AVIF, right size), no lazy-loading above the fold, no client-side rendering of the main content.",
  run: (facts) => metricOutcome(facts, { name: "Largest Contentful Paint", points: MOBILE_CONTROL_POINTS.lcp, read: (b) => b.lcpMs, unit: "ms" }),
};
