import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const titlePresent: CheckDef = {
  code: "title_present",
  title: "Pages have a title",
  group: "content",
  rankGroup: "content",
  level: "bad",
  weight: 6,
  effort: 2,
  recheck: true,
  hint: "Give every page a unique, descriptive <title> in <head>: it is the headline of the search result.",
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.title.trim() ? "pass" : "fail"), {
      problem: "missing or empty <title>",
      none: "no HTML page answered 200",
    });
  },
};
