import { describe, expect, it } from "vitest";
import { GSC_UI_ROW_CAP, ImportFormatError, parseCount, parseDay, parseImport, parseLocaleNumber, cleanText } from "../../../analyzer/index.ts";
import { buildZip, utf16le, utf8Bom } from "../../harness/zip-writer.ts";

// The importer reads exports by their header rows (search-data-anchors §1–§4, §7), in any encoding
// and delimiter, and refuses hostile files.

const queriesEn = "Top queries,Clicks,Impressions,CTR,Position\nкупить диван,134,4120,3.25%,6.4\n\"диваны, кресла москва\",\"1,240\",713,1.26%,14.9\n";
const chartEn = "Date,Clicks,Impressions,CTR,Position\n2025-03-02,412,15230,2.71%,12.3\n2025-03-03,0,0,,\n";

describe("cells in any locale", () => {
  it("reads numbers with thousands separators, decimal commas and percents", () => {
    expect(parseCount('1,240')).toBe(1240);
    expect(parseCount("1 240")).toBe(1240);
    expect(parseLocaleNumber("11,7")).toBe(11.7);
    expect(parseLocaleNumber("1.234,5")).toBe(1234.5);
    expect(parseLocaleNumber("3,2 %")).toBe(3.2);
    expect(parseLocaleNumber("--")).toBeNull();
    expect(parseLocaleNumber("")).toBeNull();
  });
  it("reads ISO, US, dotted and Yandex dates; 1969-12-31 is never crawled", () => {
    expect(parseDay("2025-03-02")).toBe("2025-03-02");
    expect(parseDay("Sep 15, 2026")).toBe("2026-09-15");
    expect(parseDay("28.09.2026")).toBe("2026-09-28");
    expect(parseDay("28/09/2026")).toBe("2026-09-28");
    expect(parseDay("2016-01-01T00:00:00,000+0300")).toBe("2016-01-01");
    expect(parseDay("1969-12-31")).toBeNull();
    expect(parseDay("2025-02-30")).toBeNull();
  });
  it("strips the characters a spreadsheet would run as a formula", () => {
    expect(cleanText("=HYPERLINK(\"http://x\")")).toBe('HYPERLINK("http://x")');
    expect(cleanText("@SUM(A1)")).toBe("SUM(A1)");
    expect(cleanText(" +-=cmd|' /C calc'!A0")).toBe("cmd|' /C calc'!A0");
  });
});

describe("GSC Performance", () => {
  it("reads a ZIP of Queries and Chart as sums: position × impressions, no averaged CTR", async () => {
    const zip = buildZip([
      { name: "Queries.csv", data: queriesEn },
      { name: "Chart.csv", data: chartEn },
      { name: "Filters.csv", data: "Filter,Value\nSearch type,Web\nDate,Last 3 months\n" },
    ]);
    const p = await parseImport(zip, "shop.example.ru-Performance-on-Search-2025-03-10.zip");
    expect(p.provider).toBe("gsc");
    expect(p.kind).toBe("performance");
    expect(p.formats).toEqual(["gsc_performance", "gsc_filters"]);
    expect(p.facts.period).toEqual([
      { engine: "google", dim: "query", key: "купить диван", key2: "", clicks: 134, impressions: 4120, posXImpr: 6.4 * 4120, prevClicks: null, prevImpressions: null, prevPosXImpr: null },
      { engine: "google", dim: "query", key: "диваны, кресла москва", key2: "", clicks: 1240, impressions: 713, posXImpr: 14.9 * 713, prevClicks: null, prevImpressions: null, prevPosXImpr: null },
    ]);
    expect(p.facts.daily).toEqual([
      { engine: "google", date: "2025-03-02", query: "", page: "", country: "", device: "", clicks: 412, impressions: 15230, posXImpr: 12.3 * 15230 },
      { engine: "google", date: "2025-03-03", query: "", page: "", country: "", device: "", clicks: 0, impressions: 0, posXImpr: 0 },
    ]);
    expect([p.facts.periodStart, p.facts.periodEnd]).toEqual(["2025-03-02", "2025-03-03"]);
    expect(p.facts.filters).toEqual({ "Search type": "Web", Date: "Last 3 months" });
  });

  it("reads Compare mode: the second prefix is the previous period; a blank side is null", async () => {
    const text =
      "Top queries,Last 28 days Clicks,Previous 28 days Clicks,Last 28 days Impressions,Previous 28 days Impressions,Last 28 days CTR,Previous 28 days CTR,Last 28 days Position,Previous 28 days Position\n" +
      "купить диван недорого,134,118,4120,3987,3.25%,2.96%,6.4,7.1\n\"диваны, кресла москва\",9,,713,,1.26%,,14.9,\n";
    const [a, b] = (await parseImport(Buffer.from(text), "Queries.csv")).facts.period;
    expect([a!.prevClicks, a!.prevImpressions, a!.prevPosXImpr]).toEqual([118, 3987, 7.1 * 3987]);
    expect([b!.clicks, b!.prevClicks, b!.prevImpressions]).toEqual([9, null, null]);
  });

  it("reads the Russian UI with a UTF-8 BOM, semicolons and decimal commas", async () => {
    const text = "Популярные запросы;Клики;Показы;CTR;Позиция\nдиван кровать;\"1 240\";5000;24,8 %;3,5\n";
    const p = await parseImport(utf8Bom(text), "Запросы.csv");
    expect(p.facts.period[0]).toMatchObject({ key: "диван кровать", clicks: 1240, impressions: 5000, posXImpr: 3.5 * 5000 });
  });

  it("flags a table of exactly 1,000 rows as truncated", async () => {
    const rows = Array.from({ length: GSC_UI_ROW_CAP }, (_, i) => `q${i},1,10,10%,5`).join("\n");
    const p = await parseImport(Buffer.from(`Top pages,Clicks,Impressions,CTR,Position\n${rows}\n`.replace("Top pages", "Top queries")), "Queries.csv");
    expect(p.facts.truncated).toBe(true);
    expect(p.facts.warnings[0]).toContain("1000 rows");
  });
});

describe("other formats", () => {
  it("GSC Page indexing ZIP: chart points, issues and a named drill-down", async () => {
    const zip = buildZip([
      { name: "Chart.csv", data: "Date,Not indexed,Indexed,Impressions\n2025-03-01,,,\n2025-03-04,125,980,5000\n" },
      { name: "Critical issues.csv", data: "Reason,Source,Validation,Pages\nPage with redirect,Website,Not Started,35\nCrawled - currently not indexed,Google systems,Not Started,90\n" },
      { name: "Metadata.csv", data: "Property,Value\nSitemap,All known pages\n" },
      { name: "Soft 404/Table.csv", data: "URL,Last crawled\nhttps://shop.example.ru/a,2025-03-04\nhttps://shop.example.ru/b,1969-12-31\n" },
    ]);
    const p = await parseImport(zip, "shop-Coverage-2025-03-05.zip");
    expect(p.provider).toBe("gsc_indexing");
    expect(p.facts.indexStatus).toEqual([{ engine: "google", date: "2025-03-04", indexed: 980, notIndexed: 125 }]);
    expect(p.facts.indexIssues.map((i) => [i.reason, i.pages])).toEqual([["Page with redirect", 35], ["Crawled - currently not indexed", 90]]);
    expect(p.facts.indexUrls.map((u) => [u.url, u.reason, u.lastCrawled])).toEqual([["https://shop.example.ru/a", "Soft 404", "2025-03-04"], ["https://shop.example.ru/b", "Soft 404", null]]);
  });

  it("Yandex pages in search: SEARCHABLE in, the rest and DELETE events excluded", async () => {
    const text = "updateDate,url,httpCode,status,target,lastAccess,title,event\n2025-03-10,https://shop.example.ru/old-sofa/,404,HTTP_ERROR,,2025-03-07,,DELETE\n2025-03-09,https://shop.example.ru/,200,SEARCHABLE,,2025-03-08,Home,ADD\n";
    const urls = (await parseImport(Buffer.from(text), "export.csv")).facts.indexUrls;
    expect(urls.map((u) => [u.url, u.status, u.reason, u.httpCode])).toEqual([["https://shop.example.ru/old-sofa/", "excluded", "HTTP_ERROR", 404], ["https://shop.example.ru/", "searchable", "SEARCHABLE", 200]]);
  });

  it("Yandex query analytics: daily rows plus per-day, per-query and per-query×URL sums", async () => {
    const text = "Date,Host,URL,Query,Region,Clicks,Impressions,Ranking\n2025-03-09,shop.example.ru,https://shop.example.ru/a/,Диван  Кровать,213,7,200,4.5\n2025-03-09,shop.example.ru,https://shop.example.ru/b/,диван кровать,213,3,100,9\n2025-03-10,shop.example.ru,https://shop.example.ru/a/,диван кровать,213,5,100,3\n";
    const f = (await parseImport(Buffer.from(text), "q.csv")).facts;
    expect(f.daily.filter((d) => d.query === "")).toEqual([
      { engine: "yandex", date: "2025-03-09", query: "", page: "", country: "", device: "", clicks: 10, impressions: 300, posXImpr: 4.5 * 200 + 9 * 100 },
      { engine: "yandex", date: "2025-03-10", query: "", page: "", country: "", device: "", clicks: 5, impressions: 100, posXImpr: 300 },
    ]);
    expect(f.period.find((r) => r.dim === "query")).toMatchObject({ key: "диван кровать", clicks: 15, impressions: 400, posXImpr: 900 + 900 + 300 });
    expect(f.period.filter((r) => r.dim === "query_page").map((r) => [r.key2, r.impressions])).toEqual([["https://shop.example.ru/a/", 300], ["https://shop.example.ru/b/", 100]]);
  });

  it("Ahrefs UTF-16LE TSV: rating, rel flags, lost date", async () => {
    const header = ["Referring page title", "Referring page URL", "Domain rating", "Target URL", "Anchor", "Nofollow", "UGC", "Sponsored", "First seen", "Last seen", "Lost"].join("\t");
    const rows = ['"T"\t"https://blog.example.com/p#c"\t"54"\t"https://shop.example.ru/"\t"=cmd"\t"false"\t"true"\t"false"\t"2024-05-01 10:00:00"\t"2025-03-01 00:00:00"\t""', '"U"\t"https://www.other.org/x"\t"12"\t"https://shop.example.ru/a"\t"диван"\t"false"\t"false"\t"false"\t"2024-06-01 10:00:00"\t"2025-01-01 00:00:00"\t"2025-01-05 00:00:00"'];
    const p = await parseImport(utf16le([header, ...rows].join("\r\n")), "backlinks.csv");
    expect(p.provider).toBe("ahrefs");
    expect(p.facts.backlinks).toEqual([
      { sourceUrl: "https://blog.example.com/p", targetUrl: "https://shop.example.ru/", anchor: "cmd", sourceDomain: "blog.example.com", nofollow: true, sourceRating: 54, ratingScale: "ahrefs_dr", firstSeen: "2024-05-01", lastSeen: "2025-03-01", lostAt: null },
      { sourceUrl: "https://www.other.org/x", targetUrl: "https://shop.example.ru/a", anchor: "диван", sourceDomain: "other.org", nofollow: false, sourceRating: 12, ratingScale: "ahrefs_dr", firstSeen: "2024-06-01", lastSeen: "2025-01-01", lostAt: "2025-01-05" },
    ]);
  });

  it("Semrush backlinks CSV: a lost link is lost on its last-seen day", async () => {
    const text = "Page ascore,Source title,Source url,Target url,Anchor,External links,Internal links,Nofollow,Sponsored,Ugc,Text,Frame,Form,Image,Sitewide,First seen,Last seen,New link,Lost link\n31,T,https://a.example.com/,https://shop.example.ru/,sofa,3,10,false,false,false,true,false,false,false,false,2024-01-02,2025-02-03,false,true\n";
    expect((await parseImport(Buffer.from(text), "x.csv")).facts.backlinks[0]).toMatchObject({ sourceRating: 31, ratingScale: "semrush_ascore", lostAt: "2025-02-03", nofollow: false });
  });

  it("Topvisor and Keys.so JSON: positions with not-found as null", async () => {
    const tv = { regions: { "1": { searcher: "google", region: 213, device: "mobile" } }, result: { keywords: [{ name: "Диван", group_name: "Диваны", positionsData: { "2025-03-10:7:1": { position: "7", relevant_url: "https://shop.example.ru/d/" }, "2025-03-09:7:1": { position: "--" } } }] } };
    expect((await parseImport(Buffer.from(JSON.stringify(tv)), "p.json")).facts.ranks).toEqual([
      { engine: "google", region: 213, device: "mobile", keyword: "диван", date: "2025-03-10", position: 7, url: "https://shop.example.ru/d/", group: "Диваны", volume: null },
      { engine: "google", region: 213, device: "mobile", keyword: "диван", date: "2025-03-09", position: null, url: null, group: "Диваны", volume: null },
    ]);
    const ks = { searchSettings: [{ regionId: 2, engine: "yandex" }], data: [{ word: "диван", wsk: 1840, dates: [{ date: "10.03.2025", organic_pos: 4, check_status: "found" }, { date: "09.03.2025", organic_pos: 0, check_status: "lost" }] }] };
    const ranks = (await parseImport(Buffer.from(JSON.stringify(ks)), "k.json")).facts.ranks;
    expect(ranks.map((r) => [r.date, r.position, r.region, r.volume])).toEqual([["2025-03-10", 4, 2, 1840], ["2025-03-09", null, 2, 1840]]);
  });
});

describe("hostile and wrong files", () => {
  it("refuses a file of no known format, naming what was expected", async () => {
    await expect(parseImport(Buffer.from("name,age\nann,3\n"), "Queries.csv")).rejects.toThrow(ImportFormatError);
    await expect(parseImport(Buffer.from("name,age\nann,3\n"), "Queries.csv")).rejects.toThrow(/expected one of: Google Search Console Performance/);
  });
  it("refuses a file that is not what the caller said", async () => {
    await expect(parseImport(Buffer.from(queriesEn), "q.csv", { provider: "ahrefs" })).rejects.toThrow("is a gsc export (gsc_performance), not ahrefs");
  });
  it("stops a zip bomb at the inflate cap, whatever size it declares", async () => {
    const bomb = buildZip([{ name: "Queries.csv", data: "Top queries,Clicks,Impressions,CTR,Position\n" + "a,1,1,1%,1\n".repeat(200_000), declaredSize: 10 }]);
    expect(bomb.length).toBeLessThan(20_000);
    await expect(parseImport(bomb, "b.zip", { zipCaps: { maxEntries: 8, maxEntryBytes: 100_000, maxTotalBytes: 100_000 } })).rejects.toThrow("inflates past the cap of 100000 bytes");
  });
  it("refuses a ZIP with more entries than the cap", async () => {
    const many = buildZip(Array.from({ length: 9 }, (_, i) => ({ name: `${i}.csv`, data: queriesEn })));
    await expect(parseImport(many, "m.zip", { zipCaps: { maxEntries: 8, maxEntryBytes: 1e6, maxTotalBytes: 1e6 } })).rejects.toThrow("holds 9 entries; at most 8");
  });
});

describe("a JSON export with a figure the stores cannot hold", () => {
  it("is refused naming the keyword and the field, not stored to fail the storage's check with a 500", async () => {
    const ks = { data: [{ word: "диван", wsk: -5, dates: [{ date: "2026-11-01", organic_pos: 3, check_status: "found" }] }] };
    await expect(parseImport(Buffer.from(JSON.stringify(ks)), "k.json")).rejects.toThrow('k.json: keyword "диван": volume -5 is not a whole number of at least 0; nothing of the file was imported');
    const fractional = { data: [{ word: "диван", wsk: 10, dates: [{ date: "2026-11-01", organic_pos: 2.5, check_status: "found" }] }] };
    await expect(parseImport(Buffer.from(JSON.stringify(fractional)), "k.json")).rejects.toThrow('k.json: keyword "диван": position 2.5 is not a whole number of at least 1; nothing of the file was imported');
  });
});
