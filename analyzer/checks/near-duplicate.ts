import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

export const nearDuplicate: CheckDef = {
  code: "near_duplicate",
  title: "Pages are not near-copies of each other",
  group: "content",
  rankGroup: "content",
  level: "info",
  weight: 1,
  effort: 3,
  recheck: false,
  hint: "Pages that differ in a few words compete for the same searches: merge them, or write what makes each one different.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    return crawlShare(crawl, { count: crawl.nearDuplicates, samples: crawl.nearDuplicate, of: "pages", problem: "text nearly the same as another indexable page's" });
  },
};
