import { keywordPositions, median, movedShareByDay, positionPages, serpShakes, serpSeriesKey, urlFlips, type RankPoint } from "../../analyzer/index.ts";
import type { Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { opportunitiesOf } from "./search.ts";
import { freshnessOf, RANK_CHECKS, SERP_SNAPSHOTS, stateAndNote } from "./search-freshness.ts";
import { ownSite } from "./search-imports.ts";
import { assertSectionOn } from "./search-sources.ts";

const NEEDS_RANKS = "No rank checks imported: upload a Topvisor positions history or a Keys.so monitoring report (JSON) with POST /imports/{host}.";
const DAY_MS = 86_400_000;
const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Every rank check of the site (the newest import's row per keyword and day). */
async function rankPoints(repos: Pick<Repositories, "search">, accountId: number, host: string): Promise<RankPoint[]> {
  return repos.search.rankChecks(accountId, host, "0000-00-00");
}

export const listPositions = implement(contracts.listPositions, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "list_positions");
  const points = await rankPoints(repos, auth!.accountId, params.host);
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, RANK_CHECKS);
  const all = keywordPositions(points).sort((a, b) => (a.position ?? 1e9) - (b.position ?? 1e9) || a.query.localeCompare(b.query) || a.engine.localeCompare(b.engine) || a.region - b.region);
  const chosen = query.trend ? all.filter((k) => k.trend === query.trend) : all;
  return {
    body: {
      host: params.host,
      trend: query.trend ?? null,
      ...stateAndNote(fresh, points.length > 0, NEEDS_RANKS),
      keywords: chosen.slice(query.offset, query.offset + query.limit),
      page: page(query.limit, query.offset, chosen.length),
    },
  };
});

export const getPositionPages = implement(contracts.getPositionPages, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "get_position_pages");
  const points = await rankPoints(repos, auth!.accountId, params.host);
  const { list } = await opportunitiesOf(repos, auth!.accountId, params.host);
  const shares = list.filter((o) => o.kind === "cannibalization");
  const has = points.length > 0 || shares.length > 0;
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, ...(points.length > 0 ? [RANK_CHECKS] : []), ...(shares.length > 0 ? [{ kinds: ["performance" as const] }] : []));
  return {
    body: {
      host: params.host,
      ...stateAndNote(fresh, has, `${NEEDS_RANKS} Query×URL data (Yandex query analytics) adds cannibalization by impression shares.`),
      pages: positionPages(keywordPositions(points)),
      cannibalization: [
        ...urlFlips(points).map((f) => ({ query: f.query, engine: f.engine, source: "flips" as const, urls: [...f.urls], changes: f.changes, expected_gain_clicks: null })),
        ...shares.map((o) => ({ query: o.query, engine: o.engine, source: "shares" as const, urls: (o.pages ?? []).map((p) => p.url), changes: null, expected_gain_clicks: o.expected_gain_clicks })),
      ],
    },
  };
});

const pct = (moved: number, checked: number) => Math.round((1000 * moved) / checked) / 10;
const round1 = (x: number) => Math.round(10 * x) / 10;
const NOT_FOUND = 101;

interface VolatilityDay {
  readonly date: string;
  readonly site_pct: number | null;
  readonly market_pct: number | null;
}
type Moved = { query: string; from: number | null; to: number | null };

/**
 * The market's median over the window and its shakes: days whose market_pct exceeds both
 * 2 × the median and the window's 90th percentile, each with the site's keywords that moved ≥ 5.
 */
function marketShakes(series: readonly VolatilityDay[], movedOn: (date: string) => Moved[]) {
  const marketValues = series.map((s) => s.market_pct).filter((v): v is number => v !== null);
  const med = marketValues.length > 0 ? median(marketValues) : null;
  const sorted = [...marketValues].sort((a, b) => a - b);
  const p90 = sorted.length > 0 ? (sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] as number) : 0;
  const shakes = series
    .filter((s) => s.market_pct !== null && med !== null && s.market_pct > 2 * med && s.market_pct > p90 - 1e-9 && s.market_pct > 0)
    .map((s) => ({ date: s.date, market_pct: s.market_pct as number, keywords: movedOn(s.date) }));
  return { market_median_pct: med, shakes };
}

/** The days of the window ending at lastDay, oldest first. */
const windowDays = (lastDay: string, days: number) => Array.from({ length: days }, (_, i) => shiftDay(lastDay, i - days + 1));

/**
 * Volatility from SERP snapshots (§6.6): per query and day the rank distance of its top-10 list to
 * the day before's, 100 · D / 110; site_pct the mean over the site's queries, market_pct the median
 * over every query of the store tracked on the same engine, region and device as the site's.
 */
async function rankDistanceVolatility(repos: Pick<Repositories, "search">, accountId: number, host: string, days: number, lastDay: string) {
  const dates = windowDays(lastDay, days);
  const since = shiftDay(dates[0] as string, -1);
  const self = host.toLowerCase().replace(/:\d+$/, "").replace(/^www\./, "");
  const rows = await repos.search.serpResults(accountId, host, since);
  const site = serpShakes(rows, self);
  // Days with a list in the window: a measured day needs the day before's list too.
  const listDays = new Set(rows.map((r) => r.day).filter((d) => d >= (dates[0] as string))).size;
  const combos = new Set(site.map((q) => `${q.engine}\n${q.region}\n${q.device}`));
  const market = serpShakes(await repos.search.marketSerp(since)).filter((q) => combos.has(`${q.engine}\n${q.region}\n${q.device}`));
  const byDay = <T extends { day: string }>(xs: readonly T[]) => {
    const m = new Map<string, T[]>();
    for (const x of xs) m.set(x.day, [...(m.get(x.day) ?? []), x]);
    return m;
  };
  const siteDays = byDay(site);
  const marketDays = byDay(market);
  const series = dates.map((date) => {
    const s = siteDays.get(date) ?? [];
    const m = marketDays.get(date) ?? [];
    return { date, site_pct: s.length > 0 ? round1(s.reduce((a, q) => a + q.pct, 0) / s.length) : null, market_pct: m.length > 0 ? round1(median(m.map((q) => q.pct))) : null };
  });
  const moved = (date: string) =>
    (siteDays.get(date) ?? [])
      .filter((q) => Math.abs((q.to ?? NOT_FOUND) - (q.from ?? NOT_FOUND)) >= 5)
      .sort((a, b) => serpSeriesKey(a).localeCompare(serpSeriesKey(b)))
      .map((q) => ({ query: q.keyword, from: q.from, to: q.to }));
  return { series, listDays, ...marketShakes(series, moved) };
}

/**
 * The fallback volatility from daily rank checks (§6.6): the share of the site's tracked keywords
 * that moved ≥ 3 places (or in/out of the depth) since the day before, beside the same share over
 * every tracked keyword of the site's main engine in the installation.
 */
async function movedShareVolatility(repos: Pick<Repositories, "search">, points: readonly RankPoint[], days: number, lastDay: string) {
  const firstDay = shiftDay(lastDay, -(days - 1));
  // The site's main engine: the one most of its checks are from.
  const engine = points.filter((p) => p.engine === "google").length > points.length / 2 ? "google" : "yandex";
  const site = movedShareByDay(points.filter((p) => p.day >= shiftDay(firstDay, -1)));
  const market = new Map((await repos.search.marketMoves(firstDay)).filter((m) => m.engine === engine).map((m) => [m.day, m]));
  const series = windowDays(lastDay, days).map((date) => {
    const s = site.get(date);
    const m = market.get(date);
    return { date, site_pct: s ? pct(s.moved, s.checked) : null, market_pct: m && m.checked > 0 ? pct(m.moved, m.checked) : null };
  });
  const byKeyDay = new Map(points.map((p) => [`${p.engine}|${p.region}|${p.device}|${p.keyword}|${p.day}`, p]));
  const moved = (date: string) =>
    points
      .filter((p) => p.day === date)
      .map((p) => ({ p, before: byKeyDay.get(`${p.engine}|${p.region}|${p.device}|${p.keyword}|${shiftDay(date, -1)}`) }))
      .filter(({ p, before }) => before !== undefined && Math.abs((p.position ?? NOT_FOUND) - (before.position ?? NOT_FOUND)) >= 5)
      .map(({ p, before }) => ({ query: p.keyword, from: before!.position, to: p.position }));
  return { series, ...marketShakes(series, moved) };
}

/** Days of a series the site has a figure for. */
const measured = (series: readonly VolatilityDay[]) => series.filter((s) => s.site_pct !== null).length;

export const getSerpVolatility = implement(contracts.getSerpVolatility, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  const accountId = auth!.accountId;
  await ownSite(repos, accountId, params.host);
  assertSectionOn(deps, "get_serp_volatility");
  const serpLast = await repos.search.serpLatestDay(accountId, params.host);
  const points = await rankPoints(repos, accountId, params.host);
  const rankLast = points.length > 0 ? points.reduce((a, p) => (p.day > a ? p.day : a), points[0]!.day) : null;
  const serp = serpLast !== null ? await rankDistanceVolatility(repos, accountId, params.host, query.days, serpLast) : null;
  const ranks = rankLast !== null ? await movedShareVolatility(repos, points, query.days, rankLast) : null;
  const base = { host: params.host, days: query.days };
  if (serp === null && ranks === null) return { body: { ...base, method: "moved_share" as const, data_state: "missing" as const, note: NEEDS_RANKS, market_median_pct: null, series: [], shakes: [] } };
  // Snapshots measure a day only where a query has a list on the day before too: weekly snapshots
  // measure none. Sparse snapshots (fewer than half their days measured) give way to the daily rank
  // checks when these measure more, and the note says why.
  const serpDays = serp ? measured(serp.series) : 0;
  const rankDays = ranks ? measured(ranks.series) : 0;
  const sparse = serp !== null && serpDays < 0.5 * Math.max(1, serp.listDays - 1);
  const useSerp = serp !== null && (ranks === null || !sparse || rankDays <= serpDays);
  const { listDays: _listDays, ...chosen } = useSerp ? serp : { ...ranks!, listDays: 0 };
  const fresh = await freshnessOf(repos, accountId, params.host, now, useSerp ? SERP_SNAPSHOTS : RANK_CHECKS);
  const notes: string[] = [];
  if (!useSerp && serp !== null) notes.push(`The SERP snapshots are sparse: ${serp.listDays} days with lists in the window measure ${serpDays} (a day needs a query's top-10 list on the day before too); the daily rank checks measure ${rankDays}: the volatility is their moved share.`);
  const chosenDays = useSerp ? serpDays : rankDays;
  if (chosenDays === 0) notes.push(useSerp ? "No tracked query has SERP snapshots on two consecutive days in the window: no day can be measured; import daily snapshots or daily rank checks." : "No tracked keyword was checked on two consecutive days in the window: no day can be measured; import daily rank checks.");
  if (fresh.note) notes.push(fresh.note);
  return {
    body: {
      ...base,
      method: useSerp ? ("rank_distance" as const) : ("moved_share" as const),
      data_state: fresh.state === "missing" ? ("fresh" as const) : fresh.state,
      note: notes.length > 0 ? notes.join(" ") : null,
      ...chosen,
    },
  };
});

export const searchPositionsHandlers = [listPositions, getPositionPages, getSerpVolatility];
