import { describe, expect, it } from "vitest";
import { filterCounts, gapKeywords, keywordGap } from "../../../analyzer/index.ts";

// Gap filters (search-data-anchors §5.3) over positions ≤ 50, gains on the Sistrix curve.

const row = (domain: string, keyword: string, position: number, volume: number) => ({ domain, keyword, position, url: `https://${domain}/${keyword}`, volume });
const rows = [
  row("me.ru", "a", 8, 1000),
  row("x.ru", "a", 2, 1000),
  row("y.ru", "a", 4, 1000),
  row("x.ru", "b", 5, 2000),
  row("y.ru", "b", 60, 2000),
  row("me.ru", "c", 2, 500),
  row("x.ru", "c", 5, 500),
  row("y.ru", "c", 9, 500),
  row("me.ru", "d", 1, 300),
  row("x.ru", "e", 3, 100),
  row("y.ru", "e", 7, 100),
  row("z.ru", "f", 1, 9999),
];

describe("market gap", () => {
  const keywords = gapKeywords(rows, "me.ru", ["x.ru", "y.ru"]);
  it("puts each keyword in the Semrush filters; a rival beyond 50 does not rank; non-rivals are ignored", () => {
    const by = Object.fromEntries(keywords.map((k) => [k.keyword, k.filters]));
    expect(by).toEqual({ a: ["all", "shared", "behind"], b: ["all", "theirs"], c: ["all", "shared", "strong"], d: ["all", "unique"], e: ["all", "theirs", "missing"] });
    expect(filterCounts(keywords)).toEqual({ all: 5, missing: 1, behind: 1, strong: 1, shared: 2, unique: 1, theirs: 2 });
  });
  it("gains clicks at the best rival's position: b 2000 × 7.2 % = 144, a 1000 × (15.7 − 3.2) % = 125, e 100 × 11 % = 11", () => {
    expect(keywords.map((k) => [k.keyword, k.gain])).toEqual([["b", 144], ["a", 125], ["e", 11], ["c", 0], ["d", 0]]);
  });
  it("keyword gap: missing by volume × share of rivals ranking (b 2000 × ½ = 1000 > e 100 × 1); behind", () => {
    expect(keywordGap(keywords, "missing", 2).map((k) => k.keyword)).toEqual(["b", "e"]);
    expect(keywordGap(keywords, "behind", 2).map((k) => k.keyword)).toEqual(["a"]);
  });
});
