import { describe, expect, it } from "vitest";
import { chooseWatchedPages, watchChanges, watchSnapshot, worstWatchLevel, type WatchSnapshot } from "../../../analyzer/index.ts";
import { healthySite } from "./site-builder.ts";

const base: WatchSnapshot = {
  status: 200,
  title: "Shoes",
  description: "All our shoes",
  robots: "",
  canonical: "https://example.com/shoes",
  h1: "Shoes",
  hash: "aa",
  size: 1000,
};

describe("the watchdog's snapshot", () => {
  it("keeps the SEO-critical elements of a page", () => {
    const home = healthySite().home!;
    home.metaRobots = "max-snippet:-1";
    home.xRobotsTag = "NoArchive";
    expect(watchSnapshot(home)).toEqual({
      status: 200,
      title: home.title,
      description: home.metaDescription,
      robots: "max-snippet:-1, noarchive",
      canonical: home.canonicals[0],
      h1: home.headings.find((h) => h.level === 1)?.text,
      hash: home.contentHash,
      size: 48_000,
    });
  });
});

describe("what changed in a watched page", () => {
  it("finds nothing when nothing changed", () => {
    expect(watchChanges(base, { ...base })).toEqual([]);
  });

  it("grades each change: noindex added is bad, removed good, a title or canonical change a warning, a new description news", () => {
    const after = { ...base, title: "Cheap shoes", description: "Shoes for less", robots: "noindex", canonical: "https://example.com/", hash: "bb", size: 1200 };
    expect(watchChanges(base, after)).toEqual([
      { field: "title", before: "Shoes", after: "Cheap shoes", level: "warn", critical: true },
      { field: "description", before: "All our shoes", after: "Shoes for less", level: "info", critical: true },
      { field: "robots", before: "", after: "noindex", level: "bad", critical: true },
      { field: "canonical", before: "https://example.com/shoes", after: "https://example.com/", level: "warn", critical: true },
      { field: "content", before: "1000 bytes", after: "1200 bytes", level: "info", critical: false },
    ]);
    expect(watchChanges({ ...base, robots: "noindex, follow" }, base)).toEqual([{ field: "robots", before: "noindex, follow", after: "", level: "good", critical: true }]);
    expect(watchChanges(base, { ...base, h1: "" })).toEqual([{ field: "h1", before: "Shoes", after: "", level: "warn", critical: true }]);
  });

  it("reports only the status of a page that stopped (or started) answering, not its vanished elements", () => {
    const gone = { ...base, status: 404, title: "Not found", h1: "", hash: "cc" };
    expect(watchChanges(base, gone)).toEqual([{ field: "status", before: "200", after: "404", level: "bad", critical: true }]);
    expect(watchChanges(gone, base)).toEqual([{ field: "status", before: "404", after: "200", level: "good", critical: true }]);
    expect(watchChanges(base, { ...base, status: 203 })).toEqual([{ field: "status", before: "200", after: "203", level: "info", critical: true }]);
  });

  it("gives a page's event its worst level", () => {
    expect(worstWatchLevel(watchChanges(base, { ...base, title: "x", robots: "none" }))).toBe("bad");
    expect(worstWatchLevel([])).toBe("info");
  });
});

describe("which pages are watched", () => {
  it("takes the home page and the best by link rank, ties by URL, in one pass over any number of pages", () => {
    const stats = [
      { url: "https://e.com/", score: 99 },
      { url: "https://e.com/c", score: 5 },
      { url: "https://e.com/a", score: 7 },
      { url: "https://e.com/b", score: 7 },
      { url: "https://e.com/d", score: 1 },
    ];
    expect(chooseWatchedPages("https://e.com/", stats, 3)).toEqual(["https://e.com/", "https://e.com/a", "https://e.com/b"]);
    expect(chooseWatchedPages("https://e.com/", stats, 1)).toEqual(["https://e.com/"]);
    expect(chooseWatchedPages("https://e.com/", stats, 0)).toEqual([]);
    const many = Array.from({ length: 300_000 }, (_, i) => ({ url: `https://e.com/p${i}`, score: i % 1000 }));
    expect(chooseWatchedPages("https://e.com/", many, 3)).toEqual(["https://e.com/", "https://e.com/p100999", "https://e.com/p101999"]);
  });
});
