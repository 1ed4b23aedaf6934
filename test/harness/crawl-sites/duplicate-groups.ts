import { shingles } from "./generated-text.ts";

// How the manifest finds duplicates in a site's data: groups of URLs sharing a value (title,
// description, body), pairs of texts by Jaccard similarity of their word 3-shingles, and URL
// variants by a loose key. All outputs are sorted, so manifests compare with toEqual.

export interface Group {
  readonly key: string;
  /** Sorted. */
  readonly urls: string[];
}

export interface SimilarPair {
  /** a < b. */
  readonly a: string;
  readonly b: string;
  /** Jaccard similarity of word 3-shingles, rounded to 3 decimals. */
  readonly similarity: number;
}

/** Groups of two or more URLs sharing a key (null keys are left out), by key. */
export function groupsOf<T>(items: readonly T[], url: (item: T) => string, key: (item: T) => string | null): Group[] {
  const groups = new Map<string, string[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    const list = groups.get(k) ?? [];
    list.push(url(item));
    groups.set(k, list);
  }
  return [...groups]
    .filter(([, urls]) => urls.length > 1)
    .map(([k, urls]) => ({ key: k, urls: urls.sort() }))
    .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}

/**
 * Pairs of texts with similarity at least `min`, except pairs whose `same` keys are equal (exact
 * duplicates are reported as such). An inverted index of shingles: only pairs sharing one are compared.
 */
export function similarPairs(docs: readonly { url: string; text: string; same: string }[], min: number): SimilarPair[] {
  const sets = docs.map((d) => shingles(d.text));
  const index = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const s of set) {
      const list = index.get(s);
      if (list) list.push(i);
      else index.set(s, [i]);
    }
  });
  const shared = new Map<number, number>();
  const n = docs.length;
  for (const list of index.values()) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const pair = (list[x] as number) * n + (list[y] as number);
        shared.set(pair, (shared.get(pair) ?? 0) + 1);
      }
    }
  }
  const out: SimilarPair[] = [];
  for (const [pair, count] of shared) {
    const i = Math.floor(pair / n);
    const j = pair % n;
    const [di, dj] = [docs[i], docs[j]];
    if (!di || !dj || di.same === dj.same) continue;
    const similarity = count / ((sets[i]?.size ?? 0) + (sets[j]?.size ?? 0) - count);
    if (similarity < min) continue;
    const [a, b] = di.url < dj.url ? [di.url, dj.url] : [dj.url, di.url];
    out.push({ a, b, similarity: Math.round(similarity * 1000) / 1000 });
  }
  return out.sort((p, q) => (p.a === q.a ? (p.b < q.b ? -1 : 1) : p.a < q.a ? -1 : 1));
}

/**
 * The loose key of a URL: fragment dropped, trailing slash dropped (but the root's), utm_* and
 * other tracking parameters dropped, the remaining parameters sorted, an empty query dropped.
 * Two URLs with one loose key are one page to a search engine, and duplicates to report.
 */
export function looseKey(url: string): string {
  const u = new URL(url);
  u.hash = "";
  if (u.pathname.length > 1 && u.pathname.endsWith("/")) u.pathname = u.pathname.replace(/\/+$/, "") || "/";
  const params = [...u.searchParams].filter(([k]) => !/^(utm_.*|gclid|fbclid|msclkid)$/i.test(k)).sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  u.search = params.length > 0 ? `?${new URLSearchParams(params).toString()}` : "";
  return u.href;
}
