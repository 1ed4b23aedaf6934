// Near-duplicate clusters on generated SimHashes: planted clusters of known sizes and distances
// among unrelated pages. Every planted pair is found, no pair farther than 7 bits is reported,
// the clusters are the planted sets, and the comparisons made stay near linear in pages.
import { describe, expect, it } from "vitest";
import { NEAR_BITS, nearDuplicateClusters, type NearInput } from "../../../analyzer/near-clusters.ts";

/** mulberry32: a seeded generator, the same numbers every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (hi: number, lo: number) => (hi >>> 0).toString(16).padStart(8, "0") + (lo >>> 0).toString(16).padStart(8, "0");
type Hash = [number, number];
const flip = ([hi, lo]: Hash, bits: readonly number[]): Hash => {
  let h = hi;
  let l = lo;
  for (const b of bits) if (b < 32) h ^= 1 << b;
  else l ^= 1 << (b - 32);
  return [h, l];
};
const distinctBits = (rnd: () => number, k: number): number[] => {
  const s = new Set<number>();
  while (s.size < k) s.add(Math.floor(rnd() * 64));
  return [...s];
};
const distance = (a: string, b: string) => {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  for (; x; x &= x - 1n) n++;
  return n;
};

interface Site {
  readonly pages: NearInput[];
  /** The planted clusters' URLs, each sorted. */
  readonly planted: string[][];
}

/**
 * `unrelated` pages with random hashes, and clusters of the given sizes: each member is its
 * cluster's centre with 1 to 3 bits flipped, so every two members are at most 6 bits apart.
 */
function site(seed: number, unrelated: number, sizes: readonly number[]): Site {
  const rnd = random(seed);
  const word = () => Math.floor(rnd() * 2 ** 32) | 0;
  const pages: NearInput[] = [];
  const page = (url: string, h: Hash, content = url) => pages.push({ url, simhash: hex(h[0], h[1]), contentHash: content, words: 300 });
  for (let i = 0; i < unrelated; i++) page(`https://s.test/page/${i}`, [word(), word()]);
  const planted = sizes.map((size, c) => {
    const centre: Hash = [word(), word()];
    const urls: string[] = [];
    for (let m = 0; m < size; m++) {
      const url = `https://s.test/cluster-${c}/${m}`;
      urls.push(url);
      page(url, flip(centre, distinctBits(rnd, 1 + (m % 3))));
    }
    return urls.sort();
  });
  // Shuffle: crawl order does not put a cluster's pages together.
  for (let i = pages.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [pages[i], pages[j]] = [pages[j] as NearInput, pages[i] as NearInput];
  }
  return { pages, planted };
}

/** Every near pair, comparing all pairs: the truth for small sites. */
function bruteForce(pages: readonly NearInput[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < pages.length; i++) {
    for (let j = i + 1; j < pages.length; j++) {
      const a = pages[i] as NearInput;
      const b = pages[j] as NearInput;
      if (a.contentHash !== b.contentHash && distance(a.simhash, b.simhash) <= NEAR_BITS) out.add([a.url, b.url].sort().join(" "));
    }
  }
  return out;
}

describe("nearDuplicateClusters", () => {
  it("finds exactly the pairs an all-pairs comparison finds, and the planted clusters with their sizes", () => {
    const { pages, planted } = site(1, 1500, [2, 3, 5, 8, 40]);
    const truth = bruteForce(pages);
    const r = nearDuplicateClusters(pages);

    expect(new Set(r.pairs.map((p) => `${p.a} ${p.b}`))).toEqual(truth);
    expect(r.pairCount).toBe(truth.size);
    expect(r.pairsExact).toBe(true);
    for (const p of r.pairs) expect(p.similarity).toBe(Number((1 - distance(pageOf(pages, p.a), pageOf(pages, p.b)) / 64).toFixed(3)));
    expect(r.clusters.map((c) => [...c.urls].sort())).toEqual([...planted].sort((a, b) => b.length - a.length || (a[0] as string).localeCompare(b[0] as string)));
    expect(r.clusters.map((c) => c.size)).toEqual([40, 8, 5, 3, 2]);
    expect(r.clusters.map((c) => c.id)).toEqual([1, 2, 3, 4, 5]);
    expect(r.clusters.map((c) => c.pairs)).toEqual([780, 28, 10, 3, 1]);
    expect(r.pages).toBe(58);
    for (const c of r.clusters) expect(c.urls[0]).toBe(c.representative);
  }, 60_000);

  it("keeps the 7-bit edge: 7 bits apart is a pair, 8 is not; a chain is one cluster without its far pair; same text is no near pair", () => {
    const base: Hash = [0x12345678, 0x0badf00d];
    const at = (url: string, h: Hash, content = url): NearInput => ({ url, simhash: hex(h[0], h[1]), contentHash: content, words: 300 });
    const pages = [
      at("https://s.test/seven-a", base),
      at("https://s.test/seven-b", flip(base, [0, 9, 18, 27, 36, 45, 54])),
      at("https://s.test/eight-a", flip(base, [1, 2, 3, 4, 5, 6, 7, 8, 33, 34, 35, 40, 41, 42, 43, 44, 60, 61, 62, 63])),
      at("https://s.test/eight-b", flip(base, [1, 2, 3, 4, 5, 6, 7, 8, 33, 34, 35, 40, 41, 42, 43, 44, 60, 61, 62, 63, 10, 20, 30, 38, 48, 50, 56, 58])),
      // A chain: x–y 6 bits, y–z 6 bits, x–z 12 bits.
      at("https://s.test/x", [0x7f000000, 0x00000001]),
      at("https://s.test/y", flip([0x7f000000, 0x00000001], [40, 41, 42, 43, 44, 45])),
      at("https://s.test/z", flip([0x7f000000, 0x00000001], [40, 41, 42, 43, 44, 45, 50, 51, 52, 53, 54, 55])),
      // The same text twice (same hash, same content): an exact duplicate, not a near pair.
      at("https://s.test/copy-1", [0x55555555, 0x33333333], "same"),
      at("https://s.test/copy-2", [0x55555555, 0x33333333], "same"),
      // Short texts have no meaningful SimHash.
      { ...at("https://s.test/short-1", [0x0f0f0f0f, 0x0f0f0f0f]), words: 20 },
      { ...at("https://s.test/short-2", [0x0f0f0f0f, 0x0f0f0f0f]), words: 20 },
    ];
    const r = nearDuplicateClusters(pages);
    expect(r.pairs).toEqual([
      { a: "https://s.test/seven-a", b: "https://s.test/seven-b", similarity: 0.891 },
      { a: "https://s.test/x", b: "https://s.test/y", similarity: 0.906 },
      { a: "https://s.test/y", b: "https://s.test/z", similarity: 0.906 },
    ]);
    expect(r.clusters).toEqual([
      { id: 1, size: 3, representative: "https://s.test/y", similarity: 0.906, pairs: 2, urls: ["https://s.test/y", "https://s.test/x", "https://s.test/z"] },
      { id: 2, size: 2, representative: "https://s.test/seven-a", similarity: 0.891, pairs: 1, urls: ["https://s.test/seven-a", "https://s.test/seven-b"] },
    ]);
  });

  it("100,000 pages: every planted pair found at about a hundred comparisons a page (all pairs would be 50,000 a page)", () => {
    const sizes = [2, 3, 7, 50, 120];
    const { pages, planted } = site(7, 100_000, sizes);
    const r = nearDuplicateClusters(pages);

    const found = new Set(r.pairs.map((p) => `${p.a} ${p.b}`));
    let plantedPairs = 0;
    for (const urls of planted) {
      const cluster = r.clusters.find((c) => c.urls.includes(urls[0] as string));
      expect([...(cluster?.urls ?? [])].sort()).toEqual(urls);
      for (let i = 0; i < urls.length; i++) for (let j = i + 1; j < urls.length; j++) if (found.has(`${urls[i]} ${urls[j]}`)) plantedPairs++;
    }
    const expected = sizes.reduce((n, s) => n + (s * (s - 1)) / 2, 0);
    expect(plantedPairs).toBe(expected);
    expect(r.pairCount).toBeGreaterThanOrEqual(expected);
    const hashOf = new Map(pages.map((p) => [p.url, p.simhash]));
    let far = 0;
    for (const p of r.pairs) if (distance(hashOf.get(p.a) as string, hashOf.get(p.b) as string) > NEAR_BITS) far++;
    expect(far).toBe(0);
    expect(r.comparisons / pages.length).toBeLessThan(200);
  }, 60_000);

  it("past the candidate bound a crowded cluster stays whole and the pair count says it is a lower bound", () => {
    const { pages, planted } = site(3, 200, [300]);
    const exact = nearDuplicateClusters(pages);
    const bounded = nearDuplicateClusters(pages, 16);
    expect(exact.pairsExact).toBe(true);
    expect(exact.pairCount).toBe(300 * 299 / 2);
    expect(bounded.pairsExact).toBe(false);
    expect(bounded.pairCount).toBeLessThan(exact.pairCount);
    expect(bounded.clusters.map((c) => [...c.urls].sort())).toEqual(planted);
    expect(bounded.comparisons).toBeLessThan(exact.comparisons);
  });
});

function pageOf(pages: readonly NearInput[], url: string): string {
  return (pages.find((p) => p.url === url) as NearInput).simhash;
}
