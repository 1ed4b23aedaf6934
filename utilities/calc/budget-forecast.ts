import { UtilityError, defineUtility } from "../utility.ts";
import { parseNumber } from "../validate.ts";
import { round, show } from "../shared/numbers.ts";

interface Input {
  mode: "from_budget" | "from_goal";
  budget?: number;
  goal?: number;
  goal_kind: "leads" | "sales";
  cpc: number;
  cr_lead_pct: number;
  cr_sale_pct?: number;
  aov?: number;
  months: number;
  seasonality?: string[];
}

export const budgetForecast = defineUtility<Input>({
  id: "budget_forecast",
  group: "calc",
  title: "Ad budget / media-plan forecast",
  description:
    "Media plan either way: from a budget to clicks, leads, sales, revenue and ROAS, or from a lead or sales goal to the budget it needs. Uses CPC and funnel rates, spread over months by seasonality coefficients",
  net: false,
  file: false,
  fields: [
    { name: "mode", type: "sel", label: "Direction", required: true, options: ["from_budget", "from_goal"] },
    { name: "budget", type: "num", label: "Budget for the whole period (from_budget)", min: 0 },
    { name: "goal", type: "num", label: "Goal for the whole period (from_goal)", min: 0 },
    { name: "goal_kind", type: "sel", label: "The goal counts", options: ["leads", "sales"], default: "leads" },
    { name: "cpc", type: "num", label: "Cost per click", required: true, min: 0.0001 },
    { name: "cr_lead_pct", type: "num", label: "Click → lead, %", required: true, min: 0.0001, max: 100 },
    { name: "cr_sale_pct", type: "num", label: "Lead → sale, %", min: 0.0001, max: 100 },
    { name: "aov", type: "num", label: "Average order value", min: 0 },
    { name: "months", type: "int", label: "Months", default: 1, min: 1, max: 12 },
    { name: "seasonality", type: "list", label: "Seasonality coefficient per month (1 = average)", max: 12 },
  ],
  example: { mode: "from_budget", budget: 300000, cpc: 50, cr_lead_pct: 4, cr_sale_pct: 25, aov: 12000, months: 3, seasonality: ["0.8", "1", "1.2"] },
  run(i) {
    const weights = (i.seasonality ?? []).map((s) => {
      const n = parseNumber(s);
      if (n === null || n < 0) throw new UtilityError("bad_param", `input.seasonality has "${s}", not a coefficient`, "input.seasonality");
      return n;
    });
    if (weights.length > 0 && weights.length !== i.months) throw new UtilityError("bad_param", `input.seasonality has ${weights.length} coefficients for ${i.months} months`, "input.seasonality");
    const w = weights.length > 0 ? weights : Array.from({ length: i.months }, () => 1);
    const sumW = w.reduce((a, b) => a + b, 0);
    if (sumW === 0) throw new UtilityError("bad_param", "input.seasonality is all zero", "input.seasonality");
    if (i.goal_kind === "sales" && i.cr_sale_pct === undefined) throw new UtilityError("bad_param", "a sales goal needs input.cr_sale_pct", "input.cr_sale_pct");
    let total: number;
    if (i.mode === "from_budget") {
      if (i.budget === undefined) throw new UtilityError("bad_param", "input.budget is required in from_budget mode", "input.budget");
      total = i.budget;
    } else {
      if (i.goal === undefined) throw new UtilityError("bad_param", "input.goal is required in from_goal mode", "input.goal");
      // Back through the funnel: goal → leads → clicks → budget.
      const leads = i.goal_kind === "sales" ? i.goal / ((i.cr_sale_pct as number) / 100) : i.goal;
      total = (leads / (i.cr_lead_pct / 100)) * i.cpc;
    }
    const months = w.map((k, m) => {
      const budget = (total * k) / sumW;
      const clicks = budget / i.cpc;
      const leads = (clicks * i.cr_lead_pct) / 100;
      const sales = i.cr_sale_pct === undefined ? null : (leads * i.cr_sale_pct) / 100;
      const revenue = sales === null || i.aov === undefined ? null : sales * i.aov;
      return { month: m + 1, budget, clicks, leads, sales, revenue };
    });
    const sum = (f: (m: (typeof months)[number]) => number | null) => (months.some((m) => f(m) === null) ? null : months.reduce((a, m) => a + (f(m) as number), 0));
    const totals = { budget: total, clicks: sum((m) => m.clicks), leads: sum((m) => m.leads), sales: sum((m) => m.sales), revenue: sum((m) => m.revenue) };
    const roas = (rev: number | null, budget: number) => (rev === null || budget === 0 ? null : round((rev / budget) * 100));
    const out = (m: { budget: number; clicks: number | null; leads: number | null; sales: number | null; revenue: number | null }) => ({
      budget: round(m.budget),
      clicks: m.clicks === null ? null : round(m.clicks, 1),
      leads: m.leads === null ? null : round(m.leads, 1),
      sales: m.sales === null ? null : round(m.sales, 1),
      revenue: m.revenue === null ? null : round(m.revenue),
      roas: roas(m.revenue, m.budget),
    });
    const resultMonths = months.map((m) => ({ month: m.month, ...out(m) }));
    const resultTotals = out(totals);
    return {
      result: { months: resultMonths, totals: resultTotals },
      blocks: {
        tables: [
          {
            title: "Media plan",
            columns: ["month", "budget", "clicks", "leads", "sales", "revenue", "ROAS %"],
            rows: [...resultMonths.map((m) => [m.month, m.budget, m.clicks, m.leads, m.sales, m.revenue, m.roas]), ["total", resultTotals.budget, resultTotals.clicks, resultTotals.leads, resultTotals.sales, resultTotals.revenue, resultTotals.roas]],
          },
        ],
        pairs: [
          { label: "Budget", value: show(resultTotals.budget) },
          { label: "Leads", value: show(resultTotals.leads, 1) },
          { label: "ROAS", value: show(resultTotals.roas, 2, "%") },
        ],
      },
    };
  },
});
