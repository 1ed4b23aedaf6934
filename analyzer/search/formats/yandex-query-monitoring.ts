import { cleanText, countAt, figureAt, normalizeQuery, parseDay } from "../cells.ts";
import { coverDay, type ImportFacts } from "../facts.ts";
import { columnOf, type TableFormat } from "../format.ts";

// Yandex Webmaster «Мониторинг запросов» XLSX (search-data-anchors §2.1): wide, one row per
// monitored query (`Query`, or `Поисковые запросы` in older exports; `Url` optional), then per day
// `<date>_demand`, `<date>_shows`, `<date>_clicks`, `<date>_position`. Unpivoted into daily
// query rows, plus per-query and query×URL sums over the file's days. No per-day site totals: the
// file holds only the queries the user monitors, so their sum is not the site's traffic.

const METRIC = /^(.+?)[_ ](demand|shows|clicks|position)$/;

/** The header's date columns: day → metric → column index. */
function dateColumns(header: readonly string[]): Map<string, Map<string, number>> {
  const days = new Map<string, Map<string, number>>();
  header.forEach((cell, i) => {
    const hit = METRIC.exec(cell);
    const day = hit ? parseDay(hit[1] as string) : null;
    if (!hit || day === null) return;
    const metrics = days.get(day) ?? new Map<string, number>();
    metrics.set(hit[2] as string, i);
    days.set(day, metrics);
  });
  return days;
}

const QUERY = ["query", "поисковые запросы", "запрос", "поисковый запрос"];

interface Sum {
  clicks: number;
  impressions: number;
  posXImpr: number;
}

export const yandexQueryMonitoring: TableFormat = {
  id: "yandex_query_monitoring",
  provider: "yandex_webmaster",
  kind: "performance",
  expects: "Yandex Webmaster «Мониторинг запросов»: Query (or Поисковые запросы), Url, then <date>_shows, <date>_clicks, <date>_position (and <date>_demand) per day",
  matches: (h) => columnOf(h, ...QUERY) >= 0 && [...dateColumns(h).values()].some((m) => m.has("shows") || m.has("clicks")),
  async read(header, rows, facts: ImportFacts, ctx) {
    const query = columnOf(header, ...QUERY);
    const url = columnOf(header, "url", "адрес страницы");
    const days = [...dateColumns(header)].sort(([a], [b]) => a.localeCompare(b));
    const byQuery = new Map<string, Sum>();
    const byPair = new Map<string, Sum>();
    const add = (map: Map<string, Sum>, key: string, s: Sum) => {
      const o = map.get(key) ?? { clicks: 0, impressions: 0, posXImpr: 0 };
      map.set(key, { clicks: o.clicks + s.clicks, impressions: o.impressions + s.impressions, posXImpr: o.posXImpr + s.posXImpr });
    };
    for await (const row of rows) {
      const q = normalizeQuery(row[query] ?? "");
      if (q === "") {
        ctx.skip("it has no query");
        continue;
      }
      const page = url >= 0 ? cleanText(row[url] ?? "") : "";
      for (const [day, metrics] of days) {
        const col = (m: string) => metrics.get(m) ?? -1;
        const impressions = countAt(row, col("shows"));
        const clicks = countAt(row, col("clicks"));
        if (impressions === null && clicks === null) continue;
        const position = figureAt(row, col("position"));
        const s = { clicks: clicks ?? 0, impressions: impressions ?? 0, posXImpr: position !== null && position > 0 ? position * (impressions ?? 0) : 0 };
        coverDay(facts, day);
        facts.daily.push({ engine: "yandex", date: day, query: q, page, country: "", device: "", ...s });
        add(byQuery, q, s);
        if (page !== "") add(byPair, `${q}\u0000${page}`, s);
      }
    }
    for (const [q, s] of byQuery) facts.period.push({ engine: "yandex", dim: "query", key: q, key2: "", ...s, prevClicks: null, prevImpressions: null, prevPosXImpr: null });
    for (const [k, s] of byPair) {
      const [q, page] = k.split("\u0000") as [string, string];
      facts.period.push({ engine: "yandex", dim: "query_page", key: q, key2: page, ...s, prevClicks: null, prevImpressions: null, prevPosXImpr: null });
    }
  },
};
