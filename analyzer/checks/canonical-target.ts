import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlNote, crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";
import { htmlPages } from "./page-sample.ts";

export const canonicalTarget: CheckDef = {
  code: "canonical_target",
  title: "Canonical URLs point to live pages",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: false,
  hint: "Point each canonical at the final URL of an indexable page on this host that answers 200 itself, not at a redirect, an error or another site.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    // As canonical_valid: a site that declares no canonical has nothing to aim (canonical_present
    // fails instead). The crawl saw every page, the sample only some: either one declaring decides.
    const declares = crawl.canonicalDeclared > 0 || htmlPages(facts).some((p) => p.page.canonicals.length > 0 || p.page.canonicalHeader !== "");
    if (crawl.canonicalBad === 0 && !declares) return notApplicable(`no crawled page declares a canonical URL (${crawlNote(crawl)})`);
    return crawlShare(crawl, { count: crawl.canonicalBad, samples: crawl.canonical, of: "pages", problem: "canonical points to a redirect, an error, a noindex page or another host" });
  },
};
