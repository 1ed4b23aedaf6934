import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const internalNofollow: CheckDef = {
  code: "internal_nofollow",
  title: "Internal links are followed",
  group: "links",
  rankGroup: "links",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Remove rel="nofollow" from links to your own pages; use robots.txt or noindex to keep pages out of search instead.',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const internal = page.links.filter((l) => l.internal);
        if (internal.length === 0) return "na";
        const nofollow = internal.filter((l) => l.nofollow);
        return nofollow.length === 0 ? "pass" : { verdict: "fail", why: `${nofollow.length} nofollow link(s), e.g. ${nofollow[0]?.href}` };
      },
      { problem: 'internal links with rel="nofollow"', none: "no page has internal links" },
    );
  },
};
