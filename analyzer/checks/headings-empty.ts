import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const headingsEmpty: CheckDef = {
  code: "headings_empty",
  title: "Headings are not empty",
  group: "content",
  rankGroup: "content",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Give every <h1>–<h6> visible text (or an image with alt text), or remove the empty heading the template leaves.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.headings.length === 0) return "na";
        const empty = page.headings.filter((h) => !h.text.trim());
        return empty.length === 0 ? "pass" : { verdict: "fail", why: `${empty.length} empty heading(s), e.g. <h${empty[0]?.level}>` };
      },
      { problem: "headings without text", none: "no page has headings" },
    );
  },
};
