import { UtilityError, defineUtility } from "../utility.ts";
import { round, show } from "../shared/numbers.ts";

interface Input {
  spend: number;
  new_customers: number;
  aov: number;
  orders_per_year: number;
  margin_pct: number;
  churn_pct?: number;
  lifetime_months?: number;
}

export const unitEconomics = defineUtility<Input>({
  id: "unit_economics",
  group: "calc",
  title: "LTV / CAC / payback",
  description:
    "Computes LTV, CAC, LTV/CAC, payback in months, contribution margin and ROMI from spend, new customers, order value, purchase frequency, margin and monthly churn or lifetime",
  net: false,
  file: false,
  fields: [
    { name: "spend", type: "num", label: "Marketing spend", required: true, min: 0 },
    { name: "new_customers", type: "num", label: "New customers it brought", required: true, min: 0.0001 },
    { name: "aov", type: "num", label: "Average order value", required: true, min: 0 },
    { name: "orders_per_year", type: "num", label: "Orders per customer per year", default: 1, min: 0.0001 },
    { name: "margin_pct", type: "num", label: "Margin, %", required: true, min: 0, max: 100 },
    { name: "churn_pct", type: "num", label: "Monthly churn, %", min: 0.0001, max: 100 },
    { name: "lifetime_months", type: "num", label: "Customer lifetime, months", min: 0.0001 },
  ],
  example: { spend: 100000, new_customers: 50, aov: 3000, orders_per_year: 6, margin_pct: 40, churn_pct: 5 },
  run(i) {
    if (i.churn_pct === undefined && i.lifetime_months === undefined) throw new UtilityError("bad_param", "input.churn_pct or input.lifetime_months is required", "input.churn_pct");
    const cac = i.spend / i.new_customers;
    const contribution = (i.aov * i.margin_pct) / 100;
    const monthlyMargin = (contribution * i.orders_per_year) / 12;
    // A monthly churn c gives an expected lifetime of 1/c months (geometric survival).
    const lifetime = i.lifetime_months ?? 100 / (i.churn_pct as number);
    const ltv = monthlyMargin * lifetime;
    const ratioValue = cac === 0 ? null : ltv / cac;
    const payback = monthlyMargin === 0 ? null : cac / monthlyMargin;
    const verdict = ratioValue === null ? "no acquisition cost" : ratioValue >= 3 ? "healthy" : ratioValue >= 1 ? "thin" : "loses money";
    const result = {
      cac: round(cac),
      ltv: round(ltv),
      ratio: ratioValue === null ? null : round(ratioValue),
      payback_months: payback === null ? null : round(payback),
      contribution_margin: round(contribution),
      lifetime_months: round(lifetime),
      romi: cac === 0 ? null : round(((ltv - cac) / cac) * 100),
      verdict,
    };
    return {
      result,
      blocks: {
        pairs: [
          { label: "CAC", value: show(result.cac) },
          { label: "LTV", value: show(result.ltv) },
          { label: "LTV / CAC", value: show(result.ratio), status: verdict === "healthy" ? "good" : verdict === "thin" ? "warn" : "bad" },
          { label: "Payback", value: show(result.payback_months, 2, "months") },
          { label: "Margin per order", value: show(result.contribution_margin) },
          { label: "ROMI over the lifetime", value: show(result.romi, 2, "%") },
        ],
      },
    };
  },
});
