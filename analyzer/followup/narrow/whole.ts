import type { RecheckScope } from "./scope.ts";

/**
 * Checks whose facts only the whole analysis gathers together: the http:// and www twins, the 404 probe,
 * security.txt, the favicon, the web app manifest, the browser's lab metrics, and checks that read
 * the sample's pages together with DNS or that leave the home page out (text_length).
 */
export const analysisScope: RecheckScope = {
  id: "analysis",
  mode: "analysis",
  codes: [
    "not_found_status", "host_canonical", "https_redirect", "favicon", "security_txt", "security_txt_fields",
    "sri_external_scripts", "lcp", "cls", "tbt", "fcp", "text_length", "pwa_manifest", "pwa_icons",
  ],
  why: "the whole analysis (the facts these checks read come from several fetches of one run)",
};

/** Checks judged over a whole-site crawl: a re-check cannot decide them (422 unsupported; POST /crawl/{host}). */
export const crawlScope: RecheckScope = {
  id: "crawl",
  mode: "crawl",
  codes: [
    "sitemap_url_status", "sitemap_missing_pages", "redirect_chain", "duplicate_urls", "title_duplicate",
    "description_duplicate", "duplicate_content", "near_duplicate", "internal_redirects", "orphan_pages",
    "crawl_depth", "hreflang_return", "broken_external",
  ],
  why: "a whole-site crawl (POST /crawl/{host}); a single re-check cannot decide it",
  // Each reason says what a bounded re-fetch of the failing pages and their links would miss. Common
  // to all: the check's result is a count over the whole crawl (the report keeps at most 20
  // examples of it) and its score a share of every crawled page, so a subset can neither see every
  // case nor say what share is left.
  whyNot: {
    sitemap_url_status:
      "it judges every URL the sitemaps list (status, redirect, noindex); the report keeps examples only, and the other listed URLs, or URLs added since, are seen only by reading the whole sitemap and fetching each URL",
    sitemap_missing_pages:
      "it looks for indexable pages that no sitemap lists: those pages are found only by following every internal link from the home page",
    redirect_chain:
      "the crawl keeps each chain but not the pages linking to its start: a chain is fixed by shortening the redirects or by linking to the final URL, and the second shows only on the linking pages, which only a whole crawl finds",
    duplicate_urls:
      "URL variants (slash, parameter order, tracking parameters) are found by comparing every crawled URL with every other",
    title_duplicate: "a title is a duplicate only against every other indexable page's title: changing one page's title can make it collide with a page not fetched",
    description_duplicate: "a description is a duplicate only against every other indexable page's description, including pages not fetched",
    duplicate_content: "exact duplicates are found by comparing each page's text with every other crawled page's",
    near_duplicate: "near-duplicates are clusters over the simhashes of every crawled page: one page's change moves its cluster only against the others",
    internal_redirects:
      "it counts every internal link target that redirects; the crawl keeps those targets without the pages linking to them, so there are no linking pages to fetch again: only a whole crawl's links show which still point at a redirect",
    orphan_pages: "a page is an orphan when no crawled page links to it: only every page's links can show that one now does",
    crawl_depth: "a page's depth is its shortest click path from the home page, computed over the whole link graph",
    broken_external: "the crawl keeps the broken external targets with how many pages link to them, not which: only every page's links show which still point at them",
    hreflang_return: "an alternate must link back: each alternate's own annotations, and every page naming it, are needed, which is the crawl's graph",
  },
};
