import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlNote, crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

// The anchors' sitemap_url_status and sitemap_noindex_urls in one: the crawl counts them together.
export const sitemapUrlStatus: CheckDef = {
  code: "sitemap_url_status",
  title: "Sitemap URLs answer 200 and are indexable",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: false,
  hint: "List in the sitemap only final, indexable URLs that answer 200: drop or replace those that redirect, fail or carry noindex.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    if (!crawl.sitemapListed) return notApplicable(`no sitemap URLs to check (${crawlNote(crawl)})`);
    return crawlShare(crawl, { count: crawl.sitemapBad, samples: crawl.sitemap, of: "urls", problem: "listed in the sitemap but redirecting, failing or noindex" });
  },
};
