import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

export const brokenInternal: CheckDef = {
  code: "broken_internal",
  title: "Internal links lead to working pages",
  group: "links",
  rankGroup: "links",
  level: "bad",
  weight: 6,
  effort: 2,
  recheck: false,
  hint: "Point links at broken internal URLs to live pages, or restore the pages (or redirect them to their closest replacement).",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    // The crawl counts broken targets, each a fetched URL: f is their share of the URLs fetched.
    return crawlShare(crawl, { count: crawl.brokenLinks, samples: crawl.broken, of: "urls", problem: "linked internally but answering 4xx, 5xx or not at all" });
  },
};
