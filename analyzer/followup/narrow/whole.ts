import type { RecheckScope } from "./scope.ts";

/**
 * Checks whose facts only the whole analysis gathers together: robots.txt and sitemaps (parsed
 * rules, the sitemap's URLs against robots and canonicals), the http:// and www twins, the 404 probe,
 * security.txt, the favicon, the web app manifest, the browser's lab metrics, and checks that read
 * the sample's pages together with DNS or that leave the home page out (text_length).
 */
export const analysisScope: RecheckScope = {
  id: "analysis",
  mode: "analysis",
  codes: [
    "robots_txt_fetch", "robots_txt_syntax", "robots_blocks_all", "robots_blocks_assets", "ai_crawlers_blocked",
    "sitemap_present", "sitemap_in_robots", "sitemap_valid", "sitemap_blocked_urls", "sitemap_non_canonical",
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
    "sitemap_url_status", "sitemap_missing_pages", "canonical_target", "redirect_chain", "duplicate_urls", "title_duplicate",
    "description_duplicate", "duplicate_content", "near_duplicate", "broken_internal", "internal_redirects", "orphan_pages",
    "crawl_depth", "hreflang_return",
  ],
  why: "a whole-site crawl (POST /crawl/{host}); a single re-check cannot decide it",
};
