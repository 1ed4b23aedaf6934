import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const h1Multiple: CheckDef = {
  code: "h1_multiple",
  title: "Pages have a single H1",
  group: "content",
  rankGroup: "content",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Keep one <h1> per page and use <h2>–<h6> for its sections.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const count = page.headings.filter((h) => h.level === 1).length;
        // No H1 at all is h1_present's failure.
        if (count === 0) return "na";
        return count === 1 ? "pass" : { verdict: "fail", why: `${count} <h1> elements` };
      },
      { problem: "more than one <h1>", none: "no page has an <h1>" },
    );
  },
};
