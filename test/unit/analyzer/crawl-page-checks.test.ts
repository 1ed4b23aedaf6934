import { describe, expect, it } from "vitest";
import { analyzeSite, CrawlFactsBuilder } from "../../../analyzer/index.ts";
import { CrawledPage, type PageIssueCount, type SiteFacts } from "../../../proto/index.ts";
import { DAY, NOW, ORIGIN, cleanCrawl, healthySite } from "./site-builder.ts";

// Page checks decided by the crawl (issue 33, real-sites.md R5): the healthy site's sample is home,
// /about/ and /blog/first-post/, every page check passing; its crawl of two days before saw 40
// HTML pages.

const thin = (n: number) => Array.from({ length: n }, (_, i) => `${ORIGIN}/tag/t${i + 1}/`);

function withCrawl(pageIssues: PageIssueCount[], patch: { crawledAt?: number; counted?: boolean } = {}, mutate?: (f: SiteFacts) => void): SiteFacts {
  return healthySite((f) => {
    f.crawl = cleanCrawl({ pageIssues, pageIssuesCounted: patch.counted ?? true, ...(patch.crawledAt !== undefined ? { crawledAt: patch.crawledAt } : {}) });
    mutate?.(f);
  });
}

const item = (facts: SiteFacts, code: string) => analyzeSite(facts).items.find((i) => i.code === code);

describe("page checks decided by a recent crawl (R5)", () => {
  it("a check the sample passes fails on the crawl's pages, N of M crawled pages", () => {
    const facts = withCrawl([{ code: "text_length", pages: 25, urls: thin(20) }]);
    expect(item(facts, "text_length")).toMatchObject({
      status: "fail",
      value: 25,
      score: 0.3375, // 0.9 · (1 − 25/40)
      detail: `25 of 40 crawled pages fail (crawl of 2025-06-13); e.g. ${ORIGIN}/tag/t1/; ${ORIGIN}/tag/t2/; ${ORIGIN}/tag/t3/; sampled now: 2 pages checked, all pass`,
      pages: thin(20),
    });
    const task = analyzeSite(facts).tasks.find((t) => t.code === "text_length");
    expect(task?.detail).toMatch(/^25 of 40 crawled pages fail/);
  });

  it("without the crawl's page counts the sample decides, as before", () => {
    const sample = item(healthySite(), "text_length");
    expect(sample).toMatchObject({ status: "pass", detail: "2 pages checked, all pass" });
    // A crawl older than 30 days, and a crawl made before the counts existed.
    expect(item(withCrawl([{ code: "text_length", pages: 25, urls: thin(20) }], { crawledAt: NOW - 31 * DAY }), "text_length")).toEqual(sample);
    expect(item(withCrawl([{ code: "text_length", pages: 25, urls: thin(20) }], { counted: false }), "text_length")).toEqual(sample);
  });

  it("a page the crawl listed and this run sampled passing is fixed since: it leaves the count", () => {
    // The crawl listed /about/ among 3 thin pages (all it found); this run judges /about/ again and it passes.
    const facts = withCrawl([{ code: "text_length", pages: 3, urls: [`${ORIGIN}/about/`, `${ORIGIN}/tag/a/`, `${ORIGIN}/tag/b/`] }]);
    expect(item(facts, "text_length")).toMatchObject({
      status: "fail",
      value: 2,
      pages: [`${ORIGIN}/tag/a/`, `${ORIGIN}/tag/b/`],
      detail: `2 of 40 crawled pages fail (crawl of 2025-06-13); e.g. ${ORIGIN}/tag/a/; ${ORIGIN}/tag/b/; sampled now: 2 pages checked, all pass`,
    });
    // Every listed page fixed: the sample's verdict stands.
    const all = withCrawl([{ code: "text_length", pages: 1, urls: [`${ORIGIN}/about/`] }]);
    expect(item(all, "text_length")).toMatchObject({ status: "pass", detail: "2 pages checked, all pass" });
  });

  it("a sampled page failing now that the crawl did not list is quoted, not counted", () => {
    const facts = withCrawl([{ code: "text_length", pages: 1, urls: [`${ORIGIN}/tag/a/`] }], {}, (f) => {
      f.pages[0]!.wordCount = 120; // /about/ became thin after the crawl (or the crawl never fetched it)
    });
    expect(item(facts, "text_length")).toMatchObject({
      status: "fail",
      value: 1,
      pages: [`${ORIGIN}/tag/a/`],
      detail: `1 of 40 crawled pages fail (crawl of 2025-06-13); e.g. ${ORIGIN}/tag/a/; sampled now: 1 of 2 pages: fewer than 200 words of text (${ORIGIN}/about/: 120 words)`,
    });
  });

  it("url_hygiene stays with the sample: the site's URL scheme is not seen one page at a time", () => {
    const facts = withCrawl([{ code: "url_hygiene", pages: 40, urls: thin(20) }]);
    expect(item(facts, "url_hygiene")).toMatchObject({ status: "pass" });
  });
});

describe("a crawl's page issue counts (CrawlFindings.page_issues)", () => {
  const stored = (url: string, patch: Partial<CrawledPage>) => CrawledPage.fromPartial({ url, finalUrl: url, status: 200, isHtml: true, ...patch });

  it("count the HTML pages answering 2xx themselves, a page stored again once, its first 20 by URL", () => {
    const b = new CrawlFactsBuilder();
    for (let i = 25; i >= 1; i--) b.add(stored(`${ORIGIN}/t/${String(i).padStart(2, "0")}/`, { issues: ["text_length"] }));
    b.add(stored(`${ORIGIN}/a/`, { issues: ["text_length", "headings_order"] }));
    b.add(stored(`${ORIGIN}/a/`, { issues: ["headings_order"] })); // stored again (a resumed attempt): its last facts count
    b.add(stored(`${ORIGIN}/gone/`, { status: 404, isHtml: true, issues: ["text_length"] }));
    b.add(stored(`${ORIGIN}/old/`, { finalUrl: `${ORIGIN}/t/01/`, redirects: [{ url: `${ORIGIN}/old/`, status: 301, location: `${ORIGIN}/t/01/` }], issues: ["text_length"] }));
    b.add(stored(`${ORIGIN}/file.pdf`, { isHtml: false, issues: ["text_length"] }));
    const counts = b.pageIssues();
    expect(counts.map((c) => [c.code, c.pages, c.urls.length, c.urls[0], c.urls[19]])).toEqual([
      ["text_length", 25, 20, `${ORIGIN}/t/01/`, `${ORIGIN}/t/20/`],
      ["headings_order", 1, 1, `${ORIGIN}/a/`, undefined],
    ]);
  });
});
