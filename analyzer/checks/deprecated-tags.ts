import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const deprecatedTags: CheckDef = {
  code: "deprecated_tags",
  title: "Pages use no obsolete HTML elements",
  group: "technical",
  rankGroup: "technical",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Replace obsolete elements such as <font>, <center>, <marquee> or <frame> by CSS and current HTML; browsers may drop them.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => (page.deprecatedTags.length === 0 ? "pass" : { verdict: "fail", why: page.deprecatedTags.map((t) => `<${t}>`).join(", ") }),
      { problem: "obsolete HTML elements", none: "no HTML page answered 200" },
    );
  },
};
