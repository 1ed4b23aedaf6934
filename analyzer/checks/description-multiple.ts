import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const descriptionMultiple: CheckDef = {
  code: "description_multiple",
  title: "Pages have a single meta description",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Keep one `<meta name="description">` per page: templates and plugins that each add their own leave search engines to pick one.',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => (page.metaDescriptionCount > 1 ? { verdict: "fail", why: `${page.metaDescriptionCount} description metas` } : "pass"),
      { problem: "more than one meta description", none: "no HTML page answered 200" },
    );
  },
};
