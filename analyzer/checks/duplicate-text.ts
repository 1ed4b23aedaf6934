import type { CrawlFindings, CrawlSample, PageFacts, SiteFacts } from "../../proto/index.ts";
import type { CheckOutcome } from "./check.ts";
import { crawlShare, latestCrawl } from "./crawl-share.ts";
import { isNoindex } from "./noindex.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

function normalise(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ");
}

/**
 * Fails every indexable page whose text (a title, a description) another indexable page repeats,
 * compared case- and whitespace-insensitively; needs at least two pages carrying the text.
 * With a whole-site crawl of at least two pages, the crawl's exact count over its pages decides
 * (the same rule, applied by the crawler to every page); otherwise this run's sampled pages do.
 */
export function duplicateText(
  facts: SiteFacts,
  textOf: (page: PageFacts) => string,
  fromCrawl: (crawl: CrawlFindings) => { count: number; samples: readonly CrawlSample[] },
  words: { problem: string; none: string; quote: boolean },
): CheckOutcome {
  const crawl = latestCrawl(facts);
  if (crawl && crawl.pages >= 2) return crawlShare(crawl, { ...fromCrawl(crawl), of: "pages", problem: words.problem });
  const pages = htmlPages(facts).filter((p) => textOf(p.page).trim() && !isNoindex(p.page, facts.checkedAt));
  const candidates = pages.length >= 2 ? pages : [];
  const counts = new Map<string, number>();
  for (const p of candidates) {
    const key = normalise(textOf(p.page));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return aggregatePages(
    candidates,
    ({ page }) => {
      if ((counts.get(normalise(textOf(page))) ?? 0) <= 1) return "pass";
      return words.quote ? { verdict: "fail", why: `"${textOf(page).trim()}"` } : "fail";
    },
    { problem: words.problem, none: words.none },
  );
}
