import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlNote, crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

export const sitemapMissingPages: CheckDef = {
  code: "sitemap_missing_pages",
  title: "Sitemap lists every indexable page",
  group: "indexing",
  rankGroup: "indexing",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: false,
  hint: "Have the sitemap generator include every indexable page the site links to, or close the pages that should not be found: noindex, or a 301 to what they show (a CMS's attachment pages to their file or post).",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    // Without a sitemap there is nothing to be missing from (sitemap_present fails instead).
    if (!crawl.sitemapListed) return notApplicable(`no sitemap URLs to compare with (${crawlNote(crawl)})`);
    return crawlShare(crawl, { count: crawl.notInSitemap, samples: crawl.missingFromSitemap, of: "pages", problem: "indexable, not listed in the sitemap" });
  },
};
