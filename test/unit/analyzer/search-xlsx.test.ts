import { describe, expect, it } from "vitest";
import { parseImport } from "../../../analyzer/index.ts";
import { buildXlsx } from "../../harness/xlsx-writer.ts";

// XLSX workbooks (issue 19 §1): every sheet read as a table through the CSV formats, under the ZIP caps.

const gscWorkbook = buildXlsx([
  { name: "Queries", rows: [["Top queries", "Clicks", "Impressions", "CTR", "Position"], ["купить диван", 134, 4120, "3.25%", 6.4], ["=cmd|' /C calc'!A0", 2, 50, "4%", 9]] },
  { name: "Filters", rows: [["Filter", "Value"], ["Search type", "Web"]] },
]);

describe("an XLSX workbook", () => {
  it("is read sheet by sheet like the CSVs of a ZIP: queries with their sums, filters, formula cells defused", async () => {
    const parsed = await parseImport(gscWorkbook, "Performance.xlsx");
    expect(parsed).toMatchObject({ provider: "gsc", kind: "performance", formats: ["gsc_performance", "gsc_filters"] });
    expect(parsed.facts.filters).toEqual({ "Search type": "Web" });
    const queries = parsed.facts.period.filter((r) => r.dim === "query").map((r) => [r.key, r.clicks, r.impressions, r.posXImpr]);
    expect(queries).toEqual([
      ["купить диван", 134, 4120, 6.4 * 4120],
      // Queries are kept lower-cased, as the CSV formats keep them.
      ["cmd|' /c calc'!a0", 2, 50, 9 * 50],
    ]);
  });

  it("stops a bomb at the inflate cap before the workbook reader sees it", async () => {
    const bomb = buildXlsx([{ name: "Queries", rows: [["Top queries", "Clicks", "Impressions", "CTR", "Position"], ...Array.from({ length: 20_000 }, () => ["a", 1, 1, "1%", 1])] }]);
    await expect(parseImport(bomb, "b.xlsx", { zipCaps: { maxEntries: 16, maxEntryBytes: 100_000, maxTotalBytes: 100_000 } })).rejects.toThrow(/^xl\/worksheets\/sheet1\.xml inflates past the cap of \d+ bytes$/);
  });

  it("refuses a workbook with more entries than the cap", async () => {
    const many = buildXlsx([{ name: "Queries", rows: [["Top queries", "Clicks", "Impressions", "CTR", "Position"]] }], Array.from({ length: 10 }, (_, i) => ({ name: `xl/media/${i}.xml`, data: "<x/>" })));
    await expect(parseImport(many, "m.xlsx", { zipCaps: { maxEntries: 8, maxEntryBytes: 1e6, maxTotalBytes: 1e6 } })).rejects.toThrow("holds 16 entries; at most 8");
  });

  it("answers a workbook whose sheets are no known export with the formats expected", async () => {
    const other = buildXlsx([{ name: "Sheet1", rows: [["Name", "Price"], ["sofa", 100]] }]);
    await expect(parseImport(other, "prices.xlsx")).rejects.toThrow("prices.xlsx: no known export header found in the first 40 rows; expected one of:");
  });
});
