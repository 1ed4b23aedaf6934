import { cleanText, countAt, figureAt, normalizeQuery, parseDay } from "../cells.ts";
import { coverDay, type DailyFact, type ImportFacts } from "../facts.ts";
import { hasColumns, type TableFormat } from "../format.ts";

// Yandex Webmaster «Расширенная аналитика запросов по URL» CSV (search-data-anchors §2.1):
// Date,Host,URL,Query,Region,Clicks,Impressions,Ranking — daily query×URL rows. Besides the daily
// rows, the file's own totals are derived: per day (for /traffic), per query and per query×URL over
// the file's days (for /queries and cannibalization). Sums of real rows, nothing estimated.

interface Sum {
  clicks: number;
  impressions: number;
  posXImpr: number;
}

function add(map: Map<string, Sum>, key: string, f: DailyFact): void {
  const s = map.get(key) ?? { clicks: 0, impressions: 0, posXImpr: 0 };
  s.clicks += f.clicks;
  s.impressions += f.impressions;
  s.posXImpr += f.posXImpr;
  map.set(key, s);
}

export const yandexQueryAnalytics: TableFormat = {
  id: "yandex_query_analytics",
  provider: "yandex_webmaster",
  kind: "performance",
  expects: "Yandex Webmaster query analytics by URL: Date,Host,URL,Query,Region,Clicks,Impressions,Ranking",
  matches: (h) => hasColumns(h, ["date", "дата"], ["url"], ["query", "запрос"], ["clicks", "клики"], ["impressions", "показы"], ["ranking", "позиция", "position"]),
  async read(header, rows, facts: ImportFacts, ctx) {
    const col = (...names: string[]) => names.map((n) => header.indexOf(n)).find((i) => i >= 0) ?? -1;
    const [date, url, query, clicks, impr, rank] = [col("date", "дата"), col("url"), col("query", "запрос"), col("clicks", "клики"), col("impressions", "показы"), col("ranking", "позиция", "position")];
    const byDay = new Map<string, Sum>();
    const byQuery = new Map<string, Sum>();
    const byPair = new Map<string, Sum>();
    for await (const row of rows) {
      const day = parseDay(row[date] ?? "");
      if (day === null) {
        ctx.skip("its date is not a date");
        continue;
      }
      const impressions = countAt(row, impr) ?? 0;
      const position = figureAt(row, rank);
      const clickCount = countAt(row, clicks) ?? 0;
      coverDay(facts, day);
      const f: DailyFact = {
        engine: "yandex",
        date: day,
        query: normalizeQuery(row[query] ?? ""),
        page: cleanText(row[url] ?? ""),
        country: "",
        device: "",
        clicks: clickCount,
        impressions,
        posXImpr: position !== null && position > 0 ? position * impressions : 0,
      };
      facts.daily.push(f);
      add(byDay, day, f);
      add(byQuery, f.query, f);
      add(byPair, `${f.query}\u0000${f.page}`, f);
    }
    for (const [day, s] of byDay) facts.daily.push({ engine: "yandex", date: day, query: "", page: "", country: "", device: "", ...s });
    for (const [q, s] of byQuery) facts.period.push({ engine: "yandex", dim: "query", key: q, key2: "", ...s, prevClicks: null, prevImpressions: null, prevPosXImpr: null });
    for (const [k, s] of byPair) {
      const [q, page] = k.split("\u0000") as [string, string];
      facts.period.push({ engine: "yandex", dim: "query_page", key: q, key2: page, ...s, prevClicks: null, prevImpressions: null, prevPosXImpr: null });
    }
  },
};
