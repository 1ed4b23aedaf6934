// Page checks decided by the crawl (issue 33, real-sites.md R5). A page check judges the analysis's
// sample (home and about 20 pages); a whole-site crawl ran every page check on each of its HTML
// pages (CrawlFindings.page_issues). While that crawl is at most 30 days old (latestCrawl), a page
// check the crawl found failing is decided by it: "N of M crawled pages", scored as a crawl share,
// s = 0.9·(1 − N/M). The sample still speaks for the pages it judged now: a page the crawl listed
// as failing that this run sampled and found passing is fixed since, and leaves the count. A
// sampled page failing now that the crawl did not list is quoted (the sample's detail ends the
// crawl's), not counted: the crawl may not have fetched it (a nofollow or a robots-closed link, a
// depth or page limit) and its M does not hold it. A check the crawl found on no page is left to
// the sample, which saw what the crawl did not (a page changed since, or one it did not reach).
import type { SiteFacts } from "../../proto/index.ts";
import { type CheckDef, type CheckOutcome, MAX_PAGES } from "./check.ts";
import { crawlNote, latestCrawl } from "./crawl-share.ts";
import { htmlPages } from "./page-sample.ts";

/** Failing URLs quoted in the detail (all of them, up to 20, go to `pages`). */
const EXAMPLES = 3;

/** The check's outcome with the crawl's per-page verdicts taken in; the sample's outcome when the crawl has none for it. */
export function decidedByCrawl(def: CheckDef, sample: CheckOutcome, facts: SiteFacts): CheckOutcome {
  if (def.sampleOnly) return sample;
  const crawl = latestCrawl(facts);
  if (!crawl?.pageIssuesCounted || crawl.pages <= 0) return sample;
  const count = crawl.pageIssues.find((c) => c.code === def.code);
  if (!count || count.pages <= 0) return sample;
  const judged = new Set(htmlPages(facts).map((p) => p.url));
  const failingNow = new Set(sample.status === "warn" || sample.status === "fail" ? sample.pages : []);
  const fixed = count.urls.filter((u) => judged.has(u) && !failingNow.has(u)).length;
  const n = Math.min(crawl.pages, count.pages - fixed);
  if (n <= 0) return sample;
  const urls = count.urls.filter((u) => !judged.has(u) || failingNow.has(u));
  const f = n / crawl.pages;
  const outcome: CheckOutcome = {
    status: sample.status === "warn" ? "warn" : "fail",
    score: Math.round(0.9 * (1 - f) * 1e4) / 1e4,
    value: n,
    detail: `${n} of ${crawl.pages} crawled pages fail (${crawlNote(crawl)})${urls.length > 0 ? `; e.g. ${urls.slice(0, EXAMPLES).join("; ")}` : ""}; sampled now: ${sample.detail}`,
    pages: urls.slice(0, MAX_PAGES),
  };
  if (sample.cap !== undefined) outcome.cap = sample.cap;
  if (sample.level !== undefined) outcome.level = sample.level;
  return outcome;
}
