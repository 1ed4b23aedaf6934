import { MOBILE_CONTROL_POINTS } from "../lognormal.ts";
import { metricOutcome } from "./browser-metric.ts";
import type { CheckDef } from "./check.ts";

export const tbt: CheckDef = {
  code: "tbt",
  title: "Page responds to input while loading (TBT)",
  group: "performance",
  rankGroup: "performance",
  level: "bad",
  weight: 30, // Lighthouse's performance weight (seo-anchors §1.1)
  effort: 3,
  recheck: true,
  hint: "Break up long JavaScript tasks (over 50 ms) during load: ship less JavaScript, split bundles, defer third-party scripts and move heavy work off the main thread.",
  run: (facts) => metricOutcome(facts, { name: "Total Blocking Time", points: MOBILE_CONTROL_POINTS.tbt, read: (b) => b.tbtMs, unit: "ms" }),
};
