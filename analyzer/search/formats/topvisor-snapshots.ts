import { cleanText, normalizeQuery, parseDay, scalarText } from "../cells.ts";
import { coverDay, type Engine } from "../facts.ts";
import type { JsonFormat } from "../format.ts";

// Topvisor API v2 get/snapshots_2/history saved as JSON: the result pages themselves, per tracked
// keyword and check date. result.keywords[{name, snapshotsData: {"YYYY-MM-DD:rank:regionIndex":
// {url, domain, snippet_title, …}}}]. The key's middle part is the place in the result list (not
// the project id as in positions_2's keys). The region index is project-local: the optional
// top-level "regions" map {index: {searcher, region, device}} names it, as for the positions export.

interface TvRegion {
  readonly searcher?: string;
  readonly region?: number;
  readonly device?: string;
}
interface TvSnapshot {
  readonly url?: unknown;
  readonly domain?: unknown;
}
interface TvKeyword {
  readonly name?: unknown;
  readonly snapshotsData?: Record<string, TvSnapshot | null>;
}

const KEY = /^(\d{4}-\d{2}-\d{2}):(\d{1,3}):(\d+)$/;

function keywordsOf(doc: unknown): TvKeyword[] | null {
  const k = (doc as { result?: { keywords?: unknown } } | null)?.result?.keywords;
  return Array.isArray(k) && k.length > 0 && k.every((x) => typeof x === "object" && x !== null && "snapshotsData" in x) ? (k as TvKeyword[]) : null;
}

/** The host of a result as a rival's name: lower case, no www., no port; null when there is none. */
export function serpDomain(domain: string, url: string): string | null {
  let host = domain.trim().toLowerCase();
  if (host === "") {
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return null;
    }
  }
  host = host.replace(/^[a-z]+:\/\//, "").replace(/[/:].*$/, "").replace(/^www\./, "").replace(/\.$/, "");
  return /^[\p{L}\p{N}.-]+$/u.test(host) && host.includes(".") ? host : null;
}

export const topvisorSnapshots: JsonFormat = {
  id: "topvisor_snapshots",
  provider: "topvisor",
  kind: "positions",
  expects: "Topvisor snapshots_2/history JSON: {result: {keywords: [{name, snapshotsData: {\"date:rank:region\": {url, domain}}}]}}",
  matches: (doc) => keywordsOf(doc) !== null,
  read(doc, facts) {
    const regions = (doc as { regions?: Record<string, TvRegion> }).regions ?? null;
    if (regions === null) facts.warnings.push("no regions map: Topvisor region indexes are kept as regions and the engine taken as yandex");
    let skipped = 0;
    for (const kw of keywordsOf(doc) as TvKeyword[]) {
      const keyword = normalizeQuery(scalarText(kw.name));
      if (keyword === "") continue;
      for (const [key, cell] of Object.entries(kw.snapshotsData ?? {})) {
        const hit = KEY.exec(key.trim());
        const day = hit ? parseDay(hit[1] as string) : null;
        const rank = hit ? Number(hit[2]) : 0;
        const url = cleanText(scalarText(cell?.url));
        const domain = serpDomain(cleanText(scalarText(cell?.domain)), url);
        if (!hit || day === null || rank < 1 || domain === null) {
          skipped++;
          continue;
        }
        coverDay(facts, day);
        const r = regions?.[hit[3] as string];
        const engine: Engine = r?.searcher === "google" ? "google" : "yandex";
        facts.serp.push({ engine, region: r?.region ?? Number(hit[3]), device: r?.device === "mobile" ? "mobile" : "desktop", keyword, date: day, rank, domain, url });
      }
    }
    if (skipped > 0) facts.warnings.push(`${skipped} snapshot entries without a date:rank:region key or a domain were skipped`);
  },
};
