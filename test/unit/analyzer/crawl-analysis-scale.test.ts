// The crawl analysis at the size of a large site: the link rank over 300,000 pages runs (it used
// to spread one argument per page into Math.max, which overflows the stack past about 100k) and
// its scores stay in their documented range, (0, 100] with the best page at 100; the whole-crawl
// analysis over the compact facts of 100,000 pages (and 10,100 redirects and broken URLs) runs
// with no spread or recursion over page-sized arrays, and finds what was planted.
import { describe, expect, it } from "vitest";
import { analyzeCrawlFacts, type CrawlFacts, type PageFacts } from "../../../analyzer/index.ts";
import { linkRank } from "../../../analyzer/link-rank.ts";

const PAGES = 300_000;
const url = (i: number) => `https://example.test/p/${i}`;

/**
 * A site of `PAGES` pages: every page links to the home page, to its two neighbours and to one
 * URL that redirects to the page after next; every hundredth page links nowhere (dangling).
 */
function largeSite() {
  const urls = Array.from({ length: PAGES }, (_, i) => url(i));
  const pages = urls.map((u, i) => ({
    url: u,
    internalLinks: i % 100 === 99 ? [] : [urls[0] as string, urls[(i + 1) % PAGES] as string, urls[(i + PAGES - 1) % PAGES] as string, `${u}/moved`],
  }));
  const byUrl = new Map(urls.map((u, i) => [`${u}/moved`, { finalUrl: urls[(i + 2) % PAGES] as string }]));
  return { pages, byUrl };
}

describe("linkRank at scale", () => {
  it("ranks 300,000 pages, every score in (0, 100], the home page (linked from every page) at 100", () => {
    const { pages, byUrl } = largeSite();
    const scores = linkRank(pages, byUrl);

    expect(scores.size).toBe(PAGES);
    expect(scores.get(url(0))).toBe(100);
    let outOfRange = 0;
    let best = 0;
    for (const [u, s] of scores) {
      if (!(s > 0 && s <= 100)) outOfRange += 1;
      if (u !== url(0) && s > best) best = s;
    }
    expect(outOfRange).toBe(0);
    expect(best).toBeLessThan(100);
  });

  it("gives nothing for no pages, and 100 to each of two pages that link to each other", () => {
    expect(linkRank([], new Map()).size).toBe(0);
    const scores = linkRank([{ url: url(1), internalLinks: [url(2)] }, { url: url(2), internalLinks: [url(1)] }], new Map());
    expect([...scores]).toEqual([[url(1), 100], [url(2), 100]]);
  });
});

/**
 * The facts of a crawl of `n` pages: page i links to the home page and to page i + 1; every
 * tenth page also links to /p/i/moved (a 301 to page i + 2), every thousandth (i ≡ 500) to
 * /gone/i (a 404); every hundredth page (i ≡ 99) links nowhere.
 */
function largeCrawl(n: number): CrawlFacts {
  const urls: string[] = [];
  const pages: PageFacts[] = [];
  const id = (u: string) => urls.push(u) - 1;
  for (let i = 0; i < n; i++) id(url(i));
  const base = { error: "", skipped: "", noindex: false, words: 0, description: "", contentHash: "", simhash: "", canonical: "", hreflang: [], externalLinks: [] };
  for (let i = 0; i < n; i++) {
    const links: number[] = [];
    if (i % 100 !== 99) {
      if (i !== 0) links.push(0);
      links.push((i + 1) % n);
      if (i % 10 === 0) {
        const moved = id(`${url(i)}/moved`);
        links.push(moved);
        const target = (i + 2) % n;
        pages.push({ ...base, id: moved, url: urls[moved] as string, finalUrl: url(target), finalId: target, status: 200, isHtml: true, depth: 2, title: "", redirects: [{ url: urls[moved] as string, location: url(target) }], links: new Int32Array(0) });
      }
      if (i % 1000 === 500) {
        const gone = id(`https://example.test/gone/${i}`);
        links.push(gone);
        pages.push({ ...base, id: gone, url: urls[gone] as string, finalUrl: urls[gone] as string, finalId: gone, status: 404, isHtml: true, depth: 2, title: "Not found", redirects: [], links: new Int32Array(0) });
      }
    }
    pages.push({ ...base, id: i, url: url(i), finalUrl: url(i), finalId: i, status: 200, isHtml: true, depth: i === 0 ? 0 : 1 + (i % 3), title: `Page ${i}`, redirects: [], links: Int32Array.from(links) });
  }
  return { urls, pages };
}

const ANALYSED = 100_000;

describe("the whole-crawl analysis at scale", () => {
  it("analyses 100,000 pages' compact facts: link counts, broken links, redirects and ranks as planted", () => {
    const n = ANALYSED;
    const facts = largeCrawl(n);
    const a = analyzeCrawlFacts({ jobId: 1, crawledAt: 1, facts, sitemapUrls: [url(5), "https://example.test/never-linked"], truncatedBy: "", traps: [], external: [], politeness: { delayMs: 0, connections: 1, throttled: 0, retryAfterWaitS: 0 }, durationMs: 1 });
    const linking = n - n / 100; // pages with links
    expect(a.report.summary).toMatchObject({ pages: n, known: n + n / 10 + n / 1000, broken_links: n / 1000, redirects: n / 10, orphans: 1, max_depth: 3 });
    // Home (from every linking page but itself) + next page + moved + gone.
    expect(a.report.graph["edges"]).toBe(linking - 1 + linking + n / 10 + n / 1000);
    expect(a.report.links.broken).toHaveLength(n / 1000);
    expect(a.report.links.broken[0]).toMatchObject({ status: 404, links: 1 });
    expect(a.report.links.orphans).toEqual([{ url: "https://example.test/never-linked", status: 0 }]);
    expect(a.pageStats).toHaveLength(facts.pages.length);
    const home = a.pageStats.find((p) => p.url === url(0));
    expect(home).toEqual({ url: url(0), inlinks: linking - 1, score: 100 });
    expect(a.report.links.top_pages[0]).toMatchObject({ url: url(0), score: 100 });
    // Page 2 is linked from page 1 and, through /p/0/moved, from page 0.
    expect(a.pageStats.find((p) => p.url === url(2))?.inlinks).toBe(2);
    expect(a.findings.duplicateTitles).toBe(0);
  }, 120_000);
});
