import { failingPages, lookFacts, recheckTarget } from "./page.ts";
import type { NarrowContext, RecheckScope } from "./scope.ts";

/** The one check of the family that reads the sampled pages too (their canonicals against the sitemap's URLs). */
const WITH_PAGES = "sitemap_non_canonical";

function codeOf(ctx: NarrowContext): string | undefined {
  return ctx.code ?? ctx.item?.code;
}

/**
 * robots.txt and sitemap checks: one `robots` look of the `recheck` kind fetches robots.txt (parsed
 * by the crawler's own parser), the sitemaps it names (or /sitemap.xml, through the analysis's
 * sitemap collector) and the home page (robots_blocks_assets reads its scripts and styles), on a
 * crawler node through the egress guard. sitemap_non_canonical also needs the pages it failed on
 * (their canonicals): they are fetched in the same look, and like a page check their pass decides.
 */
export const robotsScope: RecheckScope = {
  id: "robots",
  mode: "robots",
  decidesOnPassOnly: (code) => code === WITH_PAGES,
  codes: [
    "robots_txt_fetch", "robots_txt_syntax", "robots_blocks_all", "robots_blocks_assets", "ai_crawlers_blocked",
    "sitemap_present", "sitemap_in_robots", "sitemap_valid", "sitemap_blocked_urls", WITH_PAGES,
  ],
  why: "a live fetch of robots.txt, its sitemaps and the home page (and, for sitemap_non_canonical, the pages it failed on)",
  applies: (ctx: NarrowContext) => codeOf(ctx) !== WITH_PAGES || failingPages(ctx) !== undefined,
  target: (ctx) => recheckTarget(ctx, true, codeOf(ctx) === WITH_PAGES ? (failingPages(ctx) ?? []) : []),
  facts: lookFacts,
};
