// SERP volatility from snapshots (search-data-anchors §6.6): for a tracked query on day t with top-10
// lists L_t and L_{t−1}, D = Σ_{u ∈ L_t ∪ L_{t−1}} |r_t(u) − r_{t−1}(u)|, an absent entry ranked 11;
// shake = 100 · D / 110 (110: every one of the ten entries changed). MozCast's Delta10 is the
// published analogue.
import type { SerpResult } from "./share-of-voice.ts";

/** The depth compared: the top 10. */
export const SERP_VOLATILITY_DEPTH = 10;
/** D when all ten entries changed: 2 × (1 + … + 10). */
export const MAX_RANK_DISTANCE = 110;

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The entries of one top-10 list as id → rank. Snapshots keep domains, so an entry is its domain
 * and its occurrence (a domain's second result in the list is matched to its second result the
 * day before).
 */
function entries(list: readonly SerpResult[]): Map<string, number> {
  const seen = new Map<string, number>();
  const out = new Map<string, number>();
  for (const r of [...list].sort((a, b) => a.rank - b.rank)) {
    if (r.rank > SERP_VOLATILITY_DEPTH) continue;
    const n = (seen.get(r.domain) ?? 0) + 1;
    seen.set(r.domain, n);
    out.set(`${r.domain}\n${n}`, r.rank);
  }
  return out;
}

/** The rank distance D between two top-10 lists (an absent entry has rank 11). */
export function rankDistance(before: readonly SerpResult[], after: readonly SerpResult[]): number {
  const a = entries(before);
  const b = entries(after);
  const absent = SERP_VOLATILITY_DEPTH + 1;
  let d = 0;
  for (const id of new Set([...a.keys(), ...b.keys()])) d += Math.abs((b.get(id) ?? absent) - (a.get(id) ?? absent));
  return d;
}

/** One query's shake on one day (0–100 %), from its list and the day before's. */
export interface QueryShake {
  readonly engine: string;
  readonly region: number;
  readonly device: string;
  readonly keyword: string;
  readonly day: string;
  /** 100 · D / 110, unrounded. */
  readonly pct: number;
  /** Where `self` ranked (best rank at any depth of the list), the day before and on the day; null: absent. */
  readonly from: number | null;
  readonly to: number | null;
}

/** The series key of a tracked query: engine, region, device and keyword. */
export const serpSeriesKey = (r: { engine: string; region: number; device: string; keyword: string }) => `${r.engine}\n${r.region}\n${r.device}\n${r.keyword}`;

/**
 * Every query's shake on each day that has a list on the day before too; `self` (a domain) gets
 * its rank on both days. Unordered.
 */
export function serpShakes(rows: readonly SerpResult[], self = ""): QueryShake[] {
  const lists = new Map<string, SerpResult[]>();
  for (const r of rows) {
    const k = `${serpSeriesKey(r)}\n${r.day}`;
    const list = lists.get(k);
    if (list) list.push(r);
    else lists.set(k, [r]);
  }
  const rankOf = (list: readonly SerpResult[]) => list.reduce<number | null>((best, r) => (r.domain === self && (best === null || r.rank < best) ? r.rank : best), null);
  const out: QueryShake[] = [];
  for (const list of lists.values()) {
    const first = list[0] as SerpResult;
    const prevDay = new Date(dayMs(first.day) - DAY_MS).toISOString().slice(0, 10);
    const before = lists.get(`${serpSeriesKey(first)}\n${prevDay}`);
    if (!before) continue;
    out.push({
      engine: first.engine,
      region: first.region,
      device: first.device,
      keyword: first.keyword,
      day: first.day,
      pct: (100 * rankDistance(before, list)) / MAX_RANK_DISTANCE,
      from: rankOf(before),
      to: rankOf(list),
    });
  }
  return out;
}
