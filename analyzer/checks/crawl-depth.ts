import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

/**
 * Up to this share of deep pages is the soft tier: status warn, task level info. The score stays
 * proportional in both tiers — warnTier's fixed 0.5 would score a few deep pages below many.
 */
const SMALL_SHARE = 0.1;

export const crawlDepth: CheckDef = {
  code: "crawl_depth",
  title: "Pages are at most 3 clicks from the home page",
  group: "links",
  rankGroup: "links",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: false,
  hint: "Bring deep pages within 3 clicks of the home page: link them from section pages, add category listings or paginate with direct page links.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    // The crawl's threshold is more than 3 clicks (SEOnaut's is more than 4).
    const outcome = crawlShare(crawl, { count: crawl.deepPages, samples: crawl.deep, of: "pages", problem: `more than 3 clicks from the home page, the deepest ${crawl.maxDepth}` });
    if (outcome.status === "fail" && crawl.deepPages / crawl.pages <= SMALL_SHARE) return { ...outcome, status: "warn", level: "info" };
    return outcome;
  },
};
