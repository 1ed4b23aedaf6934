import { cleanText, normalizeQuery, parseDay, scalarText } from "../cells.ts";
import { coverDay, type Engine } from "../facts.ts";
import type { JsonFormat } from "../format.ts";

// Topvisor API v2 get/positions_2/history saved as JSON (search-data-anchors §3):
// result.keywords[{name, group_name, positionsData: {"YYYY-MM-DD:project:regionIndex": {position,
// relevant_url}}}]. "--" or blank is "not found". The region index is project-local: an optional
// top-level "regions" map {index: {searcher: "yandex"|"google", region: geo id, device}} names it;
// without one the index is kept as the region and the engine taken as Yandex (and a warning says so).

interface TvRegion {
  readonly searcher?: string;
  readonly region?: number;
  readonly device?: string;
}
interface TvKeyword {
  readonly name?: unknown;
  readonly group_name?: unknown;
  readonly positionsData?: Record<string, { position?: unknown; relevant_url?: unknown }>;
}

function keywordsOf(doc: unknown): TvKeyword[] | null {
  const k = (doc as { result?: { keywords?: unknown } } | null)?.result?.keywords;
  return Array.isArray(k) && k.every((x) => typeof x === "object" && x !== null && "positionsData" in x) ? (k as TvKeyword[]) : null;
}

export const topvisorPositions: JsonFormat = {
  id: "topvisor_positions",
  provider: "topvisor",
  kind: "positions",
  expects: "Topvisor positions_2/history JSON: {result: {keywords: [{name, positionsData}]}}",
  matches: (doc) => keywordsOf(doc) !== null,
  read(doc, facts) {
    const regions = (doc as { regions?: Record<string, TvRegion> }).regions ?? null;
    if (regions === null) facts.warnings.push("no regions map: Topvisor region indexes are kept as regions and the engine taken as yandex");
    for (const kw of keywordsOf(doc) as TvKeyword[]) {
      const keyword = normalizeQuery(scalarText(kw.name));
      if (keyword === "") continue;
      for (const [key, cell] of Object.entries(kw.positionsData ?? {})) {
        const [dayText, , regionIndex = "0"] = key.split(":");
        const day = parseDay(dayText ?? "");
        if (day === null) continue;
        coverDay(facts, day);
        const r = regions?.[regionIndex];
        const engine: Engine = r?.searcher === "google" ? "google" : "yandex";
        const pos = Number.parseInt(scalarText(cell.position), 10);
        facts.ranks.push({
          engine,
          region: r?.region ?? Number(regionIndex),
          device: r?.device === "mobile" ? "mobile" : "desktop",
          keyword,
          date: day,
          position: Number.isFinite(pos) && pos > 0 ? pos : null,
          url: typeof cell.relevant_url === "string" && cell.relevant_url !== "" ? cleanText(cell.relevant_url) : null,
          group: cleanText(scalarText(kw.group_name)),
          volume: null,
        });
      }
    }
  },
};
