import { studyCtr } from "./ctr-curve.ts";

// Share of voice over time from SERP snapshots (search-data-anchors §6.7): for a domain d over the
// checked queries Q at a point t, share_d = Σ_q w_q·CTR(pos_{d,q}) / Σ_q w_q·CTR(1), in %, with the
// Sistrix curve (§6.2; a domain not in a list has CTR 0). The points are `points` buckets of
// `stepDays` days ending at the newest snapshot; each query counts with the last snapshot of a bucket.

/** One result of a snapshot: the domain at rank for a tracked query on a day. */
export interface SerpResult {
  readonly engine: string;
  readonly region: number;
  readonly device: string;
  readonly keyword: string;
  readonly day: string;
  readonly rank: number;
  readonly domain: string;
}

export interface ShareLine {
  readonly domain: string;
  /** Share (%) per point, oldest first; null where the point is not valid. */
  readonly shares: (number | null)[];
  /** Mean over the valid points. */
  readonly mean: number | null;
  /** At the newest valid point. */
  readonly last: number | null;
}

export interface ShareMover {
  readonly domain: string;
  /** Share at the first and at the last valid point, and last − first (percentage points). */
  readonly first: number;
  readonly last: number;
  readonly change: number;
}

export interface SharePoint {
  /** The bucket's last day. */
  readonly date: string;
  /** Queries with a snapshot in the bucket. */
  readonly checked: number;
  readonly valid: boolean;
}

export interface ShareHistory {
  readonly stepDays: number;
  /** points × stepDays: the days the history spans. */
  readonly days: number;
  readonly timeline: SharePoint[];
  /** Tracked queries with a snapshot anywhere in the span (|Q|). */
  readonly checkedQueries: number;
  readonly validPoints: number;
  /** volume: each query weighed by its tracked volume (all have one); equal otherwise. */
  readonly weights: "volume" | "equal";
  readonly mine: ShareLine;
  readonly rivals: ShareLine[];
  readonly movers: ShareMover[];
}

/** A point is valid when at least this share of the tracked queries was checked in its bucket. */
export const VALID_POINT_COVERAGE = 0.8;
/** Rivals and movers listed. */
export const SHARE_LIST_MAX = 10;

const DAY_MS = 86_400_000;
const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The share-of-voice history of `self` and its rivals. `volumes` maps a query (keyword) to its
 * tracked volume; when any checked query lacks one, every query weighs the same.
 */
export function shareHistory(rows: readonly SerpResult[], self: string, points: number, stepDays: number, volumes: ReadonlyMap<string, number> = new Map()): ShareHistory {
  const days = points * stepDays;
  if (rows.length === 0) {
    return { stepDays, days, timeline: [], checkedQueries: 0, validPoints: 0, weights: "equal", mine: { domain: self, shares: [], mean: null, last: null }, rivals: [], movers: [] };
  }
  const end = rows.reduce((a, r) => (r.day > a ? r.day : a), rows[0]!.day);
  const start = shiftDay(end, -days + 1);
  const dates = Array.from({ length: points }, (_, i) => shiftDay(end, -(points - 1 - i) * stepDays));
  // Per query series and bucket: the day of the last snapshot, then its list (domain → best rank).
  const seriesKey = (r: SerpResult) => `${r.engine}\n${r.region}\n${r.device}\n${r.keyword}`;
  const bucketOf = (day: string) => points - 1 - Math.floor((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / (stepDays * DAY_MS));
  const lastDay = new Map<string, string>();
  for (const r of rows) {
    if (r.day < start || r.day > end) continue;
    const k = `${seriesKey(r)}\n${bucketOf(r.day)}`;
    if ((lastDay.get(k) ?? "") < r.day) lastDay.set(k, r.day);
  }
  const lists = new Map<string, Map<string, number>>();
  const keywordOf = new Map<string, string>();
  for (const r of rows) {
    if (r.day < start || r.day > end) continue;
    const k = `${seriesKey(r)}\n${bucketOf(r.day)}`;
    if (lastDay.get(k) !== r.day) continue;
    keywordOf.set(seriesKey(r), r.keyword);
    const list = lists.get(k) ?? new Map<string, number>();
    list.set(r.domain, Math.min(list.get(r.domain) ?? Infinity, r.rank));
    lists.set(k, list);
  }
  const queries = [...keywordOf.keys()];
  const byVolume = queries.length > 0 && queries.every((q) => (volumes.get(keywordOf.get(q) as string) ?? 0) > 0);
  const weight = (q: string) => (byVolume ? (volumes.get(keywordOf.get(q) as string) as number) : 1);
  const timeline: SharePoint[] = [];
  const sharesAt: (Map<string, number> | null)[] = [];
  for (let i = 0; i < points; i++) {
    const checked = queries.filter((q) => lists.has(`${q}\n${i}`));
    const valid = checked.length > 0 && checked.length >= VALID_POINT_COVERAGE * queries.length;
    timeline.push({ date: dates[i] as string, checked: checked.length, valid });
    if (!valid) {
      sharesAt.push(null);
      continue;
    }
    const denominator = checked.reduce((s, q) => s + weight(q) * studyCtr(1), 0);
    const sums = new Map<string, number>();
    for (const q of checked) {
      for (const [domain, rank] of lists.get(`${q}\n${i}`) as Map<string, number>) sums.set(domain, (sums.get(domain) ?? 0) + weight(q) * studyCtr(rank));
    }
    sharesAt.push(new Map([...sums].map(([d, s]) => [d, (100 * s) / denominator])));
  }
  const validIdx = sharesAt.flatMap((s, i) => (s ? [i] : []));
  const share = (d: string, i: number) => (sharesAt[i] ? (sharesAt[i].get(d) ?? 0) : null);
  const line = (domain: string): ShareLine => {
    const mean = validIdx.length > 0 ? validIdx.reduce((s, i) => s + (share(domain, i) as number), 0) / validIdx.length : null;
    const lastIdx = validIdx[validIdx.length - 1];
    return {
      domain,
      shares: sharesAt.map((_, i) => {
        const v = share(domain, i);
        return v === null ? null : round2(v);
      }),
      mean: mean === null ? null : round2(mean),
      last: lastIdx === undefined ? null : round2(share(domain, lastIdx) as number),
    };
  };
  const others = new Set<string>();
  for (const s of sharesAt) for (const d of s?.keys() ?? []) if (d !== self) others.add(d);
  const lines = [...others].map((d) => ({ l: line(d), exactMean: validIdx.reduce((s, i) => s + (share(d, i) as number), 0) }));
  const rivals = lines.sort((a, b) => b.exactMean - a.exactMean || a.l.domain.localeCompare(b.l.domain)).slice(0, SHARE_LIST_MAX).map((x) => x.l);
  const movers: ShareMover[] = [];
  if (validIdx.length >= 2) {
    const [f, l] = [validIdx[0] as number, validIdx[validIdx.length - 1] as number];
    for (const d of others) {
      const change = (share(d, l) as number) - (share(d, f) as number);
      if (Math.abs(change) >= 0.005) movers.push({ domain: d, first: round2(share(d, f) as number), last: round2(share(d, l) as number), change: round2(change) });
    }
    movers.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.domain.localeCompare(b.domain));
  }
  return { stepDays, days, timeline, checkedQueries: queries.length, validPoints: validIdx.length, weights: byVolume ? "volume" : "equal", mine: line(self), rivals, movers: movers.slice(0, SHARE_LIST_MAX) };
}

export interface SerpCompetitor {
  readonly domain: string;
  /** Tracked queries whose newest snapshot has the domain in the top 10. */
  readonly top10: number;
  /** top10 ÷ the tracked queries, %. */
  readonly sharePct: number;
}

/**
 * Competitors by SERP snapshots, for a site without a market source's competitor report
 * (reference §9): other domains by the number of tracked queries whose newest snapshot has them
 * in the top 10; ties by domain.
 */
export function serpCompetitors(rows: readonly SerpResult[], self: string): SerpCompetitor[] {
  const newest = new Map<string, string>();
  const key = (r: SerpResult) => `${r.engine}\n${r.region}\n${r.device}\n${r.keyword}`;
  for (const r of rows) if ((newest.get(key(r)) ?? "") < r.day) newest.set(key(r), r.day);
  const seen = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.rank > 10 || r.domain === self || newest.get(key(r)) !== r.day) continue;
    const set = seen.get(r.domain) ?? new Set<string>();
    set.add(key(r));
    seen.set(r.domain, set);
  }
  const queries = newest.size;
  return [...seen]
    .map(([domain, set]) => ({ domain, top10: set.size, sharePct: round2((100 * set.size) / queries) }))
    .sort((a, b) => b.top10 - a.top10 || a.domain.localeCompare(b.domain));
}
