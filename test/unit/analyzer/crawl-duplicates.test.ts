// Duplicate groups found in two passes (a hash of each page's normalised text first, exact texts
// only for pages whose hash is shared): the same groups as grouping every page by its text at once,
// and texts whose hashes collide never grouped together.
import { describe, expect, it } from "vitest";
import { duplicateGroups, groupVariants, normaliseText, type DuplicateGroup } from "../../../analyzer/crawl-duplicates.ts";
import { looseKey } from "../../../analyzer/url-keys.ts";

interface Page {
  readonly url: string;
  readonly title: string;
}

/** Every page grouped by its normalised text at once: what duplicateGroups answered before it went two-pass. */
function reference(pages: readonly Page[]): DuplicateGroup[] {
  const groups = new Map<string, { key: string; urls: string[] }>();
  for (const p of pages) {
    const k = normaliseText(p.title);
    if (!k) continue;
    const g = groups.get(k) ?? { key: p.title.trim(), urls: [] };
    g.urls.push(p.url);
    groups.set(k, g);
  }
  return [...groups.values()].filter((g) => g.urls.length > 1).map((g) => ({ key: g.key, urls: g.urls.sort() })).sort((a, b) => b.urls.length - a.urls.length || a.key.localeCompare(b.key));
}

describe("duplicateGroups", () => {
  it("finds the groups grouping every page at once finds: case and spaces aside, the first page's text as the key, largest first", () => {
    const pages: Page[] = [];
    for (let i = 0; i < 3000; i++) {
      // Titles repeat with period 7, 11 and 13 among the first 1,000 pages; every other title is its own; some empty.
      const title = i % 97 === 0 ? "  " : i < 1000 ? `Title ${i % 7 === 0 ? "seven" : i % 11 === 0 ? "Eleven" : i % 13 === 0 ? "thirteen" : i}` : `Page ${i}`;
      pages.push({ url: `https://example.test/p/${i}`, title: i % 2 === 0 ? title.toUpperCase() : ` ${title.replace(" ", "   ")} ` });
    }
    const groups = duplicateGroups(pages, (p) => p.title, normaliseText);
    expect(groups).toEqual(reference(pages));
    expect(groups.map((g) => g.urls.length)).toEqual([141, 78, 60]);
    // Page 7, the first of them (page 0 is blank), as it wrote it, trimmed.
    expect(groups[0]?.key).toBe("Title   seven");
  });

  it("never groups texts whose hashes collide (FNV-1a: costarring and liquid), and groups each with its own", () => {
    const pages: Page[] = ["costarring", "liquid", "Liquid", "declinate", "macallums", "altarage", "zinke", "ZINKE "].map((title, i) => ({ url: `https://example.test/${i}`, title }));
    expect(duplicateGroups(pages, (p) => p.title, normaliseText)).toEqual([
      { key: "liquid", urls: ["https://example.test/1", "https://example.test/2"] },
      { key: "zinke", urls: ["https://example.test/6", "https://example.test/7"] },
    ]);
    expect(duplicateGroups(pages.slice(0, 2), (p) => p.title, normaliseText)).toEqual([]);
  });
});

describe("groupVariants", () => {
  it("groups URLs the loose key makes one, shortest first, and no others", () => {
    const urls = ["https://example.test/a", "https://example.test/a/", "https://example.test/A", "https://example.test/b", "https://example.test/c?x=1", "https://example.test/c?x=1&utm_source=n"];
    const groups = groupVariants(urls.map((url) => ({ url })));
    // What the loose key says, whatever it drops: every group's URLs share it, and URLs apart do not.
    for (const g of groups) for (const u of g.urls) expect(looseKey(u)).toBe(g.key);
    const grouped = new Set(groups.flatMap((g) => g.urls));
    const alone = urls.filter((u) => !grouped.has(u));
    expect(new Set(alone.map(looseKey)).size).toBe(alone.length);
    for (const u of alone) expect(groups.some((g) => g.key === looseKey(u))).toBe(false);
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) expect(g.urls).toEqual([...g.urls].sort((a, b) => a.length - b.length || a.localeCompare(b)));
  });
});
