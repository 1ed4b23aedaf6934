// The crawl checks' edges: which crawl counts, what is not applicable, tiers, and the duplicate
// checks that a crawl decides exactly.
import { describe, expect, it } from "vitest";
import { analyzeSite } from "../../../analyzer/index.ts";
import type { CrawlFindings, SiteFacts } from "../../../proto/index.ts";
import { runCheck } from "./cases/check-case.ts";
import { CRAWL_CASES } from "./cases/crawl.ts";
import { DAY, NOW, ORIGIN, allPages, cleanCrawl, healthySite } from "./site-builder.ts";

const CODES = Object.keys(CRAWL_CASES);
const PAGE_SHARE = ["canonical_target", "hreflang_return", "duplicate_content", "near_duplicate", "crawl_depth", "sitemap_missing_pages", "duplicate_urls"];
const URL_SHARE = ["broken_internal", "internal_redirects", "orphan_pages", "redirect_chain", "sitemap_url_status"];
/** Shares of the external links the crawl checked. */
const CHECKED_SHARE = ["broken_external"];

function withCrawl(patch: Partial<CrawlFindings>, mutate?: (f: SiteFacts) => void): SiteFacts {
  return healthySite((f) => {
    f.crawl = cleanCrawl(patch);
    mutate?.(f);
  });
}

function outcome(code: string, facts: SiteFacts) {
  const o = runCheck(code, facts);
  return { status: o.status, value: o.value, score: o.score, level: o.level, detail: o.detail };
}

describe("which crawl counts", () => {
  it("splits the crawl checks into page shares, URL shares and shares of checked external links, one of each per check", () => {
    expect([...PAGE_SHARE, ...URL_SHARE, ...CHECKED_SHARE].sort()).toEqual([...CODES].sort());
  });

  it.each(CODES)("%s: no crawl, a crawl marked absent, or one older than 30 days → na", (code) => {
    const na = { status: "na", value: null, score: null, level: undefined, detail: "no whole-site crawl in the last 30 days" };
    expect(outcome(code, healthySite())).toEqual(na);
    expect(outcome(code, withCrawl({ present: false }))).toEqual(na);
    expect(outcome(code, withCrawl({ crawledAt: NOW - 30 * DAY - 1 }))).toEqual(na);
    expect(outcome(code, withCrawl({ crawledAt: NOW - 30 * DAY })).status).toBe("pass");
  });

  it.each(PAGE_SHARE)("%s: a crawl that fetched no HTML page → na", (code) => {
    expect(outcome(code, withCrawl({ pages: 0, urls: 3 }))).toMatchObject({ status: "na", detail: "the crawl of 2025-06-13 fetched no HTML page" });
  });

  it.each(URL_SHARE)("%s: a crawl that fetched no URL → na", (code) => {
    expect(outcome(code, withCrawl({ pages: 0, urls: 0 }))).toMatchObject({ status: "na", detail: "the crawl of 2025-06-13 fetched no URL" });
  });
});

describe("crawl check outcomes", () => {
  it("name the count, the share's population, the crawl's date and the first three examples; list every sampled URL", () => {
    const broken = Array.from({ length: 25 }, (_, i) => ({ url: `${ORIGIN}/gone/${i}/`, detail: `404, linked from 1 page (e.g. ${ORIGIN}/)` }));
    const o = runCheck("broken_internal", withCrawl({ brokenLinks: 31, broken }));
    expect(o.detail).toBe(
      "31 of 50 URLs: linked internally but answering 4xx, 5xx or not at all (crawl of 2025-06-13); e.g. " +
        `${ORIGIN}/gone/0/ (404, linked from 1 page (e.g. ${ORIGIN}/)); ${ORIGIN}/gone/1/ (404, linked from 1 page (e.g. ${ORIGIN}/)); ` +
        `${ORIGIN}/gone/2/ (404, linked from 1 page (e.g. ${ORIGIN}/))`,
    );
    expect(o.pages).toEqual(broken.slice(0, 20).map((b) => b.url));
    expect(o.score).toBeCloseTo(0.9 * (1 - 31 / 50), 12);
  });

  it("say when the crawl stopped early", () => {
    const o = runCheck("duplicate_urls", withCrawl({ truncatedBy: "page_limit", urlVariants: 2 }));
    expect(o.detail).toBe("2 of 40 pages: another URL of a page crawled under a different slash, parameter order or tracking parameters (crawl of 2025-06-13, stopped early: page_limit)");
  });

  it("cap the share at 1 when a count is not of pages (hreflang counts page-alternate pairs)", () => {
    const o = outcome("hreflang_return", withCrawl({ hreflangMissingReturn: 60 }));
    expect(o).toMatchObject({ status: "fail", value: 60, score: 0 });
    expect(o.detail).toBe("60 alternates over 40 pages: hreflang alternate that does not link back (crawl of 2025-06-13)");
  });
});

describe("not applicable for lack of something to judge", () => {
  it.each(["orphan_pages", "sitemap_url_status", "sitemap_missing_pages"])("%s: no sitemap URLs to compare with", (code) => {
    expect(outcome(code, withCrawl({ sitemapListed: false })).status).toBe("na");
  });

  it("orphan_pages: a crawl that stopped early may have missed the links (the other checks still judge it)", () => {
    expect(outcome("orphan_pages", withCrawl({ truncatedBy: "time_limit", orphans: 5 }))).toMatchObject({
      status: "na",
      detail: "the crawl did not reach every page (crawl of 2025-06-13, stopped early: time_limit)",
    });
    expect(outcome("broken_internal", withCrawl({ truncatedBy: "time_limit", brokenLinks: 1 })).status).toBe("fail");
  });

  it("hreflang_return: a site without hreflang is not judged, but the crawl's missing returns always are", () => {
    const noHreflang = (f: SiteFacts) => allPages(f).forEach((p) => void (p.hreflang = []));
    expect(outcome("hreflang_return", withCrawl({}, noHreflang)).status).toBe("na");
    expect(outcome("hreflang_return", withCrawl({ hreflangMissingReturn: 1 }, noHreflang)).status).toBe("fail");
  });

  it("canonical_target: a site declaring no canonical is not judged, but the crawl's bad canonicals always are", () => {
    const noCanonical = (f: SiteFacts) => allPages(f).forEach((p) => void (p.canonicals = []));
    expect(outcome("canonical_target", withCrawl({}, noCanonical)).status).toBe("na");
    expect(outcome("canonical_target", withCrawl({ canonicalBad: 1 }, noCanonical)).status).toBe("fail");
  });
});

describe("levels", () => {
  it("redirect_chain: a loop raises the task to bad; the score stays proportional", () => {
    const chain = { url: `${ORIGIN}/a`, detail: `2 hops: ${ORIGIN}/a → ${ORIGIN}/a/ → ${ORIGIN}/b/` };
    const loop = { url: `${ORIGIN}/x`, detail: "redirect loop" };
    expect(outcome("redirect_chain", withCrawl({ redirectChains: 2, redirectChain: [chain] })).level).toBeUndefined();
    const looping = outcome("redirect_chain", withCrawl({ redirectChains: 2, redirectLoops: 1, redirectChain: [chain, loop] }));
    expect(looping).toMatchObject({ status: "fail", value: 2, level: "bad" });
    expect(looping.score).toBeCloseTo(0.9 * (1 - 2 / 50), 12);
  });

  it("crawl_depth: up to 10 % of the pages deep is a soft failure at info level, more a failure at warn level", () => {
    const few = outcome("crawl_depth", withCrawl({ deepPages: 4, maxDepth: 5 }));
    expect(few).toMatchObject({ status: "warn", value: 4, level: "info" });
    expect(few.score).toBeCloseTo(0.9 * (1 - 4 / 40), 12);
    expect(few.detail).toBe("4 of 40 pages: more than 3 clicks from the home page, the deepest 5 (crawl of 2025-06-13)");
    expect(outcome("crawl_depth", withCrawl({ deepPages: 5, maxDepth: 5 }))).toMatchObject({ status: "fail", level: undefined });
  });
});

describe("title_duplicate and description_duplicate", () => {
  // The fixture's sampled pages have distinct titles and descriptions.
  const sampleDuplicates = (f: SiteFacts) => {
    f.pages[1]!.title = f.pages[0]!.title;
    f.pages[1]!.metaDescription = f.pages[0]!.metaDescription;
  };

  it.each<[string, Partial<CrawlFindings>]>([
    ["title_duplicate", { duplicateTitles: 6, duplicateTitle: [{ url: `${ORIGIN}/tag/a/`, detail: 'title shared with 5 other pages: "Tags"' }] }],
    ["description_duplicate", { duplicateDescriptions: 6, duplicateDescription: [{ url: `${ORIGIN}/tag/a/`, detail: 'description shared with 5 other pages: "All tags"' }] }],
  ])("%s: the crawl's exact count over its pages decides when there is a crawl", (code, found) => {
    const o = runCheck(code, withCrawl(found));
    expect({ status: o.status, value: o.value, pages: o.pages }).toEqual({ status: "fail", value: 6, pages: [`${ORIGIN}/tag/a/`] });
    expect(o.score).toBeCloseTo(0.9 * (1 - 6 / 40), 12);
    // Duplicates the sample shows but the crawl does not count do not fail.
    expect(outcome(code, withCrawl({}, sampleDuplicates))).toMatchObject({ status: "pass", value: 0 });
  });

  it.each(["title_duplicate", "description_duplicate"])("%s: without a crawl, or with one of fewer than two pages, the sample decides", (code) => {
    const fromSample = { status: "fail", value: 2 };
    expect(outcome(code, healthySite(sampleDuplicates))).toMatchObject(fromSample);
    expect(outcome(code, withCrawl({ pages: 1, duplicateTitles: 0 }, sampleDuplicates))).toMatchObject(fromSample);
    expect(outcome(code, withCrawl({ present: false }, sampleDuplicates))).toMatchObject(fromSample);
  });
});

describe("in the report", () => {
  it("a crawl failure opens a task that only the next crawl can close, and moves the links group", () => {
    const clean = analyzeSite(withCrawl({}));
    const broken = analyzeSite(withCrawl({ brokenLinks: 10, broken: [{ url: `${ORIGIN}/gone/`, detail: "404, linked from 2 pages" }] }));
    expect(broken.tasks.map((t) => [t.code, t.level, t.recheck])).toEqual([["broken_internal", "bad", false]]);
    // links: broken_internal 6·0.9·(1 − 10/50) = 4.32, the other 22 of weight pass → 26.32/28 = 0.94;
    // 100·R = 100 − 10·(1 − 0.94) = 99.4 → 99.
    expect(broken.groups.find((g) => g.id === "links")).toEqual({ id: "links", weight: 10, score: 94, checks: 11 });
    expect([clean.rank, broken.rank]).toEqual([100, 99]);
  });
});
