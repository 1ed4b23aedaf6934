import { cleanText, countAt, parseDay } from "../cells.ts";
import { coverDay } from "../facts.ts";
import { hasColumns, type TableFormat } from "../format.ts";

// GSC Page indexing export (search-data-anchors §1.3): Chart.csv (Date,Not indexed,Indexed,…),
// Critical/Non-critical issues.csv (Reason,Source,Validation,Pages), Metadata.csv (Property,Value)
// and a reason's drill-down Table.csv (URL,Last crawled), whose reason is only in its file name.

export const gscIndexingChart: TableFormat = {
  id: "gsc_indexing_chart",
  provider: "gsc_indexing",
  kind: "indexing",
  expects: "Google Search Console Pages: Date,Not indexed,Indexed,Impressions",
  matches: (h) => (h[0] === "date" || h[0] === "дата") && hasColumns(h, ["not indexed", "не проиндексировано"], ["indexed", "проиндексировано"]),
  async read(header, rows, facts, ctx) {
    const notIdx = Math.max(header.indexOf("not indexed"), header.indexOf("не проиндексировано"));
    const idx = Math.max(header.indexOf("indexed"), header.indexOf("проиндексировано"));
    for await (const row of rows) {
      const day = parseDay(row[0] ?? "");
      if (day === null) {
        ctx.skip("its date is not a date");
        continue;
      }
      const indexed = countAt(row, idx);
      const notIndexed = countAt(row, notIdx);
      // Blank before the first refresh: not a zero.
      if (indexed === null && notIndexed === null) continue;
      coverDay(facts, day);
      facts.indexStatus.push({ engine: "google", date: day, indexed, notIndexed });
    }
  },
};

export const gscIndexingIssues: TableFormat = {
  id: "gsc_indexing_issues",
  provider: "gsc_indexing",
  kind: "indexing",
  expects: "Google Search Console Pages issues: Reason,Source,Validation,Pages",
  matches: (h) => hasColumns(h, ["reason", "причина"], ["source", "источник"], ["pages", "страницы"]),
  async read(header, rows, facts, ctx) {
    const at = (names: string[]) => names.map((n) => header.indexOf(n)).find((i) => i >= 0) ?? -1;
    const reason = at(["reason", "причина"]);
    const source = at(["source", "источник"]);
    const validation = at(["validation", "проверка"]);
    const pages = at(["pages", "страницы"]);
    for await (const row of rows) {
      const r = cleanText(row[reason] ?? "");
      if (r === "") {
        ctx.skip("it has no reason");
        continue;
      }
      facts.indexIssues.push({ engine: "google", reason: r, source: cleanText(row[source] ?? ""), validation: validation < 0 ? "" : cleanText(row[validation] ?? ""), pages: countAt(row, pages) ?? 0 });
    }
  },
};

export const gscIndexingMetadata: TableFormat = {
  id: "gsc_indexing_metadata",
  provider: "gsc_indexing",
  kind: "indexing",
  expects: "Property,Value",
  matches: (h) => h.length === 2 && (h[0] === "property" || h[0] === "свойство"),
  async read(_header, rows, facts) {
    for await (const row of rows) facts.filters[cleanText(row[0] ?? "")] = cleanText(row[1] ?? "");
  },
};

/** The reason a drill-down Table.csv belongs to: its folder or file name, as the user named it. */
function reasonOf(fileName: string): string {
  const parts = fileName.replace(/\\/g, "/").split("/").filter((p) => p !== "");
  const base = (parts.pop() ?? "").replace(/\.csv$/i, "");
  const named = /^table$/i.test(base) ? (parts.pop() ?? "") : base;
  return cleanText(named.replace(/-Coverage-Drilldown.*$/i, "").replace(/^.*?-Coverage-/i, "")) || "Not indexed";
}

export const gscIndexingTable: TableFormat = {
  id: "gsc_indexing_table",
  provider: "gsc_indexing",
  kind: "indexing",
  expects: "Google Search Console Pages drill-down: URL,Last crawled",
  matches: (h) => h.length === 2 && h[0] === "url" && (h[1] === "last crawled" || h[1] === "последнее сканирование"),
  async read(_header, rows, facts, ctx) {
    const reason = reasonOf(ctx.fileName);
    for await (const row of rows) {
      const url = cleanText(row[0] ?? "");
      if (!/^https?:\/\//i.test(url)) {
        ctx.skip("its URL is not an http(s) URL");
        continue;
      }
      facts.indexUrls.push({ engine: "google", url, status: "not_indexed", reason, httpCode: null, lastCrawled: parseDay(row[1] ?? ""), event: null, eventDate: null, target: null });
    }
  },
};
