import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

// No anchor names it; weighed like canonical_target (warn, 3): both split one page's signals over several URLs.
export const duplicateUrls: CheckDef = {
  code: "duplicate_urls",
  title: "Each page has one URL",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: false,
  hint: "Link to one spelling of each URL (same trailing slash, parameter order, no tracking parameters) and redirect or canonicalise the variants to it.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    return crawlShare(crawl, { count: crawl.urlVariants, samples: crawl.urlVariant, of: "pages", problem: "another URL of a page crawled under a different slash, parameter order or tracking parameters" });
  },
};
