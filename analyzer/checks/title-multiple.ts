import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const titleMultiple: CheckDef = {
  code: "title_multiple",
  title: "Pages have a single title element",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Keep exactly one `<title>` per page; remove the extra ones that themes or plugins add.",
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.titleCount > 1 ? { verdict: "fail", why: `${page.titleCount} <title> elements` } : "pass"), {
      problem: "more than one <title>",
      none: "no HTML page answered 200",
    });
  },
};
