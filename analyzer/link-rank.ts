// Internal link rank: PageRank over the crawled internal link graph, to tell which pages the site
// itself puts forward. Loops only (no spread of a page-sized array into a call, no recursion):
// a crawl may hold hundreds of thousands of pages.
import type { CrawledPage } from "../proto/index.ts";

/** Rank a page passes along its links; RESTART goes to every page alike (0.15 written out: 1 − 0.85 is another float). */
const DAMPING = 0.85;
const RESTART = 0.15;
const ITERATIONS = 30;

/** What the rank reads of a page, and of a redirect (its target). */
type RankedPage = Pick<CrawledPage, "url" | "internalLinks">;
type Redirected = Pick<CrawledPage, "finalUrl">;

/**
 * PageRank of each page over links between `pages` (a link to a redirect counts for its target,
 * through `byUrl`), damping 0.85, 30 iterations, scaled so the best page is 100: every score is in
 * (0, 100], and the map has one entry per page URL.
 */
export function linkRank(pages: readonly RankedPage[], byUrl: ReadonlyMap<string, Redirected>): Map<string, number> {
  const n = pages.length;
  if (n === 0) return new Map();
  const out = outlinks(pages, byUrl);
  let rank = new Array<number>(n).fill(1 / n);
  for (let iter = 0; iter < ITERATIONS; iter++) rank = step(rank, out);
  let max = 0;
  for (const r of rank) if (r > max) max = r;
  const scores = new Map<string, number>();
  for (let i = 0; i < n; i++) scores.set((pages[i] as RankedPage).url, max > 0 ? ((rank[i] as number) / max) * 100 : 0);
  return scores;
}

/** Each page's distinct link targets among `pages`, as indexes, in first-link order. */
function outlinks(pages: readonly RankedPage[], byUrl: ReadonlyMap<string, Redirected>): number[][] {
  const index = new Map<string, number>();
  for (let i = 0; i < pages.length; i++) index.set((pages[i] as RankedPage).url, i);
  const resolve = (url: string): number | undefined => index.get(url) ?? index.get(byUrl.get(url)?.finalUrl ?? "");
  return pages.map((p) => {
    const targets = new Set<number>();
    for (const link of p.internalLinks) {
      const t = resolve(link);
      if (t !== undefined) targets.add(t);
    }
    return [...targets];
  });
}

/** One power iteration: each page passes its rank to its targets; dangling pages' rank is spread over all. */
function step(rank: readonly number[], out: readonly number[][]): number[] {
  const n = rank.length;
  const next = new Array<number>(n).fill(RESTART / n);
  let dangling = 0;
  for (let i = 0; i < n; i++) {
    const targets = out[i] as number[];
    const r = rank[i] as number;
    if (targets.length === 0) dangling += r;
    else for (const t of targets) next[t] = (next[t] as number) + (DAMPING * r) / targets.length;
  }
  const share = (DAMPING * dangling) / n;
  for (let i = 0; i < n; i++) next[i] = (next[i] as number) + share;
  return next;
}
