import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const hreflangXDefault: CheckDef = {
  code: "hreflang_x_default",
  title: "hreflang sets name an x-default",
  group: "international",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: 'Add `hreflang="x-default"` pointing to the version for visitors whose language none of the alternates matches (often the language chooser or the main version).',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.hreflang.length === 0) return "na";
        return page.hreflang.some((a) => a.hreflang.trim().toLowerCase() === "x-default") ? "pass" : { verdict: "fail", why: "no x-default alternate" };
      },
      { problem: "hreflang set without x-default", none: "no page has hreflang annotations" },
    );
  },
};
