import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { isHttpHref } from "./response.ts";

// SEOnaut's ErrorTooManyLinks threshold.
const MAX_LINKS = 100;

export const tooManyLinks: CheckDef = {
  code: "too_many_links",
  title: "Pages have at most 100 links",
  group: "links",
  rankGroup: "links",
  level: "info",
  weight: 1,
  effort: 3,
  recheck: true,
  hint: "Keep pages to about 100 links: trim mega-menus and footers, and move long link lists to category or index pages.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const links = page.links.filter((l) => isHttpHref(l.href)).length;
        if (links === 0) return "na";
        return links > MAX_LINKS ? { verdict: "fail", why: `${links} links` } : "pass";
      },
      { problem: "more than 100 links", none: "no page has links" },
    );
  },
};
