import { describe, expect, it } from "vitest";
import { MAX_RANK_DISTANCE, rankDistance, serpShakes, type SerpResult } from "../../../analyzer/index.ts";

// SERP volatility from snapshots (search-data-anchors §6.6): D = Σ |r_t(u) − r_{t−1}(u)| over the
// entries of both top-10 lists, an absent entry ranked 11; shake = 100 · D / 110. Figures by hand.

const list = (keyword: string, day: string, domains: string[], first = 1): SerpResult[] =>
  domains.map((domain, i) => ({ engine: "yandex", region: 213, device: "desktop", keyword, day, rank: first + i, domain }));

describe("rankDistance", () => {
  it("sums each entry's rank change, an entry that left or came in counting from rank 11", () => {
    // a 1→2, b 2→1, site 4→3: 1 each; c left from 3: |11 − 3| = 8; d came in at 4: |4 − 11| = 7. D = 18.
    expect(rankDistance(list("q", "d1", ["a.ru", "b.ru", "c.ru", "site.ru"]), list("q", "d2", ["b.ru", "a.ru", "site.ru", "d.ru"]))).toBe(18);
  });

  it("is 0 for the same list and 110 (the maximum) when all ten entries changed", () => {
    const ten = Array.from({ length: 10 }, (_, i) => `old${i}.ru`);
    expect(rankDistance(list("q", "d1", ten), list("q", "d2", ten))).toBe(0);
    expect(rankDistance(list("q", "d1", ten), list("q", "d2", ten.map((d) => d.replace("old", "new"))))).toBe(MAX_RANK_DISTANCE);
    expect(MAX_RANK_DISTANCE).toBe(110);
  });

  it("matches a domain's second result to its second result the day before", () => {
    // x#1 1→1: 0; x#2 2→3: 1; y 3→2: 1. D = 2.
    expect(rankDistance(list("q", "d1", ["x.ru", "x.ru", "y.ru"]), list("q", "d2", ["x.ru", "y.ru", "x.ru"]))).toBe(2);
  });

  it("compares the top 10 only: results below rank 10 do not count", () => {
    // z.ru is at 12 then 15: outside both top 10s. a 1→1: 0.
    expect(rankDistance([...list("q", "d1", ["a.ru"]), ...list("q", "d1", ["z.ru"], 12)], [...list("q", "d2", ["a.ru"]), ...list("q", "d2", ["z.ru"], 15)])).toBe(0);
  });
});

describe("serpShakes", () => {
  const rows = [
    ...list("диван", "2026-11-01", ["a.ru", "b.ru", "c.ru", "site.ru"]),
    ...list("диван", "2026-11-02", ["b.ru", "a.ru", "site.ru", "d.ru"]),
    // A gap day: 11-04 has no list on 11-03, so no shake on 11-04.
    ...list("диван", "2026-11-04", ["site.ru"]),
    ...list("кровать", "2026-11-01", ["a.ru", "b.ru"]),
    ...list("кровать", "2026-11-02", ["a.ru", "b.ru"]),
    // The site at 12 on 11-01, at 3 on 11-02 (not in the first top 10: its rank still counts as where it was).
    ...list("стол", "2026-11-01", ["e.ru"]),
    ...list("стол", "2026-11-01", ["site.ru"], 12),
    ...list("стол", "2026-11-02", ["e.ru", "f.ru", "site.ru"]),
  ];

  it("gives each query's shake on days with a list the day before, and the site's rank on both days", () => {
    const shakes = serpShakes(rows, "site.ru").sort((a, b) => a.keyword.localeCompare(b.keyword) || a.day.localeCompare(b.day));
    const base = { engine: "yandex", region: 213, device: "desktop", day: "2026-11-02" };
    expect(shakes).toEqual([
      // 18 / 110 = 16.3636… %
      { ...base, keyword: "диван", pct: 1800 / 110, from: 4, to: 3 },
      { ...base, keyword: "кровать", pct: 0, from: null, to: null },
      // e 1→1: 0; f in at 2: 9; site in at 3: 8. D = 17 → 15.4545… %
      { ...base, keyword: "стол", pct: 1700 / 110, from: 12, to: 3 },
    ]);
  });

  it("keeps queries apart by region and device", () => {
    const mobile = list("кровать", "2026-11-02", ["z.ru"]).map((r) => ({ ...r, device: "mobile" }));
    const shakes = serpShakes([...list("кровать", "2026-11-01", ["a.ru"]), ...mobile]);
    expect(shakes).toEqual([]);
  });
});
