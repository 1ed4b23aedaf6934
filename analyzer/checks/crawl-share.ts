// Crawl-scoped checks (scope C in seo-anchors §2) judge what the site's latest whole-site crawl
// found: SiteFacts.crawl, which the scheduler attaches to later analyses. No crawl, or one more than
// 30 days older than the run, leaves them not applicable (§3.2). Like page checks they score the
// affected share f of what the crawl saw: s = 1 if f = 0, else 0.9·(1 − f); every page weighs 1,
// since the crawl reports exact counts rather than which pages they are.
import type { CrawlFindings, CrawlSample, SiteFacts } from "../../proto/index.ts";
import { type CheckOutcome, MAX_PAGES, notApplicable, pass } from "./check.ts";

const MAX_AGE_S = 30 * 86_400;
/** Examples quoted in a failing detail (all sampled URLs go to `pages`). */
const EXAMPLES = 3;

export const NO_CRAWL = "no whole-site crawl in the last 30 days";

/** The crawl the crawl checks may judge: present and at most 30 days older than this run (run clock: checked_at). */
export function latestCrawl(facts: SiteFacts): CrawlFindings | undefined {
  const crawl = facts.crawl;
  if (!crawl?.present || facts.checkedAt - crawl.crawledAt > MAX_AGE_S) return undefined;
  return crawl;
}

export interface CrawlShare {
  /** Exact number of affected items (CrawlFindings counts). */
  count: number;
  samples: readonly CrawlSample[];
  /** The population f is a share of: the crawled HTML pages (2xx) or every internal URL fetched. */
  of: "pages" | "urls";
  /** What is wrong with an affected item, e.g. "linked internally but redirecting". */
  problem: string;
  /**
   * The unit of `count` when it is not the pages or URLs themselves (hreflang: alternates). f is
   * then count ÷ population, capped at 1: it overstates the share when one page has several.
   */
  counted?: string;
}

function crawlDay(crawl: CrawlFindings): string {
  return new Date(crawl.crawledAt * 1000).toISOString().slice(0, 10);
}

/** The crawl's date and, when it stopped early, why: every crawl detail ends with it. */
export function crawlNote(crawl: CrawlFindings): string {
  return crawl.truncatedBy ? `crawl of ${crawlDay(crawl)}, stopped early: ${crawl.truncatedBy}` : `crawl of ${crawlDay(crawl)}`;
}

function examples(samples: readonly CrawlSample[]): string {
  return samples
    .slice(0, EXAMPLES)
    .map((s) => (s.detail ? `${s.url} (${s.detail})` : s.url))
    .join("; ");
}

/** Fold one crawl count into an outcome; value = the count, pages = the sampled URLs. */
export function crawlShare(crawl: CrawlFindings, share: CrawlShare): CheckOutcome {
  const total = share.of === "pages" ? crawl.pages : crawl.urls;
  const unit = share.of === "pages" ? "pages" : "URLs";
  if (total <= 0) return notApplicable(`the crawl of ${crawlDay(crawl)} fetched no ${share.of === "pages" ? "HTML page" : "URL"}`);
  const note = crawlNote(crawl);
  if (share.count <= 0) return pass(0, `${total} ${unit} crawled, all pass (${note})`);
  const f = Math.min(1, share.count / total);
  const lead = share.counted ? `${share.count} ${share.counted} over ${total} ${unit}` : `${share.count} of ${total} ${unit}`;
  const shown = examples(share.samples);
  return {
    status: "fail",
    // Four decimals, as page checks store them.
    score: Math.round(0.9 * (1 - f) * 1e4) / 1e4,
    value: share.count,
    detail: `${lead}: ${share.problem} (${note})${shown ? `; e.g. ${shown}` : ""}`,
    pages: [...new Set(share.samples.map((s) => s.url))].slice(0, MAX_PAGES),
  };
}
