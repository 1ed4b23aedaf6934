import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { robotsDirectives } from "./robots-directives.ts";

export const nosnippet: CheckDef = {
  code: "nosnippet",
  title: "Pages allow a search snippet",
  group: "indexing",
  rankGroup: "indexing",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Remove `nosnippet` and `max-snippet:0` from the robots meta tag and X-Robots-Tag unless you deliberately want search results without a text preview.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const found = robotsDirectives(page).find((d) => d === "nosnippet" || d === "max-snippet:0");
        return found ? { verdict: "fail", why: found } : "pass";
      },
      { problem: "nosnippet or max-snippet:0 hides the snippet", none: "no HTML page answered 200" },
    );
  },
};
