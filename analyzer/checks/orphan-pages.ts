import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlNote, crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

export const orphanPages: CheckDef = {
  code: "orphan_pages",
  title: "Sitemap pages are linked from the site",
  group: "links",
  rankGroup: "links",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: false,
  hint: "Link every page the sitemap lists from a related page or a section listing, or drop it from the sitemap when it is no longer wanted.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    if (!crawl.sitemapListed) return notApplicable(`no sitemap URLs to compare with (${crawlNote(crawl)})`);
    // Pages the crawl did not reach may hold the missing links: a cut-short crawl would call them
    // orphans wrongly. The click-depth limit is no such cut: a page not reached within it is
    // orphaned for a crawler that follows links from the home page too.
    if (crawl.truncatedBy && crawl.truncatedBy !== "depth_limit") return notApplicable(`the crawl did not reach every page (${crawlNote(crawl)})`);
    // Sitemap URLs are fetched by the crawl too: f is the orphans' share of the URLs fetched.
    return crawlShare(crawl, { count: crawl.orphans, samples: crawl.orphan, of: "urls", problem: "listed in the sitemap, not reached by links from the home page" });
  },
};
