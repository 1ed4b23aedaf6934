import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

// SEOnaut's DOM size reporter threshold (Lighthouse warns from 818 and fails from 1400).
const MAX_ELEMENTS = 1500;

export const domSize: CheckDef = {
  code: "dom_size",
  title: "Pages have at most 1500 DOM elements",
  group: "technical",
  rankGroup: "technical",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: true,
  hint: "Keep pages under 1500 HTML elements: drop wrapper divs, paginate long lists and render hidden menus only when opened.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        // 0 means the parser did not count (a truncated or empty body): nothing measured.
        if (page.domElements <= 0) return "na";
        return page.domElements > MAX_ELEMENTS ? { verdict: "fail", why: `${page.domElements} elements` } : "pass";
      },
      { problem: "more than 1500 DOM elements", none: "no page with a counted DOM" },
    );
  },
};
