// Near-duplicate texts among a crawl's pages as clusters, at a cost near linear in pages.
//
// Two texts are near-duplicates when their 64-bit SimHashes differ in at most NEAR_BITS (7) bits.
// The search is multi-index hashing: a hash is cut into 4 blocks of 16 bits, and two hashes at
// most 7 bits apart differ in at most 1 bit in at least one block (were every block 2 bits apart,
// they would be 8 apart). So each hash is looked up, block by block, under its block value and the
// 16 values one bit away: 68 lookups find every hash within 7 bits, and the candidates they bring
// that are not near are few (a random hash shares a given 16-bit value with probability 2^-16).
// The old scheme (8 blocks of 8 bits, every pair in a bucket compared) compared n²/32 pairs.
//
// Pages with the same SimHash are compared once (as one hash with several pages); pages with the
// same text (content hash) are exact duplicates, reported as such, and never a near pair of
// each other. A cluster is a connected set of pages joined by near pairs: it has an id, a size,
// a representative (the page nearly alike to most others) and its members.
//
// Bounded cost where buckets are crowded: a hash never examines more than MAX_CANDIDATES other
// hashes. Past that (thousands of distinct hashes in one 16-bit bucket happens only when thousands
// of pages are themselves near each other), it examines the most recent ones and then the rest of
// the bucket only to join a cluster it is not in yet; the cluster stays whole, and the pair count
// is a lower bound (`pairsExact` false says so).

/** Hamming distance at or under which two SimHashes are near-duplicates (about 90 % alike by 3-shingles). */
export const NEAR_BITS = 7;
/** A text this short has no meaningful SimHash. */
export const MIN_WORDS_FOR_NEAR = 50;
/** Hashes a hash is compared with at most, before the cluster-joining fallback (see the file comment). */
export const MAX_CANDIDATES = 4096;
/** Near pairs kept for the report's pair list (the pair count is kept whole). */
export const MAX_PAIRS_KEPT = 10_000;

const BLOCKS = 4;
const BLOCK_BITS = 16;

export interface NearInput {
  readonly url: string;
  /** 16 hex digits, "" when none. */
  readonly simhash: string;
  readonly contentHash: string;
  readonly words: number;
}

export interface NearPair {
  readonly a: string;
  readonly b: string;
  readonly similarity: number;
}

export interface NearCluster {
  /** 1, 2, … in the order listed (largest first): stable for one crawl's report. */
  readonly id: number;
  readonly size: number;
  /** The member nearly alike to most others (shortest URL among equals). */
  readonly representative: string;
  /** The lowest similarity of a near pair inside the cluster. */
  readonly similarity: number;
  /** Near pairs inside the cluster. */
  readonly pairs: number;
  /** Every member, the representative first, then by URL. */
  readonly urls: string[];
}

export interface NearDuplicateResult {
  readonly clusters: NearCluster[];
  /** Pages in clusters. */
  readonly pages: number;
  /** Near pairs found (every pair of pages whose texts are near-duplicates). */
  readonly pairCount: number;
  /** False when the candidate bound was reached: then pairCount is a lower bound. */
  readonly pairsExact: boolean;
  /** Up to MAX_PAIRS_KEPT pairs, sorted by a then b. */
  readonly pairs: NearPair[];
  /** Hash comparisons made: the cost, for tests and benchmarks. */
  readonly comparisons: number;
}

/** A page as the search reads it: its SimHash's halves and a key of its text (equal texts, equal keys). */
export interface NearHashed {
  readonly url: string;
  readonly hi: number;
  readonly lo: number;
  readonly content: string | number;
}

/** One distinct SimHash and its pages. */
interface HashGroup {
  readonly hi: number;
  readonly lo: number;
  readonly urls: string[];
  readonly contents: (string | number)[];
  /** Pairs of its own pages with different texts. */
  innerPairs: number;
  /** Pages one of its pages is nearly alike to (its own, and other groups' pages). */
  degree: number;
  /** The next group whose hash has the same high half. */
  sameHi: HashGroup | null;
}

/** Near-duplicate clusters among `pages` (see the file comment). */
export function nearDuplicateClusters(pages: Iterable<NearInput>, maxCandidates = MAX_CANDIDATES): NearDuplicateResult {
  return nearClustersOfHashed(hashed(pages), maxCandidates);
}

/** The pages that have a SimHash (and text enough), hashed. */
function* hashed(pages: Iterable<NearInput>): Iterable<NearHashed> {
  for (const p of pages) {
    if (!p.simhash || p.words < MIN_WORDS_FOR_NEAR) continue;
    const padded = p.simhash.padStart(16, "0");
    yield { url: p.url, hi: parseInt(padded.slice(0, 8), 16) | 0, lo: parseInt(padded.slice(8), 16) | 0, content: p.contentHash };
  }
}

/** Near-duplicate clusters among pages already hashed (every one has a SimHash). */
export function nearClustersOfHashed(pages: Iterable<NearHashed>, maxCandidates = MAX_CANDIDATES): NearDuplicateResult {
  const groups = hashGroups(pages);
  const n = groups.length;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      const p = parent[i] as number;
      parent[i] = parent[p] as number;
      i = p;
    }
    return i;
  };
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  /** Lowest similarity (highest distance) per group root, -1 for none yet. */
  const worst = new Int32Array(n).fill(-1);
  const pairs: NearPair[] = [];
  let pairCount = 0;
  let comparisons = 0;
  let pairsExact = true;
  const keep = (a: string, b: string, d: number) => {
    if (pairs.length < MAX_PAIRS_KEPT) pairs.push(a < b ? { a, b, similarity: similarity(d) } : { a: b, b: a, similarity: similarity(d) });
  };
  const distanceOf = new Int32Array(n).fill(-1);
  /** Near pairs found at each group (its own, and those it found with earlier groups). */
  const pairsAt = new Float64Array(n);

  for (let i = 0; i < n; i++) {
    const g = groups[i] as HashGroup;
    g.innerPairs = innerPairs(g.contents);
    if (g.innerPairs > 0) {
      pairCount += g.innerPairs;
      pairsAt[i] = g.innerPairs;
      g.degree += g.urls.length - 1;
      worst[i] = 0;
      for (let x = 0; x < g.urls.length && pairs.length < MAX_PAIRS_KEPT; x++) {
        for (let y = x + 1; y < g.urls.length; y++) if (g.contents[x] !== g.contents[y]) keep(g.urls[x] as string, g.urls[y] as string, 0);
      }
    }
  }

  // Each block's buckets as linked lists in typed arrays (the bucket's latest hash in `heads`, each
  // hash's predecessor in its bucket in `next`): a JS array per bucket was ~200,000 small arrays at
  // 100,000 pages, ~37 MB of heap.
  const heads = Array.from({ length: BLOCKS }, () => new Int32Array(1 << BLOCK_BITS).fill(-1));
  const next = Array.from({ length: BLOCKS }, () => new Int32Array(n));
  const stamp = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const g = groups[i] as HashGroup;
    let examined = 0;
    for (let b = 0; b < BLOCKS; b++) {
      const head = heads[b] as Int32Array;
      const after = next[b] as Int32Array;
      const value = blockOf(g, b);
      for (let flip = -1; flip < BLOCK_BITS; flip++) {
        // Most recent first: crawl order puts a site section's pages together.
        for (let j = head[flip < 0 ? value : value ^ (1 << flip)] as number; j >= 0; j = after[j] as number) {
          if (stamp[j] === i) continue;
          stamp[j] = i;
          if (examined >= maxCandidates) {
            // Fallback: only what can still join two clusters is compared.
            pairsExact = false;
            if (find(i) === find(j)) continue;
          }
          examined += 1;
          comparisons += 1;
          const h = groups[j] as HashGroup;
          const d = popcount32(g.hi ^ h.hi) + popcount32(g.lo ^ h.lo);
          if (d > NEAR_BITS) continue;
          const found = g.urls.length * h.urls.length;
          pairCount += found;
          pairsAt[i] = (pairsAt[i] as number) + found;
          g.degree += h.urls.length;
          h.degree += g.urls.length;
          distanceOf[i] = Math.max(distanceOf[i] as number, d);
          distanceOf[j] = Math.max(distanceOf[j] as number, d);
          union(i, j);
          for (const a of g.urls) for (const c of h.urls) if (pairs.length < MAX_PAIRS_KEPT) keep(a, c, d);
        }
      }
    }
    for (let b = 0; b < BLOCKS; b++) {
      const head = heads[b] as Int32Array;
      const value = blockOf(g, b);
      (next[b] as Int32Array)[i] = head[value] as number;
      head[value] = i;
    }
  }
  for (let i = 0; i < n; i++) worst[find(i)] = Math.max(worst[find(i)] as number, worst[i] as number, distanceOf[i] as number);

  const clusters = collectClusters(groups, find, worst, pairsAt);
  let inClusters = 0;
  for (const c of clusters) inClusters += c.size;
  pairs.sort((p, q) => (p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : p.b > q.b ? 1 : 0));
  return { clusters, pages: inClusters, pairCount, pairsExact, pairs, comparisons };
}

/** Distinct SimHashes of the pages, in first-seen order. */
function hashGroups(pages: Iterable<NearHashed>): HashGroup[] {
  const byHi = new Map<number, HashGroup>();
  const groups: HashGroup[] = [];
  for (const p of pages) {
    const first = byHi.get(p.hi);
    let g: HashGroup | null = first ?? null;
    while (g && g.lo !== p.lo) g = g.sameHi;
    if (!g) {
      // Arrays of one to start with (most hashes have one page): `[]` then a push reserves 17 slots.
      g = { hi: p.hi, lo: p.lo, urls: [p.url], contents: [p.content], innerPairs: 0, degree: 0, sameHi: first ?? null };
      byHi.set(p.hi, g);
      groups.push(g);
      continue;
    }
    g.urls.push(p.url);
    g.contents.push(p.content);
  }
  return groups;
}

/** Pairs among a group's pages whose texts differ: all pairs but those inside each same-text set. */
function innerPairs(contents: readonly (string | number)[]): number {
  const m = contents.length;
  if (m < 2) return 0;
  const same = new Map<string | number, number>();
  for (const c of contents) same.set(c, (same.get(c) ?? 0) + 1);
  let n = (m * (m - 1)) / 2;
  for (const k of same.values()) n -= (k * (k - 1)) / 2;
  return n;
}

function collectClusters(groups: readonly HashGroup[], find: (i: number) => number, worst: Int32Array, pairsAt: Float64Array): NearCluster[] {
  const members = new Map<number, number[]>();
  for (let i = 0; i < groups.length; i++) {
    const r = find(i);
    if ((worst[r] as number) < 0) continue; // no near pair in this set
    let list = members.get(r);
    if (!list) members.set(r, (list = []));
    list.push(i);
  }
  const out: Omit<NearCluster, "id">[] = [];
  for (const [root, list] of members) {
    let best = list[0] as number;
    let pairs = 0;
    const urls: string[] = [];
    for (const gi of list) {
      const g = groups[gi] as HashGroup;
      const b = groups[best] as HashGroup;
      if (g.degree > b.degree || (g.degree === b.degree && shorterFirst(shortestUrl(g), shortestUrl(b)) < 0)) best = gi;
      pairs += pairsAt[gi] as number;
      for (const u of g.urls) urls.push(u);
    }
    const representative = shortestUrl(groups[best] as HashGroup);
    urls.sort(byUrl);
    urls.splice(urls.indexOf(representative), 1);
    urls.unshift(representative);
    out.push({ size: urls.length, representative, similarity: similarity(worst[root] as number), pairs, urls });
  }
  out.sort((a, b) => b.size - a.size || byUrl(a.representative, b.representative));
  return out.map((c, i) => ({ id: i + 1, ...c }));
}

function shortestUrl(g: HashGroup): string {
  let best = g.urls[0] as string;
  for (const u of g.urls) if (shorterFirst(u, best) < 0) best = u;
  return best;
}

function shorterFirst(a: string, b: string): number {
  return a.length - b.length || byUrl(a, b);
}

function byUrl(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function blockOf(g: HashGroup, b: number): number {
  const word = b < 2 ? g.hi : g.lo;
  return b % 2 === 0 ? (word >>> 16) & 0xffff : word & 0xffff;
}

function similarity(d: number): number {
  return Number((1 - d / 64).toFixed(3));
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
