import { describe, expect, it } from "vitest";
import { cleanText, normalizeQuery } from "../../analyzer/search/index.ts";

// Q10: the CSV formula-injection guard stripped a leading = + - @ before the query's NFKC
// normalisation, which then turned ＝ (U+FF1D) into "=": an import stored "=1+1". The guard now
// judges the characters as they are stored.

describe("Q10: the formula guard normalises (NFKC) before it strips", () => {
  it.each([
    ["＝1+1", "1+1"],
    ["﹦1+1", "1+1"],
    ["﹢1", "1"],
    ["＠SUM(1)", "sum(1)"],
    ["－1+1", "1+1"],
    ["\u3000＝＝cmd", "cmd"],
    ["=1+1", "1+1"],
    ["a＝b", "a=b"],
  ])("query %j is stored as %j", (cell, stored) => {
    expect(normalizeQuery(cell)).toBe(stored);
  });

  it("other imported text keeps its own characters but loses a compatibility formula lead", () => {
    expect(cleanText("＝HYPERLINK(\"x\")")).toBe('HYPERLINK("x")');
    expect(cleanText("Ｓhop ＝ best")).toBe("Ｓhop ＝ best");
  });
});
