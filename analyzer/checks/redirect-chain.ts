import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

export const redirectChain: CheckDef = {
  code: "redirect_chain",
  title: "Internal redirects take one hop",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: false,
  hint: "Make every internal redirect go straight to its final URL in one 301, and break redirect loops.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    const outcome = crawlShare(crawl, { count: crawl.redirectChains, samples: crawl.redirectChain, of: "urls", problem: "redirects through 2 hops or more, or in a loop" });
    // A loop leaves the page unreachable (seo-anchors: redirect_loop is bad): the task says so, the weight stays.
    if (outcome.status === "fail" && crawl.redirectLoops > 0) outcome.level = "bad";
    return outcome;
  },
};
