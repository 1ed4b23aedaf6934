import { UtilityError, defineUtility } from "../utility.ts";
import { normalQuantile } from "../shared/stats.ts";
import { show } from "../shared/numbers.ts";

interface Input {
  baseline_pct: number;
  mde_pct: number;
  mde_type: "relative" | "absolute";
  alpha: "0.1" | "0.05" | "0.01";
  power: "0.8" | "0.9";
  variants: number;
  daily_visitors?: number;
}

export const abSampleSize = defineUtility<Input>({
  id: "ab_sample_size",
  group: "calc",
  title: "A/B sample size & duration",
  description:
    "Visitors needed per variant for a baseline conversion rate and a minimum detectable effect (relative or absolute) at a two-sided α and power, with a Bonferroni correction for more than two variants, and the days that takes at a given daily traffic",
  net: false,
  file: false,
  fields: [
    { name: "baseline_pct", type: "num", label: "Baseline conversion rate, %", required: true, min: 0.0001, max: 99.9999 },
    { name: "mde_pct", type: "num", label: "Minimum detectable effect, %", required: true, min: 0.0001 },
    { name: "mde_type", type: "sel", label: "Effect is", options: ["relative", "absolute"], default: "relative" },
    { name: "alpha", type: "sel", label: "α (two-sided)", options: ["0.1", "0.05", "0.01"], default: "0.05" },
    { name: "power", type: "sel", label: "Power", options: ["0.8", "0.9"], default: "0.8" },
    { name: "variants", type: "int", label: "Variants, control included", default: 2, min: 2, max: 5 },
    { name: "daily_visitors", type: "int", label: "Visitors per day in the test", min: 1 },
  ],
  example: { baseline_pct: 5, mde_pct: 20, mde_type: "relative", alpha: "0.05", power: "0.8", daily_visitors: 1000 },
  run(i) {
    const p1 = i.baseline_pct / 100;
    const p2 = i.mde_type === "relative" ? p1 * (1 + i.mde_pct / 100) : p1 + i.mde_pct / 100;
    if (p2 >= 1) throw new UtilityError("bad_param", "input.mde_pct takes the rate past 100 %", "input.mde_pct");
    const alpha = Number(i.alpha) / (i.variants - 1);
    const zA = normalQuantile(1 - alpha / 2);
    const zB = normalQuantile(Number(i.power));
    const pBar = (p1 + p2) / 2;
    // The normal approximation for two proportions (Fleiss), without continuity correction.
    const n = (zA * Math.sqrt(2 * pBar * (1 - pBar)) + zB * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p2 - p1) ** 2;
    const perVariant = Math.ceil(n);
    const total = perVariant * i.variants;
    const days = i.daily_visitors === undefined ? null : Math.ceil(total / i.daily_visitors);
    return {
      result: { per_variant: perVariant, total, days, target_pct: Math.round(p2 * 1e6) / 1e4 },
      blocks: {
        pairs: [
          { label: "Per variant", value: show(perVariant, 0) },
          { label: "Total", value: show(total, 0) },
          { label: "Detects", value: `${show(i.baseline_pct, 4)} % → ${show(p2 * 100, 4)} %` },
          ...(days === null ? [] : [{ label: "Duration", value: `${days} days` }]),
        ],
      },
    };
  },
});
