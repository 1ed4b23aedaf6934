import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const ogDescription: CheckDef = {
  code: "og_description",
  title: "Open Graph description is set",
  group: "social",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Add og:description (a sentence or two about the page) next to the other Open Graph tags; Facebook's debugger asks for it explicitly.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        // A page without any Open Graph tags is og_required's failure.
        if (page.openGraph.length === 0) return "na";
        return page.openGraph.some((m) => m.key === "og:description" && m.content.trim()) ? "pass" : { verdict: "fail", why: "no og:description" };
      },
      { problem: "Open Graph tags without og:description", none: "no page has Open Graph tags" },
    );
  },
};
