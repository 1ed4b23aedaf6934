import { MOBILE_CONTROL_POINTS } from "../lognormal.ts";
import { metricOutcome } from "./browser-metric.ts";
import type { CheckDef } from "./check.ts";

export const cls: CheckDef = {
  code: "cls",
  title: "Layout stays still while loading (CLS)",
  group: "performance",
  rankGroup: "performance",
  level: "bad",
  weight: 25, // Lighthouse's performance weight (seo-anchors §1.1)
  effort: 2,
  recheck: true,
  hint: "Reserve space for everything that arrives late: width and height (or aspect-ratio) on images and embeds, fixed slots for ads and banners, no content inserted above what is already shown, font fallbacks of similar size.",
  run: (facts) => metricOutcome(facts, { name: "Cumulative Layout Shift", points: MOBILE_CONTROL_POINTS.cls, read: (b) => b.cls, unit: "" }),
};
