import { defineUtility } from "../utility.ts";
import { round, show } from "../shared/numbers.ts";

interface Input {
  aov: number;
  margin_pct: number;
  cr_pct: number;
  target_romi_pct: number;
}

export const maxCpc = defineUtility<Input>({
  id: "max_cpc",
  group: "calc",
  title: "Break-even CPC / CPA",
  description:
    "Works out the highest CPA and CPC you can afford from average order value, margin and conversion rate, both at break-even and at a target ROMI, plus the break-even ROAS",
  net: false,
  file: false,
  fields: [
    { name: "aov", type: "num", label: "Average order value", required: true, min: 0 },
    { name: "margin_pct", type: "num", label: "Margin, %", required: true, min: 0.01, max: 100 },
    { name: "cr_pct", type: "num", label: "Conversion rate click → sale, %", required: true, min: 0, max: 100 },
    { name: "target_romi_pct", type: "num", label: "Target ROMI, %", default: 0, min: -99 },
  ],
  example: { aov: 5000, margin_pct: 30, cr_pct: 2, target_romi_pct: 50 },
  run(i) {
    const breakEvenCpa = (i.aov * i.margin_pct) / 100;
    const breakEvenCpc = (breakEvenCpa * i.cr_pct) / 100;
    // ROMI = (margin − cost) / cost, so the cost per sale at a target ROMI is margin / (1 + ROMI).
    const maxCpa = breakEvenCpa / (1 + i.target_romi_pct / 100);
    const maxCpcValue = (maxCpa * i.cr_pct) / 100;
    const result = {
      break_even_cpa: round(breakEvenCpa),
      break_even_cpc: round(breakEvenCpc),
      max_cpa: round(maxCpa),
      max_cpc: round(maxCpcValue),
      break_even_roas: round((100 / i.margin_pct) * 100),
    };
    return {
      result,
      blocks: {
        pairs: [
          { label: "Break-even CPA", value: show(result.break_even_cpa) },
          { label: "Break-even CPC", value: show(result.break_even_cpc) },
          { label: `Max CPA at ROMI ${i.target_romi_pct}%`, value: show(result.max_cpa) },
          { label: `Max CPC at ROMI ${i.target_romi_pct}%`, value: show(result.max_cpc) },
          { label: "Break-even ROAS", value: show(result.break_even_roas, 2, "%") },
        ],
      },
    };
  },
});
