// Tracked positions (search-data-anchors §9 /positions, /positions/{host}/pages, §6.5 URL flips,
// §6.6 the fallback volatility without SERP snapshots).

/** One rank check as stored. */
export interface RankPoint {
  readonly engine: string;
  readonly region: number;
  readonly device: string;
  readonly keyword: string;
  readonly day: string;
  /** null: not found within the tracked depth. */
  readonly position: number | null;
  readonly url: string | null;
  readonly grp: string;
  readonly volume: number | null;
}

/** Tracked depth: "not found" counts as one place below it in week changes. */
export const TRACKED_DEPTH = 100;

export type Trend = "down" | "up" | "lost";

export interface KeywordPosition {
  readonly query: string;
  readonly engine: string;
  readonly device: string;
  readonly region: number;
  readonly group: string;
  readonly position: number | null;
  readonly previous: number | null;
  readonly week_ago: number | null;
  /** week_ago − position (positive = up), not found counting as depth + 1; null without a check a week before. */
  readonly change_week: number | null;
  readonly best: number | null;
  readonly page: string | null;
  readonly checked: string;
  readonly trend: Trend | null;
  readonly volume: number | null;
}

const DAY_MS = 86_400_000;
const dayMs = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** Groups rank points by keyword × engine × region × device, each oldest first. */
export function rankSeries(points: readonly RankPoint[]): RankPoint[][] {
  const by = new Map<string, RankPoint[]>();
  for (const p of points) {
    const k = `${p.engine}|${p.region}|${p.device}|${p.keyword}`;
    const list = by.get(k) ?? [];
    list.push(p);
    by.set(k, list);
  }
  return [...by.values()].map((l) => l.sort((a, b) => a.day.localeCompare(b.day)));
}

/** Each tracked keyword's latest check, its previous one, the one nearest a week before, and the trend. */
export function keywordPositions(points: readonly RankPoint[]): KeywordPosition[] {
  return rankSeries(points).map((s) => {
    const last = s.at(-1) as RankPoint;
    const before = s.slice(0, -1);
    const target = dayMs(last.day) - 7 * DAY_MS;
    let week = null as RankPoint | null;
    for (const p of before) {
      // Nearest to a week before; on a tie the older check.
      if (week === null || Math.abs(dayMs(p.day) - target) < Math.abs(dayMs(week.day) - target)) week = p;
    }
    if (week !== null && Math.abs(dayMs(week.day) - target) > 3 * DAY_MS) week = null;
    const rank = (p: number | null) => p ?? TRACKED_DEPTH + 1;
    const change = week === null ? null : rank(week.position) - rank(last.position);
    const since = dayMs(last.day) - 90 * DAY_MS;
    const found = s.filter((p) => dayMs(p.day) >= since && p.position !== null).map((p) => p.position as number);
    const trend: Trend | null = week !== null && week.position !== null && last.position === null ? "lost" : change === null || change === 0 ? null : change < 0 ? "down" : "up";
    return {
      query: last.keyword,
      engine: last.engine,
      device: last.device,
      region: last.region,
      group: last.grp,
      position: last.position,
      previous: before.at(-1)?.position ?? null,
      week_ago: week?.position ?? null,
      change_week: change,
      best: found.length > 0 ? Math.min(...found) : null,
      page: last.url,
      checked: last.day,
      trend,
      volume: last.volume,
    };
  });
}

export interface PositionPage {
  readonly url: string;
  readonly keywords: number;
  readonly avg_position: number;
  readonly top3: number;
  readonly top10: number;
  /** Σ of its keywords' known volumes; null when none of them has one (unknown is not 0). */
  readonly volume: number | null;
}

/** The site's ranking URLs from the latest checks: keywords, mean position, top-3/top-10 counts, Σ volume. */
export function positionPages(latest: readonly KeywordPosition[]): PositionPage[] {
  const by = new Map<string, KeywordPosition[]>();
  for (const k of latest) {
    if (k.page === null || k.position === null) continue;
    const list = by.get(k.page) ?? [];
    list.push(k);
    by.set(k.page, list);
  }
  return [...by]
    .map(([url, ks]) => ({
      url,
      keywords: ks.length,
      avg_position: Math.round((ks.reduce((a, k) => a + (k.position as number), 0) / ks.length) * 10) / 10,
      top3: ks.filter((k) => (k.position as number) <= 3).length,
      top10: ks.filter((k) => (k.position as number) <= 10).length,
      volume: ks.some((k) => k.volume !== null) ? ks.reduce((a, k) => a + (k.volume ?? 0), 0) : null,
    }))
    .sort((a, b) => b.keywords - a.keywords || a.avg_position - b.avg_position || a.url.localeCompare(b.url));
}

export interface UrlFlip {
  readonly query: string;
  readonly engine: string;
  readonly urls: readonly string[];
  readonly changes: number;
}

/** Keywords whose ranking URL changed at least twice within the last 14 days of their checks (§6.5). */
export function urlFlips(points: readonly RankPoint[]): UrlFlip[] {
  const out: UrlFlip[] = [];
  for (const s of rankSeries(points)) {
    const last = s.at(-1) as RankPoint;
    const recent = s.filter((p) => dayMs(p.day) > dayMs(last.day) - 14 * DAY_MS && p.url !== null);
    let changes = 0;
    for (let i = 1; i < recent.length; i++) if (recent[i]!.url !== recent[i - 1]!.url) changes++;
    if (changes >= 2) out.push({ query: last.keyword, engine: last.engine, urls: [...new Set(recent.map((p) => p.url as string))], changes });
  }
  return out;
}

/**
 * The share (%) of tracked keywords that moved on each day: position changed by ≥3 since the
 * previous check, or entered/left the tracked depth — the reference's fallback volatility when no
 * SERP snapshots were imported. Keys are days with at least one keyword checked on the day before.
 */
export function movedShareByDay(points: readonly RankPoint[]): Map<string, { moved: number; checked: number }> {
  const days = new Map<string, { moved: number; checked: number }>();
  for (const s of rankSeries(points)) {
    for (let i = 1; i < s.length; i++) {
      const a = s[i - 1] as RankPoint;
      const b = s[i] as RankPoint;
      if (dayMs(b.day) - dayMs(a.day) > DAY_MS) continue;
      const d = days.get(b.day) ?? { moved: 0, checked: 0 };
      d.checked++;
      const left = (a.position === null) !== (b.position === null);
      if (left || (a.position !== null && b.position !== null && Math.abs(a.position - b.position) >= 3)) d.moved++;
      days.set(b.day, d);
    }
  }
  return days;
}
