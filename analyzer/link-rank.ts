// Internal link rank: PageRank over the crawled internal link graph, to tell which pages the site
// itself puts forward. Loops only (no spread of a page-sized array into a call, no recursion),
// over typed arrays: a crawl may hold hundreds of thousands of pages.
import type { CrawledPage } from "../proto/index.ts";

/** Rank a page passes along its links; RESTART goes to every page alike (0.15 written out: 1 − 0.85 is another float). */
const DAMPING = 0.85;
const RESTART = 0.15;
const ITERATIONS = 30;

/** What the rank reads of a page, and of a redirect (its target). */
type RankedPage = Pick<CrawledPage, "url" | "internalLinks">;
type Redirected = Pick<CrawledPage, "finalUrl">;

/** A graph of `n` nodes in compressed rows: node i's distinct targets are targets[offsets[i] … offsets[i + 1]). */
export interface CompactGraph {
  readonly n: number;
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
}

/**
 * PageRank of each page over links between `pages` (a link to a redirect counts for its target,
 * through `byUrl`), damping 0.85, 30 iterations, scaled so the best page is 100: every score is in
 * (0, 100], and the map has one entry per page URL.
 */
export function linkRank(pages: readonly RankedPage[], byUrl: ReadonlyMap<string, Redirected>): Map<string, number> {
  const scores = rankGraph(outlinks(pages, byUrl));
  const out = new Map<string, number>();
  for (let i = 0; i < pages.length; i++) out.set((pages[i] as RankedPage).url, scores[i] as number);
  return out;
}

/** PageRank of every node of `graph` as linkRank scores it: (0, 100], the best node at 100. */
export function rankGraph(graph: CompactGraph): Float64Array {
  const { n } = graph;
  if (n === 0) return new Float64Array(0);
  let rank = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  for (let iter = 0; iter < ITERATIONS; iter++) {
    step(rank, next, graph);
    [rank, next] = [next, rank];
  }
  let max = 0;
  for (let i = 0; i < n; i++) if ((rank[i] as number) > max) max = rank[i] as number;
  for (let i = 0; i < n; i++) rank[i] = max > 0 ? ((rank[i] as number) / max) * 100 : 0;
  return rank;
}

/** Each page's distinct link targets among `pages`, as indexes, in first-link order. */
function outlinks(pages: readonly RankedPage[], byUrl: ReadonlyMap<string, Redirected>): CompactGraph {
  const index = new Map<string, number>();
  for (let i = 0; i < pages.length; i++) index.set((pages[i] as RankedPage).url, i);
  const resolve = (url: string): number | undefined => index.get(url) ?? index.get(byUrl.get(url)?.finalUrl ?? "");
  const offsets = new Int32Array(pages.length + 1);
  const targets: number[] = [];
  for (let i = 0; i < pages.length; i++) {
    const seen = new Set<number>();
    for (const link of (pages[i] as RankedPage).internalLinks) {
      const t = resolve(link);
      if (t !== undefined && !seen.has(t)) {
        seen.add(t);
        targets.push(t);
      }
    }
    offsets[i + 1] = targets.length;
  }
  return { n: pages.length, offsets, targets: Int32Array.from(targets) };
}

/** One power iteration into `next`: each page passes its rank to its targets; dangling pages' rank is spread over all. */
function step(rank: Float64Array, next: Float64Array, { n, offsets, targets }: CompactGraph): void {
  next.fill(RESTART / n);
  let dangling = 0;
  for (let i = 0; i < n; i++) {
    const from = offsets[i] as number;
    const to = offsets[i + 1] as number;
    const r = rank[i] as number;
    if (from === to) dangling += r;
    else for (let k = from; k < to; k++) next[targets[k] as number] = (next[targets[k] as number] as number) + (DAMPING * r) / (to - from);
  }
  const share = (DAMPING * dangling) / n;
  for (let i = 0; i < n; i++) next[i] = (next[i] as number) + share;
}
