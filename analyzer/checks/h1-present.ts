import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const h1Present: CheckDef = {
  code: "h1_present",
  title: "Pages have an H1 heading",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Give every page one visible <h1> that states its topic.",
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.headings.some((h) => h.level === 1 && h.text.trim()) ? "pass" : "fail"), {
      problem: "no non-empty <h1>",
      none: "no HTML page answered 200",
    });
  },
};
