import { cleanText, parseCount, parseDay } from "../cells.ts";
import { coverDay } from "../facts.ts";
import { hasColumns, type TableFormat } from "../format.ts";

// Yandex Webmaster «Страницы в поиске» CSV (search-data-anchors §2.1):
// updateDate,url,httpCode,status,target,lastAccess,title,event. SEARCHABLE pages are in search;
// every other status is an exclusion whose reason is the status itself.

export const yandexPages: TableFormat = {
  id: "yandex_pages",
  provider: "yandex_webmaster",
  kind: "indexing",
  expects: "Yandex Webmaster pages in search: updateDate,url,httpCode,status,target,lastAccess,title,event",
  matches: (h) => hasColumns(h, ["url"], ["status"], ["httpcode"], ["lastaccess"]),
  async read(header, rows, facts, ctx) {
    const col = (n: string) => header.indexOf(n);
    const [url, code, status, target, last, event, update] = ["url", "httpcode", "status", "target", "lastaccess", "event", "updatedate"].map((n): number => col(n));
    for await (const row of rows) {
      const u = cleanText(row[url as number] ?? "");
      if (!/^https?:\/\//i.test(u)) {
        ctx.skip("its url is not an http(s) URL");
        continue;
      }
      const raw = cleanText(row[status as number] ?? "").toUpperCase();
      const eventDate = update! >= 0 ? parseDay(row[update!] ?? "") : null;
      if (eventDate) coverDay(facts, eventDate);
      const ev = event! >= 0 ? cleanText(row[event!] ?? "").toUpperCase() : "";
      facts.indexUrls.push({
        engine: "yandex",
        url: u,
        // A DELETE event means the page left search, whatever its last status.
        status: raw === "SEARCHABLE" && ev !== "DELETE" ? "searchable" : "excluded",
        reason: raw || "OTHER",
        httpCode: parseCount(row[code as number] ?? ""),
        lastCrawled: parseDay(row[last as number] ?? ""),
        event: ev || null,
        eventDate,
        target: target! >= 0 ? cleanText(row[target!] ?? "") || null : null,
      });
    }
  },
};
