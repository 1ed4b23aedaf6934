import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const descriptionPresent: CheckDef = {
  code: "description_present",
  title: "Pages have a meta description",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Add `<meta name="description" content="…">` with a 80–160 character summary of the page; search engines often show it as the snippet.',
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.metaDescription.trim() ? "pass" : "fail"), {
      problem: "missing or empty meta description",
      none: "no HTML page answered 200",
    });
  },
};
