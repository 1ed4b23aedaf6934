// Duplicates among a crawl's pages: shared titles, descriptions and texts (exact), texts nearly
// alike (SimHash), and URLs that differ only in what the loose key drops.
import type { CrawledPage } from "../proto/index.ts";
import { looseKey } from "./url-keys.ts";

/**
 * Hamming distance of 64-bit SimHashes at or under which two texts are near-duplicates: 7 of 64
 * bits finds texts about 90 % alike by word 3-shingles; unrelated texts differ in about 32 ± 4
 * bits, so a false pair needs a 6-sigma coincidence.
 */
const NEAR_BITS = 7;
/** Bands of 8 bits: two hashes at most 7 bits apart agree on at least one band (pigeonhole). */
const BANDS = 8;
const MIN_WORDS_FOR_NEAR = 50;

export interface DuplicateGroup {
  readonly key: string;
  readonly urls: string[];
}

export interface NearDuplicate {
  readonly a: string;
  readonly b: string;
  readonly similarity: number;
}

/**
 * Pages sharing a text, grouped by its normalised form (empty ones aside); a group shows the text
 * of its first page. Largest groups first.
 */
export function duplicateGroups(pages: readonly CrawledPage[], text: (p: CrawledPage) => string, normalise: (s: string) => string): DuplicateGroup[] {
  const groups = new Map<string, { key: string; urls: string[] }>();
  for (const p of pages) {
    const t = text(p);
    const k = normalise(t);
    if (!k) continue;
    const group = groups.get(k) ?? { key: t.trim(), urls: [] };
    group.urls.push(p.url);
    groups.set(k, group);
  }
  return [...groups.values()].filter((g) => g.urls.length > 1).map((g) => ({ key: g.key, urls: g.urls.sort() })).sort((a, b) => b.urls.length - a.urls.length || a.key.localeCompare(b.key));
}

/** Case- and whitespace-insensitive form of a title or description. */
export function normaliseText(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Pairs of texts whose SimHashes differ in at most NEAR_BITS bits, exact duplicates aside (only pairs sharing a band are compared). */
export function nearDuplicates(pages: readonly CrawledPage[]): NearDuplicate[] {
  const candidates = pages.filter((p) => p.simhash && p.words >= MIN_WORDS_FOR_NEAR).map((p) => ({ url: p.url, hash: BigInt(`0x${p.simhash}`), content: p.contentHash }));
  const buckets = new Map<string, number[]>();
  candidates.forEach((c, i) => {
    for (let band = 0; band < BANDS; band++) {
      const key = `${band}:${(c.hash >> BigInt(band * 8)) & 0xffn}`;
      const list = buckets.get(key) ?? [];
      list.push(i);
      buckets.set(key, list);
    }
  });
  const seen = new Set<string>();
  const out: NearDuplicate[] = [];
  for (const list of buckets.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = candidates[list[i] as number];
        const b = candidates[list[j] as number];
        if (!a || !b || a.content === b.content) continue;
        const [x, y] = a.url < b.url ? [a, b] : [b, a];
        const key = `${x.url} ${y.url}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const d = popcount64(x.hash ^ y.hash);
        if (d <= NEAR_BITS) out.push({ a: x.url, b: y.url, similarity: Number((1 - d / 64).toFixed(3)) });
      }
    }
  }
  return out.sort((p, q) => p.a.localeCompare(q.a) || p.b.localeCompare(q.b));
}

/** Fetched pages whose URLs differ only in what the loose key drops, shortest URL first in each group. */
export function groupVariants(pages: readonly CrawledPage[]): DuplicateGroup[] {
  const groups = new Map<string, Set<string>>();
  for (const p of pages) {
    const k = looseKey(p.url);
    const set = groups.get(k) ?? new Set<string>();
    set.add(p.url);
    groups.set(k, set);
  }
  return [...groups.entries()]
    .filter(([, s]) => s.size > 1)
    .map(([key, s]) => ({ key, urls: [...s].sort((a, b) => a.length - b.length || a.localeCompare(b)) }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

function popcount64(x: bigint): number {
  let n = 0;
  while (x) {
    x &= x - 1n;
    n += 1;
  }
  return n;
}
