import type { CheckDef } from "./check.ts";
import { notApplicable } from "./check.ts";
import { crawlNote, crawlShare, latestCrawl, NO_CRAWL } from "./crawl-share.ts";
import { htmlPages } from "./page-sample.ts";

export const hreflangReturn: CheckDef = {
  code: "hreflang_return",
  title: "hreflang alternates link back",
  group: "international",
  rankGroup: "presentation",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: false,
  hint: "Give every language version the same set of hreflang links, including one back to each page that lists it; search engines ignore one-way pairs.",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    // A site in one language has no pairs to complete (as hreflang_codes: not applicable, not a pass).
    const annotated = htmlPages(facts).some((p) => p.page.hreflang.length > 0);
    if (crawl.hreflangMissingReturn === 0 && !annotated) return notApplicable(`no page has hreflang annotations (${crawlNote(crawl)})`);
    // The crawl counts (page, alternate) pairs, not pages.
    return crawlShare(crawl, {
      count: crawl.hreflangMissingReturn,
      samples: crawl.hreflang,
      of: "pages",
      counted: crawl.hreflangMissingReturn === 1 ? "alternate" : "alternates",
      problem: "hreflang alternate that does not link back",
    });
  },
};
