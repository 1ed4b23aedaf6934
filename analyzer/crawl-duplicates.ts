// Duplicates among a crawl's pages: shared titles, descriptions and texts (exact), and URLs that
// differ only in what the loose key drops. Texts nearly alike are near-clusters.ts's.
import { looseKey } from "./url-keys.ts";

export interface DuplicateGroup {
  readonly key: string;
  readonly urls: string[];
}

/**
 * Pages sharing a text, grouped by its normalised form (empty ones aside); a group shows the text
 * of its first page. Largest groups first.
 *
 * In two passes, so that memory follows the duplicates, not the pages: the first keeps only a
 * 32-bit hash of each page's normalised text (the text itself is let go at once), the second
 * groups by the exact text only the pages whose hash another page shares (a collision costs a
 * page in the second pass, never a wrong group). One group per page, all at once, was 1.6 KB a
 * page of heap at 100,000 pages' descriptions (docs/benchmarks.md, crawl at scale).
 */
export function duplicateGroups<P extends { readonly url: string }>(pages: readonly P[], text: (p: P) => string, normalise: (s: string) => string): DuplicateGroup[] {
  const hashes = new Uint32Array(pages.length);
  const present = new Uint8Array(pages.length);
  for (let i = 0; i < pages.length; i++) {
    const k = normalise(text(pages[i] as P));
    if (!k) continue;
    hashes[i] = hashText(k);
    present[i] = 1;
  }
  const shared = sharedHashes(hashes, present);
  if (shared.size === 0) return [];
  const groups = new DuplicateCollector(normalise);
  for (let i = 0; i < pages.length; i++) {
    if (present[i] === 1 && shared.has(hashes[i] as number)) groups.add(i, (pages[i] as P).url, text(pages[i] as P));
  }
  return groups.groups();
}

/**
 * duplicateGroups's second pass, fed by the caller: the entries whose hash another shares, grouped
 * by their exact normalised text. A group shows the text of its first entry (lowest `order`).
 */
export class DuplicateCollector {
  private readonly byText = new Map<string, { key: string; first: number; urls: string[] }>();

  constructor(private readonly normalise: (s: string) => string) {}

  add(order: number, url: string, text: string): void {
    const k = this.normalise(text);
    const group = this.byText.get(k);
    if (!group) this.byText.set(k, { key: text.trim(), first: order, urls: [url] });
    else {
      group.urls.push(url);
      if (order < group.first) {
        group.first = order;
        group.key = text.trim();
      }
    }
  }

  /** Groups of two pages or more, largest first; each group's URLs sorted. */
  groups(): DuplicateGroup[] {
    return [...this.byText.values()]
      .filter((g) => g.urls.length > 1)
      .map((g) => ({ key: g.key, urls: g.urls.sort() }))
      .sort((a, b) => b.urls.length - a.urls.length || a.key.localeCompare(b.key));
  }
}

/** FNV-1a over a string's UTF-16 code units. */
export function hashText(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The hash values (of the entries present) that occur more than once: sorted, equal neighbours. */
export function sharedHashes(hashes: Uint32Array, present: Uint8Array): Set<number> {
  let n = 0;
  for (let i = 0; i < hashes.length; i++) if (present[i] === 1) n += 1;
  const sorted = new Uint32Array(n);
  for (let i = 0, j = 0; i < hashes.length; i++) if (present[i] === 1) sorted[j++] = hashes[i] as number;
  sorted.sort();
  const shared = new Set<number>();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) shared.add(sorted[i] as number);
  return shared;
}

/** Case- and whitespace-insensitive form of a title or description. */
export function normaliseText(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Fetched pages whose URLs differ only in what the loose key drops, shortest URL first in each group (two passes, as duplicateGroups). */
export function groupVariants(pages: readonly { readonly url: string }[]): DuplicateGroup[] {
  return groupVariantsOf(pages.length, (i) => (pages[i] as { url: string }).url);
}

/** groupVariants over `n` URLs given by index. */
export function groupVariantsOf(n: number, urlAt: (i: number) => string): DuplicateGroup[] {
  const hashes = new Uint32Array(n);
  const present = new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) hashes[i] = hashText(looseKey(urlAt(i)));
  const shared = sharedHashes(hashes, present);
  const groups = new Map<string, Set<string>>();
  if (shared.size === 0) return [];
  for (let i = 0; i < n; i++) {
    if (!shared.has(hashes[i] as number)) continue;
    const url = urlAt(i);
    const k = looseKey(url);
    const set = groups.get(k) ?? new Set<string>();
    set.add(url);
    groups.set(k, set);
  }
  return [...groups.entries()]
    .filter(([, s]) => s.size > 1)
    .map(([key, s]) => ({ key, urls: [...s].sort((a, b) => a.length - b.length || a.localeCompare(b)) }))
    .sort((a, b) => a.key.localeCompare(b.key));
}
