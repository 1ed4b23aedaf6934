import { ORIGIN, cleanCrawl } from "../site-builder.ts";
import type { CrawlFindings, SiteFacts } from "../../../../proto/index.ts";
import type { CheckCase } from "./check-case.ts";

// The crawl checks (scope C): the healthy site with a clean crawl passes, one finding fails.
// Shares: URL findings over the fixture crawl's 50 URLs, page findings over its 40 pages.

function crawled(patch: Partial<CrawlFindings> = {}): (f: SiteFacts) => void {
  return (f) => void (f.crawl = cleanCrawl(patch));
}

const sample = (path: string, detail: string) => ({ url: `${ORIGIN}${path}`, detail });

export const CRAWL_CASES: Record<string, CheckCase> = {
  broken_external: {
    pass: crawled(),
    passValue: 0,
    fail: crawled({ brokenExternal: 2, externalBroken: [sample("/x", "404, linked from 1 page"), sample("/y", "refused, linked from 2 pages")] }),
    failStatus: "fail",
    failValue: 2,
    failScore: 0.9 * (1 - 2 / 10),
  },
  broken_internal: {
    // A link to a redirect is not broken (internal_redirects notes it).
    pass: crawled({ redirectedLinks: 1, redirected: [sample("/old/", `redirects to ${ORIGIN}/new/`)] }),
    passValue: 0,
    fail: crawled({
      brokenLinks: 2,
      broken: [sample("/gone/", `404, linked from 3 pages (e.g. ${ORIGIN}/)`), sample("/api/x", "timeout, linked from 1 page (e.g. /about/)")],
    }),
    failStatus: "fail",
    failValue: 2,
    failScore: 0.9 * (1 - 2 / 50),
  },
  internal_redirects: {
    pass: crawled(),
    passValue: 0,
    fail: crawled({ redirectedLinks: 5, redirected: [sample("/old/", `redirects to ${ORIGIN}/new/`)] }),
    failStatus: "fail",
    failValue: 5,
    failScore: 0.9 * (1 - 5 / 50),
  },
  orphan_pages: {
    pass: crawled(),
    passValue: 0,
    fail: crawled({ orphans: 1, orphan: [sample("/promo/", "listed in the sitemap, linked from no crawled page")] }),
    failStatus: "fail",
    failValue: 1,
    failScore: 0.9 * (1 - 1 / 50),
  },
  crawl_depth: {
    // Exactly 3 clicks deep is still fine.
    pass: crawled({ maxDepth: 3 }),
    passValue: 0,
    // 8 of 40 pages (20 %) is past the soft tier's 10 %.
    fail: crawled({ deepPages: 8, maxDepth: 6, deep: [sample("/a/b/c/d/", "6 clicks from the home page")] }),
    failStatus: "fail",
    failValue: 8,
    failScore: 0.9 * (1 - 8 / 40),
  },
  redirect_chain: {
    // Single-hop redirects are not chains.
    pass: crawled({ redirectedLinks: 3 }),
    passValue: 0,
    fail: crawled({ redirectChains: 1, redirectChain: [sample("/a", `2 hops: ${ORIGIN}/a → ${ORIGIN}/a/ → ${ORIGIN}/b/`)] }),
    failStatus: "fail",
    failValue: 1,
    failScore: 0.9 * (1 - 1 / 50),
  },
  canonical_target: {
    // The fixture's pages declare self-canonicals.
    pass: crawled(),
    passValue: 0,
    fail: crawled({ canonicalBad: 4, canonical: [sample("/shoes/?color=red", `canonical ${ORIGIN}/shoes: redirects to ${ORIGIN}/shoes/`)] }),
    failStatus: "fail",
    failValue: 4,
    failScore: 0.9 * (1 - 4 / 40),
  },
  hreflang_return: {
    // The fixture's home page has hreflang alternates.
    pass: crawled(),
    passValue: 0,
    fail: crawled({ hreflangMissingReturn: 3, hreflang: [sample("/", `de-DE alternate ${ORIGIN}/de/ does not link back`)] }),
    failStatus: "fail",
    failValue: 3,
    failScore: 0.9 * (1 - 3 / 40),
  },
  duplicate_content: {
    // Near-duplicates are near_duplicate's.
    pass: crawled({ nearDuplicates: 2 }),
    passValue: 0,
    fail: crawled({ duplicateContent: 2, duplicate: [sample("/print/about/", `same text as ${ORIGIN}/about/`), sample("/about/", `same text as ${ORIGIN}/print/about/`)] }),
    failStatus: "fail",
    failValue: 2,
    failScore: 0.9 * (1 - 2 / 40),
  },
  near_duplicate: {
    pass: crawled({ duplicateContent: 2 }),
    passValue: 0,
    fail: crawled({ nearDuplicates: 2, nearDuplicate: [sample("/moscow/", `98 % like ${ORIGIN}/kazan/`)] }),
    failStatus: "fail",
    failValue: 2,
    failScore: 0.9 * (1 - 2 / 40),
  },
  sitemap_url_status: {
    pass: crawled(),
    passValue: 0,
    fail: crawled({ sitemapBad: 3, sitemap: [sample("/old-sale/", `redirects to ${ORIGIN}/sale/`), sample("/drafts/", "noindex")] }),
    failStatus: "fail",
    failValue: 3,
    failScore: 0.9 * (1 - 3 / 50),
  },
  sitemap_missing_pages: {
    pass: crawled(),
    passValue: 0,
    fail: crawled({ notInSitemap: 6, missingFromSitemap: [sample("/blog/second-post/", "indexable, not in the sitemaps")] }),
    failStatus: "fail",
    failValue: 6,
    failScore: 0.9 * (1 - 6 / 40),
  },
  duplicate_urls: {
    pass: crawled(),
    passValue: 0,
    fail: crawled({ urlVariants: 1, urlVariant: [sample("/about/?utm_source=mail", `same page as ${ORIGIN}/about/`)] }),
    failStatus: "fail",
    failValue: 1,
    failScore: 0.9 * (1 - 1 / 40),
  },
};
