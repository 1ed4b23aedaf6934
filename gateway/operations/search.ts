import {
  cannibalization,
  ctrCurve,
  ctrOpportunities,
  clicksTrend,
  DATA_STATES,
  daysNeeded,
  forecastClicks,
  freshDays30,
  nearOpportunities,
  PROVIDERS,
  providerFreshness,
  sectionFreshness,
  SLO_DAYS,
  SLO_TARGET,
  studyCtr,
  type Engine,
  type Opportunity,
  type Provider,
} from "../../analyzer/index.ts";
import type { Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { ENGINE_PROVIDER, freshnessOf, stateAndNote, usedOf } from "./search-freshness.ts";
import { ownSite } from "./search-imports.ts";
import { ownGaps, ownIndexing } from "./search-indexing-own.ts";
import { assertSectionOn, sourcesOff } from "./search-sources.ts";

// The search operations over imported data (search-data-anchors §9). Each answers an
// empty, explained result (data_state missing and a note) when nothing feeding it was imported.

const DAY = 86_400;
const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Unix seconds of a day's start (UTC). */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

function dayOf(unix: number): string {
  return new Date(unix * 1000).toISOString().slice(0, 10);
}

const NEEDS_QUERIES = "No search queries imported: upload a GSC Performance export (Queries) or a Yandex Webmaster query analytics CSV with POST /imports/{host}.";

export const listSearchQueries = implement(contracts.listSearchQueries, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "list_search_queries");
  const { rows, total, periodStart, periodEnd } = await repos.search.queriesPage(auth!.accountId, params.host, query.engine ?? null, query.limit, query.offset);
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, { kinds: ["performance"], ...(query.engine ? { providers: [ENGINE_PROVIDER[query.engine]] } : {}) });
  return {
    body: {
      host: params.host,
      ...stateAndNote(fresh, total > 0, NEEDS_QUERIES),
      period: total > 0 && (periodStart !== null || periodEnd !== null) ? { start: periodStart, end: periodEnd } : null,
      queries: rows.map((r) => ({
        engine: r.engine,
        query: r.key,
        clicks: r.clicks,
        clicks_prev: r.prev_clicks,
        impressions: r.impressions,
        ctr: r.impressions > 0 ? round2((100 * r.clicks) / r.impressions) : null,
        position: r.impressions > 0 && r.pos_x_impr > 0 ? round1(r.pos_x_impr / r.impressions) : null,
        position_prev: r.prev_impressions && r.prev_pos_x_impr ? round1(r.prev_pos_x_impr / r.prev_impressions) : null,
      })),
      page: page(query.limit, query.offset, total),
    },
  };
});

/** Every opportunity of the site's newest exports, largest gain first, with the curve's source. */
export async function opportunitiesOf(repos: Pick<Repositories, "search">, accountId: number, host: string, engine?: Engine): Promise<{ list: Opportunity[]; ctrSource: "measured" | "study"; rows: number }> {
  // Query rows under 100 impressions make no near or ctr opportunity: they stay in the database,
  // and reach the curve only through its per-rank sums.
  const rows = (await repos.search.latestPeriod(accountId, host, ["query", "query_page"], 100)).filter((r) => engine === undefined || r.engine === engine);
  const ranks = await repos.search.ctrByRank(accountId, host);
  const sums = (dim: string) => rows.filter((r) => r.dim === dim).map((r) => ({ engine: r.engine, query: r.key, page: r.key2, clicks: r.clicks, impressions: r.impressions, posXImpr: r.pos_x_impr }));
  const queries = sums("query");
  const list: Opportunity[] = [];
  let ctrSource: "measured" | "study" = "study";
  for (const e of ["google", "yandex"] as const) {
    const mine = queries.filter((q) => q.engine === e);
    // One curve per engine: Yandex and Google click differently (reference §6.2).
    const curve = ctrCurve(ranks.filter((r) => r.engine === e).map((r) => ({ clicks: r.clicks, impressions: r.impressions, position: r.rank })));
    if (curve.source === "measured") ctrSource = "measured";
    list.push(...nearOpportunities(mine, curve), ...ctrOpportunities(mine, curve), ...cannibalization(sums("query_page").filter((r) => r.engine === e), curve));
  }
  // Code-unit order on ties: localeCompare (ICU) costs seconds over 100,000 opportunities.
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  list.sort((a, b) => b.expected_gain_clicks - a.expected_gain_clicks || cmp(a.query, b.query) || cmp(a.kind, b.kind));
  return { list, ctrSource, rows: rows.length + ranks.length };
}

export const listSearchOpportunities = implement(contracts.listSearchOpportunities, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "list_search_opportunities");
  const { list, ctrSource, rows } = await opportunitiesOf(repos, auth!.accountId, params.host, query.engine);
  const chosen = query.kind ? list.filter((o) => o.kind === query.kind) : list;
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, { kinds: ["performance"], ...(query.engine ? { providers: [ENGINE_PROVIDER[query.engine]] } : {}) });
  return {
    body: {
      host: params.host,
      ...stateAndNote(fresh, rows > 0, NEEDS_QUERIES),
      ctr_source: ctrSource,
      opportunities: chosen.slice(query.offset, query.offset + query.limit).map((o) => ({ ...o, ...(o.pages ? { pages: [...o.pages] } : {}) })),
      page: page(query.limit, query.offset, chosen.length),
    },
  };
});

/** A dated series without gaps from its first to its last day; a day missing from the export is 0 clicks. */
function contiguous(points: readonly { day: string; clicks: number }[]): { start: string; y: number[] } | null {
  if (points.length === 0) return null;
  const start = dayStart(points[0]!.day);
  const end = dayStart(points.at(-1)!.day);
  const y = new Array<number>(Math.round((end - start) / DAY) + 1).fill(0);
  for (const p of points) y[Math.round((dayStart(p.day) - start) / DAY)] = p.clicks;
  return { start: points[0]!.day, y };
}

const NEEDS_DAILY = "No daily clicks imported: upload a GSC Performance export with its Chart (Dates) table, or a Yandex Webmaster query analytics CSV, with POST /imports/{host}.";

/**
 * The forecast's note: why there is none (too few days for the horizon from today, or data too
 * old to forecast from), after the freshness note when the data are stale or expired.
 */
function forecastNote(freshNote: string | null, n: number, lead: number, expired: boolean, forecast: boolean): string | null {
  const why = forecast
    ? null
    : expired
      ? `No forecast: the newest day is ${lead} days before today, and a forecast from today would have to bridge them without data.`
      : `Only ${n} days of daily clicks imported; a forecast of the 14 days from today, ${lead} day${lead === 1 ? "" : "s"} after the newest, needs ${daysNeeded(lead)}.`;
  const parts = [freshNote, why].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(" ") : null;
}

export const getTrafficForecast = implement(contracts.getTrafficForecast, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, now }) => {
  const accountId = auth!.accountId;
  await ownSite(repos, accountId, params.host);
  assertSectionOn(deps, "get_traffic_forecast");
  const totals = await repos.search.dailyTotals(accountId, params.host);
  const byEngine = (e: Engine) => totals.filter((t) => t.engine === e);
  const engine: Engine | null = totals.length === 0 ? null : byEngine("google").length >= byEngine("yandex").length ? "google" : "yandex";
  const series = engine ? contiguous(byEngine(engine)) : null;
  const { list } = await opportunitiesOf(repos, accountId, params.host);
  const ranks = await repos.search.rankChecks(accountId, params.host, "0000-00-00");
  const newest = new Map<string, (typeof ranks)[number]>();
  for (const r of ranks) newest.set(`${r.engine}|${r.region}|${r.device}|${r.keyword}`, r);
  const withVolume = [...newest.values()].filter((r) => r.volume !== null && r.position !== null);
  const estimate = withVolume.length > 0 ? { monthly_clicks: Math.round(withVolume.reduce((a, r) => a + (r.volume as number) * studyCtr(r.position as number), 0)), keywords: withVolume.length } : null;
  const n = series?.y.length ?? 0;
  const startUnix = series ? dayStart(series.start) : 0;
  const lastUnix = startUnix + (n - 1) * DAY;
  // The series is what was used: its engine's provider and its own last day decide its freshness.
  const fresh = sectionFreshness(series && engine ? [{ provider: ENGINE_PROVIDER[engine], until: dayOf(lastUnix), importedAt: now }] : [], now);
  // The forecast starts today: `lead` days after the newest day (tomorrow when the data reach today).
  const lead = Math.max(1, Math.round((dayStart(dayOf(now)) - lastUnix) / DAY));
  const expired = fresh.state === "expired";
  const f = series && !expired ? forecastClicks(series.y, lead) : null;
  const trend = series ? clicksTrend(series.y) : null;
  const last28 = series ? series.y.slice(-28) : [];
  const shift = f?.shift ?? trend?.shift ?? null;
  return {
    body: {
      host: params.host,
      data_state: series ? fresh.state : "missing",
      note: series ? forecastNote(fresh.note, n, lead, expired, f !== null) : NEEDS_DAILY,
      source: engine === null ? null : engine === "google" ? "gsc" : "yandex",
      days: n,
      data_until: series ? dayOf(lastUnix) : null,
      real_monthly_organic: series ? Math.round((last28.reduce((a, b) => a + b, 0) * 30) / 28) : null,
      verdict: trend ? trend.verdict : "insufficient_data",
      level_shift: shift && series ? { date: dayOf(startUnix + shift.index * DAY), change_pct: shift.pct } : null,
      forecast: f
        ? {
            model: f.model,
            mase: f.mase,
            trend_pct_week: f.trend_pct_week,
            days: f.days.map((d) => ({ date: dayOf(lastUnix + d.ahead * DAY), clicks: d.clicks, low: d.low, high: d.high })),
            unusual_days: f.unusual.map((u) => ({ date: dayOf(startUnix + u.index * DAY), clicks: series!.y[u.index] ?? 0, expected: u.expected, z: u.z, direction: u.direction })),
          }
        : null,
      estimate,
      potential: list.length > 0 ? list.reduce((a, o) => a + o.expected_gain_clicks, 0) : null,
    },
  };
});

export const listBacklinks = implement(contracts.listBacklinks, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "list_backlinks");
  const { rows, total } = await repos.search.backlinks(auth!.accountId, params.host, query.state, query.limit, query.offset);
  const any = total > 0 || (await repos.search.backlinks(auth!.accountId, params.host, query.state === "live" ? "lost" : "live", 1, 0)).total > 0;
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, { kinds: ["backlinks"] });
  return {
    body: {
      host: params.host,
      state: query.state,
      ...stateAndNote(fresh, any, "No backlinks imported: upload an Ahrefs or Semrush backlinks export, or GSC Latest links, with POST /imports/{host}."),
      links: rows.map((r) => ({
        source: r.source_url,
        target: r.target_url,
        anchor: r.anchor,
        nofollow: r.nofollow,
        source_rating: r.source_rating,
        rating_scale: r.rating_scale,
        first_seen: r.first_seen ? dayStart(r.first_seen) : null,
        lost_at: r.lost_at ? dayStart(r.lost_at) : null,
        provider: r.provider,
      })),
      page: page(query.limit, query.offset, total),
    },
  };
});

export const getIndexing = implement(contracts.getIndexing, { repos: ["crawlPages", "crawls", "robots", "runs", "search", "sites"] }, async ({ auth, repos, deps, params, now }) => {
  const accountId = auth!.accountId;
  await ownSite(repos, accountId, params.host);
  assertSectionOn(deps, "get_indexing");
  const [points, issues, urls, own, fresh] = await Promise.all([
    repos.search.indexPoints(accountId, params.host),
    repos.search.indexIssues(accountId, params.host),
    repos.search.indexUrls(accountId, params.host),
    ownIndexing(repos, params.host, now),
    freshnessOf(repos, accountId, params.host, now, { kinds: ["indexing"] }),
  ]);
  const gPoints = points.filter((p) => p.engine === "google");
  const gIssues = issues.filter((i) => i.engine === "google");
  const gUrls = urls.filter((u) => u.engine === "google");
  const yUrls = urls.filter((u) => u.engine === "yandex");
  const lastPoint = gPoints.at(-1);
  const google =
    gPoints.length + gIssues.length + gUrls.length > 0
      ? {
          indexed: lastPoint?.indexed ?? null,
          not_indexed: lastPoint?.not_indexed ?? null,
          updated: lastPoint?.day ?? null,
          points: gPoints.map((p) => ({ date: p.day, indexed: p.indexed, not_indexed: p.not_indexed })),
          issues: gIssues.map((i) => ({ reason: i.reason, pages: i.pages, source: i.source, validation: i.validation })),
          urls_not_indexed: gUrls.length,
        }
      : null;
  const reasons = new Map<string, number>();
  for (const u of yUrls) if (u.status !== "searchable") reasons.set(u.reason, (reasons.get(u.reason) ?? 0) + 1);
  const yandex =
    yUrls.length > 0
      ? {
          searchable: yUrls.filter((u) => u.status === "searchable").length,
          excluded: yUrls.filter((u) => u.status !== "searchable").length,
          reasons: [...reasons].map(([reason, pages]) => ({ reason, pages })).sort((a, b) => b.pages - a.pages || a.reason.localeCompare(b.reason)),
        }
      : null;
  const googleOut = new Set(gUrls.map((u) => u.url));
  const notInGoogle = yUrls.filter((u) => u.status === "searchable" && googleOut.has(u.url)).map((u) => u.url);
  const inNeither = yUrls.filter((u) => u.status !== "searchable" && googleOut.has(u.url)).map((u) => u.url);
  const actions = [
    ...gIssues.filter((i) => i.pages > 0).map((i) => ({ engine: "google" as const, reason: i.reason, pages: i.pages })),
    ...(yandex?.reasons ?? []).map((r) => ({ engine: "yandex" as const, reason: r.reason, pages: r.pages })),
  ]
    .sort((a, b) => b.pages - a.pages || a.reason.localeCompare(b.reason))
    .slice(0, 10);
  const parts = [
    google ? `Google: ${google.indexed ?? "?"} indexed, ${google.not_indexed ?? "?"} not indexed${google.updated ? ` (${google.updated})` : ""}` : null,
    yandex ? `Yandex: ${yandex.searchable} in search, ${yandex.excluded} excluded` : null,
  ].filter((p): p is string => p !== null);
  const has = google !== null || yandex !== null;
  return {
    body: {
      host: params.host,
      ...stateAndNote(fresh, has, "No indexing data imported: upload a GSC Page indexing ZIP or a Yandex Webmaster pages-in-search CSV with POST /imports/{host}."),
      run: own.view?.run ?? null,
      google,
      yandex,
      own: own.view,
      robots_ts: own.robotsTs,
      gaps: { not_in_google: notInGoogle.slice(0, 100), in_neither: inNeither.slice(0, 100), ...ownGaps(own, gUrls, yUrls) },
      actions,
      summary: has ? `${parts.join("; ")}.` : "No indexing data imported yet.",
    },
  };
});

export const listProviders = implement(contracts.listProviders, { repos: ["search"] }, async ({ auth, repos, deps, query, now }) => {
  const batches = await repos.search.batchesOfAccount(auth!.accountId);
  const off = sourcesOff(deps);
  const providers = PROVIDERS.filter((p) => query.all === 1 || off.has(p) || batches.some((b) => b.provider === p)).map((provider: Provider) => {
    const mine = batches.filter((b) => b.provider === provider);
    // Undated exports (a GSC Queries table alone, backlinks) count as of the day they were imported.
    const { state, until: untilOrImport } = providerFreshness(provider, mine.map(usedOf), now);
    const last = mine.at(-1);
    const fresh = freshDays30(mine.map((b) => ({ importedAt: b.imported_at, dataUntil: b.period_end ? dayStart(b.period_end) : dayStart(dayOf(b.imported_at)) })), provider, now);
    return {
      provider,
      enabled: !off.has(provider),
      state,
      slo_days: SLO_DAYS[provider],
      sites: [...new Set(mine.map((b) => b.host))].sort(),
      imports: mine.length,
      last_import_at: last?.imported_at ?? null,
      data_until: untilOrImport,
      rows: mine.reduce((a, b) => a + b.rows, 0),
      fresh_days_30: fresh,
      slo_met: fresh / 30 >= SLO_TARGET,
    };
  });
  return { body: { data_states: [...DATA_STATES], slo_days: { ...SLO_DAYS }, slo_target: SLO_TARGET, providers } };
});

export const searchHandlers = [listSearchQueries, listSearchOpportunities, getTrafficForecast, listBacklinks, getIndexing, listProviders];
