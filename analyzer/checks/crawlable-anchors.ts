import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const crawlableAnchors: CheckDef = {
  code: "crawlable_anchors",
  title: "Links have hrefs crawlers can follow",
  group: "links",
  rankGroup: "links",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Give every link a real URL in href (`<a href="/products">`); use <button> for actions instead of `href="javascript:…"` or click handlers on <a> without href.',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.uncrawlableAnchors > 0) return { verdict: "fail", why: `${page.uncrawlableAnchors} anchor(s), e.g. ${page.uncrawlableAnchorExamples[0] ?? ""}` };
        return page.links.length === 0 ? "na" : "pass";
      },
      { problem: "javascript:, unparsable or missing hrefs on links", none: "no page has links" },
    );
  },
};
