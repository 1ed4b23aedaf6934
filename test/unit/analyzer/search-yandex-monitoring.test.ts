import { describe, expect, it } from "vitest";
import { parseImport } from "../../../analyzer/index.ts";
import { buildXlsx } from "../../harness/xlsx-writer.ts";

// Yandex Webmaster «Мониторинг запросов» (search-data-anchors §2.1): a wide XLSX, unpivoted into
// daily query rows and per-query sums. Figures by hand: Σ position × shows.

describe("Yandex «Мониторинг запросов»", () => {
  it("unpivots the XLSX's date columns into daily query rows and sums per query and query × URL", async () => {
    const header = ["Query", "Url", "2026-11-01_demand", "2026-11-01_shows", "2026-11-01_clicks", "2026-11-01_position", "2026-11-02_demand", "2026-11-02_shows", "2026-11-02_clicks", "2026-11-02_position"];
    const workbook = buildXlsx([
      {
        name: "Monitoring",
        rows: [
          header,
          ["Купить Диван", "https://site.ru/d", 900, 100, 10, 3.5, 950, 200, 30, 2.5],
          // No shows or clicks on 11-02: no row for that day.
          ["кровать", "https://site.ru/k", 50, 40, 0, 12, 60, "", "", ""],
        ],
      },
    ]);
    const parsed = await parseImport(workbook, "monitoring.xlsx");
    expect(parsed).toMatchObject({ provider: "yandex_webmaster", kind: "performance", formats: ["yandex_query_monitoring"] });
    expect(parsed.facts.periodStart).toBe("2026-11-01");
    expect(parsed.facts.periodEnd).toBe("2026-11-02");
    const day = (date: string, query: string, page: string, clicks: number, impressions: number, posXImpr: number) => ({ engine: "yandex", date, query, page, country: "", device: "", clicks, impressions, posXImpr });
    // No per-day site totals (query ''): the monitored queries are not the site's traffic.
    expect(parsed.facts.daily).toEqual([
      day("2026-11-01", "купить диван", "https://site.ru/d", 10, 100, 350),
      day("2026-11-02", "купить диван", "https://site.ru/d", 30, 200, 500),
      day("2026-11-01", "кровать", "https://site.ru/k", 0, 40, 480),
    ]);
    const sums = parsed.facts.period.map((r) => [r.dim, r.key, r.key2, r.clicks, r.impressions, r.posXImpr]);
    // купить диван: 10 + 30 clicks, 100 + 200 shows, 350 + 500 = 850 (position 850 / 300 = 2.83).
    expect(sums).toEqual([
      ["query", "купить диван", "", 40, 300, 850],
      ["query", "кровать", "", 0, 40, 480],
      ["query_page", "купить диван", "https://site.ru/d", 40, 300, 850],
      ["query_page", "кровать", "https://site.ru/k", 0, 40, 480],
    ]);
  });

  it("reads the older header (Поисковые запросы, dates as dd.mm.yyyy) in a CSV, without a URL column", async () => {
    const csv = "\ufeffПоисковые запросы;01.11.2026_shows;01.11.2026_clicks;01.11.2026_position\nдиван;1 000;25;4,5\n";
    const parsed = await parseImport(Buffer.from(csv), "monitoring.csv");
    expect(parsed.formats).toEqual(["yandex_query_monitoring"]);
    expect(parsed.facts.daily).toEqual([{ engine: "yandex", date: "2026-11-01", query: "диван", page: "", country: "", device: "", clicks: 25, impressions: 1000, posXImpr: 4500 }]);
    expect(parsed.facts.period.map((r) => [r.dim, r.key, r.clicks, r.impressions, r.posXImpr])).toEqual([["query", "диван", 25, 1000, 4500]]);
  });
});
