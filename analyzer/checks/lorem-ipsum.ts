import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const loremIpsum: CheckDef = {
  code: "lorem_ipsum",
  title: "No placeholder text is published",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Replace the \"Lorem ipsum\" placeholder text left in the template or page with real content, or unpublish the page until it is written.",
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.loremIpsum ? { verdict: "fail", why: "the visible text contains \"lorem ipsum\"" } : "pass"), {
      problem: "placeholder \"lorem ipsum\" text",
      none: "no HTML page answered 200",
    });
  },
};
