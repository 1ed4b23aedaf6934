import { Type } from "@sinclair/typebox";
import { DATA_STATES, PROVIDERS } from "../../analyzer/index.ts";
import { HostParams, Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

// The search operations computed from imported exports (search-data-anchors §9).
// Without imported data each answers 200 with empty lists, data_state "missing" and a note saying
// which import feeds it: an empty, explained answer, never estimated numbers. An account's imports
// are its own: every read is filtered by the caller's account (owner-only, as the spec asks of
// indexing and market, is applied to all of them).

const Engine = StringEnum(["google", "yandex"]);
const DataState = StringEnum([...DATA_STATES], { description: "missing: nothing imported that feeds this answer (see note)" });
const Note = Nullable(Type.String({ description: "Why the answer is empty or partial, and which import would fill it" }));
const Period = Nullable(
  Type.Object({ start: Nullable(Type.String({ format: "date" })), end: Nullable(Type.String({ format: "date" })) }, { additionalProperties: false, description: "The days the answer's data covers" }),
);
const EMPTY = "Without imported data: 200 with empty lists, data_state missing and a note naming the export that feeds it.";

export const listSearchQueries = defineContract({
  id: "list_search_queries",
  method: "GET",
  path: "/queries/{host}",
  scope: "read",
  cli: "queries",
  summary: "Search queries of a site from its imported GSC or Yandex Webmaster exports, most clicks first",
  description:
    "From the newest imported export per engine: GSC Performance Queries (with clicks_prev and position_prev from Compare mode) or Yandex query analytics (summed over its days). " +
    "CTR and position are recomputed from sums (clicks ÷ impressions; Σ position × impressions ÷ Σ impressions), never averaged. clicks_prev and position_prev are null without a Compare-mode export. " +
    EMPTY,
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, { engine: Type.Optional(Engine) }),
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      note: Note,
      period: Period,
      queries: Type.Array(
        Type.Object(
          {
            engine: Engine,
            query: Type.String(),
            clicks: Type.Integer(),
            clicks_prev: Nullable(Type.Integer()),
            impressions: Type.Integer(),
            ctr: Nullable(Type.Number({ description: "Percent, 2 decimals" })),
            position: Nullable(Type.Number({ description: "Impression-weighted, 1 decimal" })),
            position_prev: Nullable(Type.Number()),
          },
          { additionalProperties: false },
        ),
      ),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
});

export const listSearchOpportunities = defineContract({
  id: "list_search_opportunities",
  method: "GET",
  path: "/opportunities/{host}",
  scope: "read",
  cli: "opportunities",
  summary: "Search opportunities of a site (near, ctr, cannibalization), largest expected gain first",
  description:
    "near: position 4–15 (Yandex 4–20), at least 100 impressions; gain = impressions × max(0, expected CTR at 3 − CTR). " +
    "ctr: position ≤ 10, at least 500 impressions, expected CTR at the position exceeds the actual by more than 1 pp; gain = impressions × that gap. " +
    "cannibalization: at least two URLs each with ≥ 10 % of a query's impressions, best position ≤ 20, ≥ 50 impressions (needs query×URL rows: Yandex query analytics); gain = impressions × max(0, expected CTR at the best position − CTR). " +
    "Expected CTR is the site's own (Σ clicks ÷ Σ impressions at a rounded position with ≥ 100 impressions; ctr_source measured) or the Sistrix 2020 curve (study). " +
    EMPTY,
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, { engine: Type.Optional(Engine), kind: Type.Optional(StringEnum(["near", "ctr", "cannibalization"])) }),
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      note: Note,
      ctr_source: StringEnum(["measured", "study"]),
      opportunities: Type.Array(
        Type.Object(
          {
            kind: StringEnum(["near", "ctr", "cannibalization"]),
            engine: Engine,
            query: Type.String(),
            impressions: Type.Integer(),
            clicks: Type.Integer(),
            position: Type.Number(),
            expected_gain_clicks: Type.Integer({ description: "Over the export's period" }),
            pages: Type.Optional(Type.Array(Type.Object({ url: Type.String(), share: Type.Number(), position: Type.Number() }, { additionalProperties: false }))),
          },
          { additionalProperties: false },
        ),
      ),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
});

const ForecastDaySchema = Type.Object({ date: Type.String({ format: "date" }), clicks: Type.Integer(), low: Type.Integer(), high: Type.Integer() }, { additionalProperties: false });

export const getTrafficForecast = defineContract({
  id: "get_traffic_forecast",
  method: "GET",
  path: "/traffic/{host}",
  scope: "read",
  cli: "traffic",
  summary: "Organic clicks of a site: the last 28 days, a 14-day forecast with its range, trend and unusual days",
  description:
    "source: gsc (GSC Chart/Dates daily totals) or yandex (Yandex query analytics summed per day), whichever has more days. days: the daily points used. real_monthly_organic = Σ clicks of the last 28 days × 30/28. " +
    "data_state: the age of the series' newest day (data_until) against its provider's slo_days, as GET /providers judges it; a note says so when stale or expired. " +
    "forecast: the 14 days from today (from tomorrow when the data reach today): seasonal naive (the last observed week, repeated) or additive damped Holt-Winters on log1p(clicks), chosen by MASE over a rolling-origin backtest (8 origins) at the same distance from the data's end as the days forecast; low/high are the point moved by the 5th/95th percentile of the backtest's log errors in the same week ahead. " +
    "null with a note when the data are expired (the gap to today would be bridged without data) or when there are too few days for that horizon (28 when the data end yesterday, one more per day of lag). " +
    "level_shift: a sustained change of level (at least 7 days, at least ≈16 %, far beyond the day-to-day spread), found before unusual days: the days before it are moved to the new level before fitting, so the forecast starts from the new level. " +
    "Unusual days: |robust z| > 3.5 of log1p(clicks) against the median of the same weekday (the spread taken as at least 0.05); they are replaced by that median before fitting. verdict: growing/declining/flat at ±5 % over 4 weeks of weekly totals as observed (a level shift counts); insufficient_data below 28 days. " +
    "estimate: Σ volume × expected CTR(position) over the newest rank checks with a volume (no-console fallback), null without them. potential: Σ expected gains of the open opportunities. " +
    EMPTY,
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      note: Note,
      source: Nullable(StringEnum(["gsc", "yandex"])),
      days: Type.Integer({ minimum: 0 }),
      data_until: Nullable(Type.String({ format: "date", description: "The newest day of the series" })),
      real_monthly_organic: Nullable(Type.Integer()),
      verdict: StringEnum(["growing", "declining", "flat", "insufficient_data"]),
      level_shift: Nullable(
        Type.Object(
          { date: Type.String({ format: "date", description: "The first day at the new level" }), change_pct: Type.Number({ description: "The change of level, % of the old one" }) },
          { additionalProperties: false },
        ),
      ),
      forecast: Nullable(
        Type.Object(
          {
            model: StringEnum(["seasonal_naive", "holt_winters"]),
            mase: Type.Object({ seasonal_naive: Type.Number(), holt_winters: Type.Number() }, { additionalProperties: false }),
            trend_pct_week: Type.Number(),
            days: Type.Array(ForecastDaySchema),
            unusual_days: Type.Array(Type.Object({ date: Type.String({ format: "date" }), clicks: Type.Integer(), expected: Type.Integer(), z: Type.Number(), direction: StringEnum(["drop", "spike"]) }, { additionalProperties: false })),
          },
          { additionalProperties: false },
        ),
      ),
      estimate: Nullable(Type.Object({ monthly_clicks: Type.Integer(), keywords: Type.Integer() }, { additionalProperties: false })),
      potential: Nullable(Type.Integer({ description: "Clicks over the opportunities' export period" })),
    },
    { additionalProperties: false },
  ),
});

export const listBacklinks = defineContract({
  id: "list_backlinks",
  method: "GET",
  path: "/backlinks/{host}",
  scope: "read",
  cli: "backlinks",
  summary: "Backlinks of a site from imported Ahrefs, Semrush or GSC link exports",
  description:
    "One link per (source, target, anchor), from the newest import that has it. live: not lost; lost: the export gave a lost date (Ahrefs Lost, Semrush Lost link). " +
    "nofollow is nofollow, ugc or sponsored. source_rating is on its tool's scale (rating_scale: ahrefs_dr, semrush_ascore); GSC links carry no rating, target or anchor. Live links are sorted by rating, lost ones by date lost. " +
    EMPTY,
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, { state: StringEnum(["live", "lost"], { default: "live" }) }),
  response: Type.Object(
    {
      host: Type.String(),
      state: StringEnum(["live", "lost"]),
      data_state: DataState,
      note: Note,
      links: Type.Array(
        Type.Object(
          {
            source: Type.String(),
            target: Type.String(),
            anchor: Type.String(),
            nofollow: Type.Boolean(),
            source_rating: Nullable(Type.Integer()),
            rating_scale: Nullable(Type.String()),
            first_seen: Nullable(UnixSeconds),
            lost_at: Nullable(UnixSeconds),
            provider: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
});

const IndexPoint = Type.Object({ date: Type.String({ format: "date" }), indexed: Nullable(Type.Integer()), not_indexed: Nullable(Type.Integer()) }, { additionalProperties: false });
const Reason = Type.Object({ reason: Type.String(), pages: Type.Integer(), source: Type.Optional(Type.String()), validation: Type.Optional(Type.String()) }, { additionalProperties: false });

export const getIndexing = defineContract({
  id: "get_indexing",
  method: "GET",
  path: "/indexing/{host}",
  scope: "read",
  cli: "indexing",
  summary: "Indexing of a site in Google and Yandex from imported exports, beside our own latest check",
  description:
    "google: GSC Page indexing Chart points and the newest issues (Reason, Source, Validation, Pages) and drill-down URLs. yandex: the newest status of each URL in the imported «Страницы в поиске» CSV, searchable and excluded counts and the excluded reasons (its status values). " +
    "A block is null when nothing of that engine was imported. own: Svc's own view, null before its first check: the latest run (id, when), the pages it found noindex (the latest analysis and crawl, first 100), the latest crawl's pages read (at most 10,000: truncated says when more exist), fetched with 200, noindex and listed in a sitemap, and the robots.txt version in force (when Svc first saw it, its HTTP status). " +
    "robots_ts: when the robots.txt in force was first seen (robots_versions), null before Svc read one. " +
    "gaps: not_in_google (in Yandex's search, listed not indexed by Google), in_neither (excluded by Yandex and not indexed by Google), and the engines' lists crossed with Svc's own: sitemap_not_indexed (in a sitemap per Svc's crawl, not indexed by an engine), noindex_in_search (Svc saw noindex, Yandex has the page in its search), ok_not_indexed (Svc's crawl fetched it with 200 and no noindex, an engine does not index it); each sorted, first 100. " +
    "data_state: the imports' newest day against each provider's slo_days, as GET /providers judges it. actions: the largest reasons to fix, by pages. Owner-only: only the caller's imports are read. " +
    EMPTY,
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      note: Note,
      run: Nullable(Type.Integer({ description: "Our latest check run of the site" })),
      google: Nullable(
        Type.Object(
          {
            indexed: Nullable(Type.Integer()),
            not_indexed: Nullable(Type.Integer()),
            updated: Nullable(Type.String({ format: "date" })),
            points: Type.Array(IndexPoint),
            issues: Type.Array(Reason),
            urls_not_indexed: Type.Integer({ description: "Drill-down URLs imported" }),
          },
          { additionalProperties: false },
        ),
      ),
      yandex: Nullable(
        Type.Object({ searchable: Type.Integer(), excluded: Type.Integer(), reasons: Type.Array(Reason) }, { additionalProperties: false }),
      ),
      own: Nullable(
        Type.Object(
          {
            run: Type.Integer(),
            checked_at: UnixSeconds,
            noindex: Type.Array(Type.String(), { description: "Pages Svc found noindex (first 100)" }),
            crawl: Nullable(
              Type.Object(
                { job: Type.Integer(), checked_at: UnixSeconds, pages_read: Type.Integer(), ok: Type.Integer(), noindex: Type.Integer(), in_sitemap: Type.Integer(), truncated: Type.Boolean() },
                { additionalProperties: false, description: "The latest crawl's pages; null when the host was never crawled" },
              ),
            ),
            robots: Nullable(Type.Object({ seen_at: UnixSeconds, status: Type.Integer() }, { additionalProperties: false, description: "The robots.txt version in force" })),
          },
          { additionalProperties: false },
        ),
      ),
      robots_ts: Nullable(UnixSeconds),
      gaps: Type.Object(
        {
          not_in_google: Type.Array(Type.String(), { description: "In Yandex's search but listed not indexed by Google (first 100)" }),
          in_neither: Type.Array(Type.String(), { description: "Excluded by Yandex and listed not indexed by Google (first 100)" }),
          sitemap_not_indexed: Type.Array(Type.String(), { description: "In a sitemap per Svc's crawl, not indexed by an engine (first 100)" }),
          noindex_in_search: Type.Array(Type.String(), { description: "Svc saw noindex; Yandex has the page in its search (first 100)" }),
          ok_not_indexed: Type.Array(Type.String(), { description: "Svc's crawl fetched it with 200 and no noindex; an engine does not index it (first 100)" }),
        },
        { additionalProperties: false },
      ),
      actions: Type.Array(Type.Object({ engine: Engine, reason: Type.String(), pages: Type.Integer() }, { additionalProperties: false })),
      summary: Type.String(),
    },
    { additionalProperties: false },
  ),
});

export const listProviders = defineContract({
  id: "list_providers",
  method: "GET",
  path: "/providers",
  scope: "read",
  cli: "providers",
  summary: "The data providers your imports came from, with the freshness of their data",
  description:
    "One entry per provider you imported from (all=1 adds the ones never used, as missing). state: fresh while the newest data day is at most slo_days old, stale up to 3 × slo_days, expired beyond, partial when the last import was truncated (GSC's 1,000-row cap). " +
    "slo_days per provider: gsc 4, gsc_indexing 14, yandex_webmaster 3, topvisor 2, keysso 35, ahrefs 35, semrush 35. fresh_days_30: days of the last 30 on which the data known then was fresh; slo_met compares its share with slo_target. " +
    "A provider pulled through its API is not offered on this installation (no outbound access): imports are uploads. " +
    "enabled (an extension) is false for a provider the administrator turned off (SVC_SEARCH_SOURCES_OFF): such a provider is always listed, its imports answer 503 service_off, and so does a section whose every provider is off.",
  tags: ["Search data"],
  query: Type.Object({ all: Type.Integer({ minimum: 0, maximum: 1, default: 0, description: "1 adds the providers never imported from" }) }, { additionalProperties: false }),
  response: Type.Object(
    {
      data_states: Type.Array(Type.String(), { description: "The states an entry can be in" }),
      slo_days: Type.Record(Type.String(), Type.Integer()),
      slo_target: Type.Number(),
      providers: Type.Array(
        Type.Object(
          {
            provider: StringEnum([...PROVIDERS]),
            enabled: Type.Boolean({ description: "Extension: false when the administrator turned this provider off (SVC_SEARCH_SOURCES_OFF); its imports and the sections reading only turned-off providers answer 503 service_off" }),
            state: DataState,
            slo_days: Type.Integer(),
            sites: Type.Array(Type.String()),
            imports: Type.Integer(),
            last_import_at: Nullable(UnixSeconds),
            data_until: Nullable(Type.String({ format: "date" })),
            rows: Type.Integer(),
            fresh_days_30: Type.Integer(),
            slo_met: Type.Boolean(),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
});
