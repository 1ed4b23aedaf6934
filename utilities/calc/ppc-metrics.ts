import { UtilityError, defineUtility, type Pair } from "../utility.ts";
import { r2, ratio, show } from "../shared/numbers.ts";

interface Input {
  impressions?: number;
  clicks?: number;
  cost?: number;
  conversions?: number;
  revenue?: number;
  margin_pct?: number;
  currency?: string;
}

export const ppcMetrics = defineUtility<Input>({
  id: "ppc_metrics",
  group: "calc",
  title: "CTR / CPC / CPM / CPA / ROAS calculator",
  description:
    "Computes CTR, CPC, CPM, conversion rate, CPA/CPL, ROAS, ROMI and profit (with margin) from whichever inputs are known, and flags inputs that contradict each other",
  net: false,
  file: false,
  fields: [
    { name: "impressions", type: "num", label: "Impressions", min: 0 },
    { name: "clicks", type: "num", label: "Clicks", min: 0 },
    { name: "cost", type: "num", label: "Cost", min: 0 },
    { name: "conversions", type: "num", label: "Conversions (leads or sales)", min: 0 },
    { name: "revenue", type: "num", label: "Revenue", min: 0 },
    { name: "margin_pct", type: "num", label: "Margin, % of revenue (profit and ROMI use it)", min: 0, max: 100 },
    { name: "currency", type: "str", label: "Currency sign", max: 8 },
  ],
  example: { impressions: 10000, clicks: 250, cost: 5000, conversions: 10, revenue: 30000, margin_pct: 40, currency: "₽" },
  run(i) {
    const known = (["impressions", "clicks", "cost", "conversions", "revenue"] as const).filter((k) => i[k] !== undefined);
    if (known.length < 2) throw new UtilityError("bad_param", "give at least two of impressions, clicks, cost, conversions and revenue", "input.impressions");
    const cur = i.currency ?? "";
    const gross = i.revenue === undefined ? null : i.margin_pct === undefined ? i.revenue : (i.revenue * i.margin_pct) / 100;
    const profit = gross === null || i.cost === undefined ? null : gross - i.cost;
    const result = {
      ctr: r2(mul(ratio(i.clicks, i.impressions), 100)),
      cpc: r2(ratio(i.cost, i.clicks)),
      cpm: r2(mul(ratio(i.cost, i.impressions), 1000)),
      cr: r2(mul(ratio(i.conversions, i.clicks), 100)),
      cpa: r2(ratio(i.cost, i.conversions)),
      roas: r2(mul(ratio(i.revenue, i.cost), 100)),
      romi: r2(mul(ratio(profit, i.cost), 100)),
      profit: r2(profit),
    };
    const warnings: { code: string; text: string }[] = [];
    if (i.clicks !== undefined && i.impressions !== undefined && i.clicks > i.impressions) warnings.push({ code: "contradiction", text: "more clicks than impressions" });
    if (i.conversions !== undefined && i.clicks !== undefined && i.conversions > i.clicks) warnings.push({ code: "contradiction", text: "more conversions than clicks" });
    if (i.revenue !== undefined && i.conversions === 0 && i.revenue > 0) warnings.push({ code: "contradiction", text: "revenue without conversions" });
    const pairs: Pair[] = [
      { label: "CTR", value: show(result.ctr, 2, "%") },
      { label: "CPC", value: show(result.cpc, 2, cur) },
      { label: "CPM", value: show(result.cpm, 2, cur) },
      { label: "Conversion rate", value: show(result.cr, 2, "%") },
      { label: "CPA / CPL", value: show(result.cpa, 2, cur) },
      { label: "ROAS", value: show(result.roas, 2, "%") },
      { label: "ROMI", value: show(result.romi, 2, "%"), ...(result.romi === null ? {} : { status: result.romi >= 0 ? ("good" as const) : ("bad" as const) }) },
      { label: i.margin_pct === undefined ? "Profit (revenue − cost)" : "Profit (margin − cost)", value: show(result.profit, 2, cur) },
    ];
    return { result, blocks: { pairs }, warnings };
  },
});

function mul(v: number | null, k: number): number | null {
  return v === null ? null : v * k;
}
