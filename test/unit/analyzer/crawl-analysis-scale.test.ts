// The crawl analysis at the size of a large site: the link rank over 300,000 pages runs (it used
// to spread one argument per page into Math.max, which overflows the stack past about 100k) and
// its scores stay in their documented range, (0, 100] with the best page at 100.
import { describe, expect, it } from "vitest";
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
