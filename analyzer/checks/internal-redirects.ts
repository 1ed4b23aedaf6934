import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

// The internal twin of the anchors' external_redirects (info, 1): one hop costs a request, not the page.
export const internalRedirects: CheckDef = {
  code: "internal_redirects",
  title: "Internal links point at final URLs",
  group: "links",
  rankGroup: "links",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: false,
  hint: "Update internal links to the URL their redirect ends at, so that visitors and crawlers skip the extra hop.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    return crawlShare(crawl, { count: crawl.redirectedLinks, samples: crawl.redirected, of: "urls", problem: "linked internally but redirecting" });
  },
};
