import { cleanText, countAt, figureAt, normalizeQuery, parseDay } from "../cells.ts";
import { coverDay, type ImportFacts, type PeriodDim } from "../facts.ts";
import type { ReadContext, TableFormat } from "../format.ts";

// GSC Performance export (search-data-anchors §1.1): one CSV per dimension in the ZIP, each headed
// "<dimension>,Clicks,Impressions,CTR,Position" (EN or RU), or in Compare mode each metric twice
// with a period prefix ("Last 28 days Clicks,Previous 28 days Clicks,…").

const DIMENSIONS: Record<string, PeriodDim | "date"> = {
  "top queries": "query",
  "популярные запросы": "query",
  "top pages": "page",
  "самые популярные страницы": "page",
  country: "country",
  "страна": "country",
  device: "device",
  "устройство": "device",
  "search appearance": "appearance",
  "вид в результатах поиска": "appearance",
  date: "date",
  "дата": "date",
};

type Metric = "clicks" | "impressions" | "ctr" | "position";
const METRICS: Record<string, Metric> = { clicks: "clicks", "клики": "clicks", impressions: "impressions", "показы": "impressions", ctr: "ctr", position: "position", "позиция": "position" };
const METRIC_RE = /^(.*?)\s*(clicks|impressions|ctr|position|клики|показы|позиция)$/;

/** The UI export's row cap: a table with exactly this many rows was cut. */
export const GSC_UI_ROW_CAP = 1000;

interface Layout {
  readonly dim: PeriodDim | "date";
  /** Column of each metric, for the current and (Compare mode) the previous period. */
  readonly cur: Partial<Record<Metric, number>>;
  readonly prev: Partial<Record<Metric, number>>;
}

function layoutOf(header: readonly string[]): Layout | null {
  const dim = DIMENSIONS[header[0] ?? ""];
  if (!dim || header.length < 3) return null;
  const prefixes: string[] = [];
  const cur: Partial<Record<Metric, number>> = {};
  const prev: Partial<Record<Metric, number>> = {};
  for (let i = 1; i < header.length; i++) {
    const m = METRIC_RE.exec(header[i] as string);
    if (!m) return null;
    const prefix = m[1] as string;
    if (!prefixes.includes(prefix)) prefixes.push(prefix);
    const at = prefixes.indexOf(prefix);
    if (at > 1) return null;
    (at === 0 ? cur : prev)[METRICS[m[2] as string] as Metric] = i;
  }
  if (cur.clicks === undefined || cur.impressions === undefined) return null;
  return { dim, cur, prev };
}

function metricsAt(row: readonly string[], cols: Partial<Record<Metric, number>>) {
  const at = (m: Metric) => cols[m] ?? -1;
  const clicks = countAt(row, at("clicks"));
  const impressions = countAt(row, at("impressions"));
  const position = figureAt(row, at("position"));
  // Position 0 means "no data", not rank 1: it adds no weight.
  const posXImpr = position !== null && position > 0 && impressions !== null ? position * impressions : 0;
  return { clicks, impressions, posXImpr, present: clicks !== null || impressions !== null };
}

export const gscPerformance: TableFormat = {
  id: "gsc_performance",
  provider: "gsc",
  kind: "performance",
  expects: "Google Search Console Performance: Top queries|Top pages|Country|Device|Search Appearance|Date,Clicks,Impressions,CTR,Position (or the Russian UI's Популярные запросы,Клики,Показы,CTR,Позиция)",
  matches: (header) => layoutOf(header) !== null,
  async read(header, rows, facts: ImportFacts, ctx: ReadContext) {
    const layout = layoutOf(header) as Layout;
    const compare = Object.keys(layout.prev).length > 0;
    let n = 0;
    for await (const row of rows) {
      n++;
      const key = row[0] ?? "";
      const cur = metricsAt(row, layout.cur);
      if (layout.dim === "date") {
        const day = parseDay(key);
        if (day === null) {
          ctx.skip("its date is not a date");
          continue;
        }
        coverDay(facts, day);
        facts.daily.push({ engine: "google", date: day, query: "", page: "", country: "", device: "", clicks: cur.clicks ?? 0, impressions: cur.impressions ?? 0, posXImpr: cur.posXImpr });
        continue;
      }
      const prev = compare ? metricsAt(row, layout.prev) : null;
      facts.period.push({
        engine: "google",
        dim: layout.dim,
        key: layout.dim === "query" ? normalizeQuery(key) : cleanText(key),
        key2: "",
        clicks: cur.clicks ?? 0,
        impressions: cur.impressions ?? 0,
        posXImpr: cur.posXImpr,
        prevClicks: prev?.present ? (prev.clicks ?? 0) : null,
        prevImpressions: prev?.present ? (prev.impressions ?? 0) : null,
        prevPosXImpr: prev?.present ? prev.posXImpr : null,
      });
    }
    if (layout.dim !== "date" && n === GSC_UI_ROW_CAP) {
      facts.truncated = true;
      facts.warnings.push(`the ${layout.dim} table has exactly ${GSC_UI_ROW_CAP} rows, the UI export's cap: rows beyond it are missing`);
    }
  },
};

/** GSC Filters.csv (Filter,Value): the export's scope, kept with the batch. */
export const gscFilters: TableFormat = {
  id: "gsc_filters",
  provider: "gsc",
  kind: "performance",
  expects: "Filter,Value",
  matches: (header) => header.length === 2 && (header[0] === "filter" || header[0] === "фильтр") && (header[1] === "value" || header[1] === "значение"),
  async read(_header, rows, facts) {
    for await (const row of rows) facts.filters[cleanText(row[0] ?? "")] = cleanText(row[1] ?? "");
  },
};
