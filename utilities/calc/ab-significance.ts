import { UtilityError, defineUtility } from "../utility.ts";
import { parseNumber } from "../validate.ts";
import { chiSquareCdf, normalCdf, normalQuantile } from "../shared/stats.ts";
import { round } from "../shared/numbers.ts";

interface Input {
  variants: string[];
  confidence: "90" | "95" | "99";
  tails: "1" | "2";
}

interface Variant {
  readonly name: string;
  readonly visitors: number;
  readonly conversions: number;
}

function parseVariant(line: string): Variant {
  const parts = line.trim().split(/[\s,;\t]+/);
  const conversions = parseNumber(parts.pop() ?? "");
  const visitors = parseNumber(parts.pop() ?? "");
  const name = parts.join(" ");
  if (!name || visitors === null || conversions === null || !Number.isInteger(visitors) || !Number.isInteger(conversions) || visitors <= 0 || conversions < 0 || conversions > visitors) {
    throw new UtilityError("bad_param", `input.variants has "${line}"; each line is "name visitors conversions" with conversions ≤ visitors`, "input.variants");
  }
  return { name, visitors, conversions };
}

export const abSignificance = defineUtility<Input>({
  id: "ab_significance",
  group: "calc",
  title: "A/B test significance",
  description:
    "Significance of an A/B test with 2–5 variants against the first (the control): conversion rates, uplift, p-values from a two-proportion z-test, a chi-square test across all variants, the confidence interval of the difference and the achieved power, with a Bonferroni correction across variants",
  net: false,
  file: false,
  fields: [
    { name: "variants", type: "list", label: '"name visitors conversions" per line, the control first', required: true, max: 5 },
    { name: "confidence", type: "sel", label: "Confidence, %", options: ["90", "95", "99"], default: "95" },
    { name: "tails", type: "sel", label: "Tails", options: ["1", "2"], default: "2" },
  ],
  example: { variants: ["A 10000 500", "B 10000 580"], confidence: "95", tails: "2" },
  run(i) {
    const variants = i.variants.map(parseVariant);
    if (variants.length < 2) throw new UtilityError("bad_param", "input.variants needs at least 2 variants", "input.variants");
    const control = variants[0] as Variant;
    const comparisons = variants.length - 1;
    const alpha = (1 - Number(i.confidence) / 100) / comparisons;
    const twoTailed = i.tails === "2";
    const zCrit = normalQuantile(1 - (twoTailed ? alpha / 2 : alpha));
    const p0 = control.conversions / control.visitors;
    const rows = variants.map((v, n) => {
      const p = v.conversions / v.visitors;
      if (n === 0) return { name: v.name, visitors: v.visitors, conversions: v.conversions, cr: round(p * 100, 3), uplift: null, z: null, p: null, ci: null, power: null, significant: null };
      const pooled = (control.conversions + v.conversions) / (control.visitors + v.visitors);
      const sePooled = Math.sqrt(pooled * (1 - pooled) * (1 / control.visitors + 1 / v.visitors));
      const z = sePooled === 0 ? 0 : (p - p0) / sePooled;
      const pValue = twoTailed ? 2 * (1 - normalCdf(Math.abs(z))) : 1 - normalCdf(z);
      const se = Math.sqrt((p0 * (1 - p0)) / control.visitors + (p * (1 - p)) / v.visitors);
      const diff = p - p0;
      const power = se === 0 ? null : normalCdf(Math.abs(diff) / se - zCrit);
      return {
        name: v.name,
        visitors: v.visitors,
        conversions: v.conversions,
        cr: round(p * 100, 3),
        uplift: p0 === 0 ? null : round((diff / p0) * 100, 2),
        z: round(z, 4),
        p: round(pValue, 5),
        ci: [round((diff - zCrit * se) * 100, 3), round((diff + zCrit * se) * 100, 3)],
        power: power === null ? null : round(power * 100, 1),
        significant: pValue < alpha,
      };
    });
    // Chi-square test of independence over the variants × {converted, not}.
    const totalV = variants.reduce((a, v) => a + v.visitors, 0);
    const totalC = variants.reduce((a, v) => a + v.conversions, 0);
    let chi2 = 0;
    for (const v of variants) {
      const eC = (v.visitors * totalC) / totalV;
      const eN = (v.visitors * (totalV - totalC)) / totalV;
      if (eC > 0) chi2 += (v.conversions - eC) ** 2 / eC;
      if (eN > 0) chi2 += (v.visitors - v.conversions - eN) ** 2 / eN;
    }
    const chiP = 1 - chiSquareCdf(chi2, variants.length - 1);
    const winners = rows.filter((r) => r.significant === true && (r.uplift ?? 0) > 0).map((r) => r.name);
    const losers = rows.filter((r) => r.significant === true && (r.uplift ?? 0) < 0).map((r) => r.name);
    const verdict = winners.length > 0 ? `${winners.join(", ")} beat${winners.length === 1 ? "s" : ""} ${control.name}` : losers.length > 0 ? `${losers.join(", ")} lose${losers.length === 1 ? "s" : ""} to ${control.name}` : "no significant difference yet";
    return {
      result: { rows, chi_square: { statistic: round(chi2, 4), df: variants.length - 1, p: round(chiP, 5) }, alpha: round(alpha, 5), verdict },
      blocks: {
        tables: [
          {
            title: `Against ${control.name} (confidence ${i.confidence}%, ${i.tails}-tailed${comparisons > 1 ? ", Bonferroni" : ""})`,
            columns: ["variant", "visitors", "conversions", "CR %", "uplift %", "p-value", "CI of difference, pp", "power %", "significant"],
            rows: rows.map((r) => [r.name, r.visitors, r.conversions, r.cr, r.uplift, r.p, r.ci ? `${r.ci[0]} … ${r.ci[1]}` : null, r.power, r.significant]),
          },
        ],
        pairs: [
          { label: "Verdict", value: verdict, status: winners.length > 0 ? "good" : losers.length > 0 ? "bad" : "info" },
          { label: "Chi-square p-value", value: String(round(chiP, 5)) },
        ],
      },
    };
  },
});
