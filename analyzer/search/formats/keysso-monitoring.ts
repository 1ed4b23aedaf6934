import { cleanText, normalizeQuery, parseDay, scalarText } from "../cells.ts";
import { coverDay } from "../facts.ts";
import type { JsonFormat } from "../format.ts";

// Keys.so /monitoring/{id}/report saved as JSON (search-data-anchors §3): data[{word, ws, wsk,
// relevant_url, dates: [{date, organic_pos, check_status, url}]}], searchSettings [{regionId,
// engine}]. check_status "lost" (or no position) is "not found"; wsk (the "!exact" frequency) is the volume.

interface KsRow {
  readonly word?: unknown;
  readonly wsk?: unknown;
  readonly group?: unknown;
  readonly dates?: { date?: unknown; organic_pos?: unknown; check_status?: unknown; url?: unknown }[];
}

function rowsOf(doc: unknown): KsRow[] | null {
  const d = (doc as { data?: unknown } | null)?.data;
  return Array.isArray(d) && d.length > 0 && d.every((x) => typeof x === "object" && x !== null && "word" in x && Array.isArray((x as KsRow).dates)) ? (d as KsRow[]) : null;
}

export const keyssoMonitoring: JsonFormat = {
  id: "keysso_monitoring",
  provider: "keysso",
  kind: "positions",
  expects: "Keys.so monitoring report JSON: {data: [{word, wsk, dates: [{date, organic_pos, check_status}]}]}",
  matches: (doc) => rowsOf(doc) !== null,
  read(doc, facts) {
    const setting = ((doc as { searchSettings?: { regionId?: unknown; engine?: unknown }[] }).searchSettings ?? [])[0];
    const engine = (scalarText(setting?.engine) || "yandex").toLowerCase().includes("google") ? "google" : "yandex";
    const region = Number(setting?.regionId ?? 213) || 213;
    for (const row of rowsOf(doc) as KsRow[]) {
      const keyword = normalizeQuery(scalarText(row.word));
      const volume = Number(row.wsk);
      for (const d of row.dates ?? []) {
        const day = parseDay(scalarText(d.date));
        if (day === null || keyword === "") continue;
        coverDay(facts, day);
        const pos = Number(d.organic_pos);
        const found = d.check_status !== "lost" && Number.isFinite(pos) && pos > 0;
        facts.ranks.push({ engine, region, device: "desktop", keyword, date: day, position: found ? pos : null, url: typeof d.url === "string" && d.url !== "" ? cleanText(d.url) : null, group: cleanText(scalarText(row.group)), volume: Number.isFinite(volume) ? volume : null });
      }
    }
  },
};
