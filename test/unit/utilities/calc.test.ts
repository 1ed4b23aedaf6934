import { describe, expect, it } from "vitest";
import { refusal, run, runExample } from "./run.ts";

describe("calc utilities", () => {
  it("ppc_metrics derives every metric its example allows", async () => {
    expect((await runExample("ppc_metrics")).result).toEqual({ ctr: 2.5, cpc: 20, cpm: 500, cr: 4, cpa: 500, roas: 600, romi: 140, profit: 7000 });
    const partial = await run("ppc_metrics", { clicks: 300, impressions: 200 });
    expect(partial.result).toMatchObject({ ctr: 150, cpc: null, roas: null });
    expect(partial.warnings).toEqual([{ code: "contradiction", text: "more clicks than impressions" }]);
    expect(await refusal("ppc_metrics", { clicks: 3 })).toMatchObject({ code: "bad_param" });
  });

  it("budget_forecast spreads a budget by seasonality and works back from a goal", async () => {
    const out = await runExample("budget_forecast");
    expect(out.result.months).toEqual([
      { month: 1, budget: 80000, clicks: 1600, leads: 64, sales: 16, revenue: 192000, roas: 240 },
      { month: 2, budget: 100000, clicks: 2000, leads: 80, sales: 20, revenue: 240000, roas: 240 },
      { month: 3, budget: 120000, clicks: 2400, leads: 96, sales: 24, revenue: 288000, roas: 240 },
    ]);
    expect(out.result.totals).toEqual({ budget: 300000, clicks: 6000, leads: 240, sales: 60, revenue: 720000, roas: 240 });
    // 60 sales at 25 % of leads at 4 % of clicks at 50 each: 6,000 clicks, 300,000.
    const back = await run("budget_forecast", { mode: "from_goal", goal: 60, goal_kind: "sales", cpc: 50, cr_lead_pct: 4, cr_sale_pct: 25 });
    expect(back.result.totals).toMatchObject({ budget: 300000, clicks: 6000, sales: 60 });
    expect(await refusal("budget_forecast", { mode: "from_budget", cpc: 50, cr_lead_pct: 4 })).toMatchObject({ code: "bad_param", field: "input.budget" });
  });

  it("max_cpc gives break-even and target-ROMI limits", async () => {
    expect((await runExample("max_cpc")).result).toEqual({ break_even_cpa: 1500, break_even_cpc: 30, max_cpa: 1000, max_cpc: 20, break_even_roas: 333.33 });
    expect(await refusal("max_cpc", { aov: 100, margin_pct: 0, cr_pct: 1 })).toMatchObject({ code: "bad_param", field: "input.margin_pct" });
  });

  it("unit_economics gives CAC, LTV and payback", async () => {
    expect((await runExample("unit_economics")).result).toEqual({ cac: 2000, ltv: 12000, ratio: 6, payback_months: 3.33, contribution_margin: 1200, lifetime_months: 20, romi: 500, verdict: "healthy" });
    expect(await refusal("unit_economics", { spend: 1, new_customers: 1, aov: 1, margin_pct: 10 })).toMatchObject({ code: "bad_param", field: "input.churn_pct" });
  });

  it("seo_traffic_forecast multiplies volumes by the CTR curve", async () => {
    const out = await runExample("seo_traffic_forecast");
    expect(out.result.rows).toEqual([
      { keyword: "купить диван", volume: 12000, current: 8, target: 3, now: 384, target_clicks: 1320, gain: 936 },
      { keyword: "диван угловой", volume: 5400, current: 15, target: 5, now: 54, target_clicks: 388.8, gain: 334.8 },
      { keyword: "диван кровать недорого", volume: 2900, current: null, target: 10, now: 0, target_clicks: 72.5, gain: 72.5 },
    ]);
    expect(out.result.totals).toEqual({ volume: 20300, now: 438, target: 1781.3, gain: 1343.3, conversions_now: 6.6, conversions_target: 26.7, revenue_now: 165000, revenue_target: 667500 });
    expect(await refusal("seo_traffic_forecast", { rows: "a,1,1,1", curve: "custom", custom_ctr: ["30", "20"] })).toMatchObject({ code: "bad_param", field: "input.custom_ctr" });
  });

  it("ab_significance: z-test, chi-square and the confidence interval", async () => {
    const out = await runExample("ab_significance");
    expect(out.result).toEqual({
      rows: [
        { name: "A", visitors: 10000, conversions: 500, cr: 5, uplift: null, z: null, p: null, ci: null, power: null, significant: null },
        { name: "B", visitors: 10000, conversions: 580, cr: 5.8, uplift: 16, z: 2.5028, p: 0.01232, ci: [0.174, 1.426], power: 70.7, significant: true },
      ],
      // With two variants the chi-square statistic is z² and the p-values agree.
      chi_square: { statistic: 6.2642, df: 1, p: 0.01232 },
      alpha: 0.05,
      verdict: "B beats A",
    });
    expect(await refusal("ab_significance", { variants: ["A 100 500", "B 100 5"] })).toMatchObject({ code: "bad_param", field: "input.variants" });
  });

  it("ab_sample_size: 5 % → 6 % needs 8,158 per variant at α 0.05 and power 0.8", async () => {
    expect((await runExample("ab_sample_size")).result).toEqual({ per_variant: 8158, total: 16316, days: 17, target_pct: 6 });
    expect(await refusal("ab_sample_size", { baseline_pct: 90, mde_pct: 20 })).toMatchObject({ code: "bad_param", field: "input.mde_pct" });
  });

  it("sla_uptime: allowed downtime, measured uptime and composite SLA", async () => {
    const out = await runExample("sla_uptime");
    expect(out.result.allowed).toEqual([
      { period: "day", seconds: 86.4, downtime: "1m 26.4s" },
      { period: "week", seconds: 604.8, downtime: "10m 4.8s" },
      { period: "month", seconds: 2629.8, downtime: "43m 49.8s" },
      { period: "quarter", seconds: 7889.4, downtime: "2h 11m 29.4s" },
      { period: "year", seconds: 31557.6, downtime: "8h 45m 57.6s" },
    ]);
    expect(out.result).toMatchObject({ uptime_pct: 99.7148, composite_pct: 99.9399 });
    expect(await refusal("sla_uptime", { downtime: "soon" })).toMatchObject({ code: "bad_param", field: "input.downtime" });
  });

  it("download_time: seconds per connection, monthly traffic and conversions", async () => {
    expect((await runExample("download_time")).result).toEqual({
      bytes: 2400000,
      profiles: [
        { name: "3g", mbps: 1.6, rtt_ms: 300, seconds: 12.9 },
        { name: "4g", mbps: 9, rtt_ms: 170, seconds: 2.64 },
        { name: "cable", mbps: 5, rtt_ms: 28, seconds: 3.92 },
      ],
      monthly_gb: 240,
      conversions: { "bit/s": 10000000, "kbit/s": 10000, "Mbit/s": 10, "Gbit/s": 0.01, "KB/s": 1250, "MB/s": 1.25, "MiB/s": 1.192 },
    });
    expect((await run("download_time", { size: "1 MiB", convert: "2 MB/s" })).result.conversions).toMatchObject({ "Mbit/s": 16 });
    expect(await refusal("download_time", { size: "big" })).toMatchObject({ code: "bad_param", field: "input.size" });
  });

  it("contrast_ratio: #777 on white is 4.48:1, fails AA, and #767676 is the nearest pass", async () => {
    const out = await runExample("contrast_ratio");
    expect(out.result).toMatchObject({ ratio: 4.48, large_text: false, aa: false, aaa: false, aa_large: true, suggestion: "#767676" });
    expect((out.result.formats as { foreground: unknown }).foreground).toEqual({
      hex: "#777777",
      rgb: "rgb(119, 119, 119)",
      hsl: "hsl(0, 0%, 46.7%)",
      hwb: "hwb(0 46.7% 53.3%)",
      oklch: "oklch(0.569 0 0)",
      cmyk: "cmyk(0%, 0%, 0%, 53.3%)",
      name: "",
    });
    expect((await run("contrast_ratio", { foreground: "black", background: "white" })).result).toMatchObject({ ratio: 21, aaa: true, suggestion: null });
    expect((await run("contrast_ratio", { foreground: "hsl(0, 100%, 50%)", font_px: 24 })).result).toMatchObject({ ratio: 4, large_text: true, aa: true });
    expect(await refusal("contrast_ratio", { foreground: "#12" })).toMatchObject({ code: "bad_param", field: "input.foreground" });
  });
});
