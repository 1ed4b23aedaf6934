import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { robotsDirectives } from "./robots-directives.ts";

export const noimageindex: CheckDef = {
  code: "noimageindex",
  title: "Page images may be indexed",
  group: "indexing",
  rankGroup: "indexing",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Remove `noimageindex` from the robots meta tag and X-Robots-Tag unless the page's images must stay out of image search.",
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (robotsDirectives(page).includes("noimageindex") ? "fail" : "pass"), {
      problem: "noimageindex keeps images out of image search",
      none: "no HTML page answered 200",
    });
  },
};
