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
 */
export function duplicateGroups<P extends { readonly url: string }>(pages: readonly P[], text: (p: P) => string, normalise: (s: string) => string): DuplicateGroup[] {
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

/** Fetched pages whose URLs differ only in what the loose key drops, shortest URL first in each group. */
export function groupVariants(pages: readonly { readonly url: string }[]): DuplicateGroup[] {
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
