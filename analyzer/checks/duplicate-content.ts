import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

export const duplicateContent: CheckDef = {
  code: "duplicate_content",
  title: "Pages do not repeat each other's text",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: false,
  hint: "Merge pages that carry the same text, or keep one and point the others to it with a canonical or a 301; give pages that must stay their own text.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    return crawlShare(crawl, { count: crawl.duplicateContent, samples: crawl.duplicate, of: "pages", problem: "visible text repeated exactly on another indexable page" });
  },
};
