import { MOBILE_CONTROL_POINTS } from "../lognormal.ts";
import { metricOutcome } from "./browser-metric.ts";
import type { CheckDef } from "./check.ts";

export const fcp: CheckDef = {
  code: "fcp",
  title: "First content appears quickly (FCP)",
  group: "performance",
  rankGroup: "performance",
  level: "bad",
  weight: 10, // Lighthouse's performance weight (seo-anchors §1.1)
  effort: 2,
  recheck: true,
  hint: "Let the browser paint sooner: answer the HTML fast, defer scripts, inline the critical CSS and keep web fonts from hiding text (font-display: swap).",
  run: (facts) => metricOutcome(facts, { name: "First Contentful Paint", points: MOBILE_CONTROL_POINTS.fcp, read: (b) => b.fcpMs, unit: "ms" }),
};
