import { Type } from "@sinclair/typebox";
import { DATA_STATES, MARKET_FILTERS } from "../../analyzer/index.ts";
import { HostParams, Nullable, PageEnvelope, StringEnum, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";

// Competitors, keyword gap and market from a market source's imported reports (Keys.so
// organic/concurents and organic/keywords JSON). Without them: 200, empty lists, data_state
// missing and a note naming the import. Owner-only like all search data.

const DataState = StringEnum([...DATA_STATES]);
const Note = Nullable(Type.String({ description: "Why the answer is empty or partial, and which import would fill it" }));
/** The spec's "two supported external data sources": Keys.so (imported today) and Serpstat (no importer yet). */
/**
 * The market sources Svc can read: those with an importer. The spec's "one of the two supported
 * external data sources" names neither; Serpstat (the reference's second) has no importer, so it is
 * not offered (docs/search-data.md says why).
 */
export const MARKET_SOURCES = ["keysso"] as const;

const CompetitorSchema = Type.Object(
  {
    domain: Type.String(),
    common_keywords: Nullable(Type.Integer()),
    similarity_pct: Nullable(Type.Number()),
    visibility: Nullable(Type.Number({ description: "The source's estimate of daily organic visitors" })),
    top10: Nullable(Type.Integer()),
    pages_in_index: Nullable(Type.Integer()),
  },
  { additionalProperties: false },
);

export const getCompetitors = defineContract({
  id: "get_competitors",
  method: "GET",
  path: "/competitors/{host}",
  scope: "read",
  cli: "competitors",
  summary: "The site's search competitors from an imported market report",
  description:
    "The newest imported competitor report (Keys.so organic/concurents) without the site itself, by similarity_pct × common_keywords. " +
    "Without one, from the site's imported SERP snapshots (Topvisor snapshots_2/history; source topvisor_snapshots): the other domains by the tracked queries whose newest snapshot of the last 90 days has them in the top 10 (top10 and common_keywords), similarity_pct = their share of the tracked queries, with a note saying so. " +
    "Without either: 200 with an empty list, data_state missing and a note.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      note: Note,
      source: Nullable(Type.String()),
      base: Nullable(Type.String({ description: "The source's regional base (Keys.so msk, spb, gru, …)" })),
      ts: Nullable(UnixSeconds),
      competitors: Type.Array(CompetitorSchema),
    },
    { additionalProperties: false },
  ),
});

const GapRow = Type.Object(
  {
    keyword: Type.String(),
    volume: Type.Integer({ description: "The source's exact-match frequency (Keys.so wsk)" }),
    my_pos: Nullable(Type.Integer()),
    my_url: Nullable(Type.String()),
    rival: Nullable(Type.String({ description: "The best-placed rival; null when no rival ranks (unique)" })),
    rival_pos: Nullable(Type.Integer()),
    url: Nullable(Type.String({ description: "The rival's ranking URL" })),
    rivals: Type.Integer({ description: "Rivals ranking (≤ 50)" }),
    gain: Type.Integer({ description: "Clicks a month at the best rival's position: volume × (CTR(rival_pos) − CTR(my_pos)), Sistrix curve" }),
  },
  { additionalProperties: false },
);

export const getKeywordGap = defineContract({
  id: "get_keyword_gap",
  method: "GET",
  path: "/keyword-gap/{host}",
  scope: "read",
  cli: "keyword-gap",
  summary: "Keywords rivals rank for and the site does not (missing), or ranks below them (behind)",
  description:
    "Over the imported keyword reports (Keys.so organic/keywords) of the site and its rivals in the newest base; a domain ranks for a keyword at position ≤ 50. Rivals: the newest competitor report's domains, else every other domain with keyword data. " +
    "missing: at least one rival ranks and the site does not, ordered by volume × the share of rivals ranking. behind: the site ranks and every rival ranking is ahead, or one is ahead by 3 places or more, ordered by gain. " +
    "Without keyword reports: 200 with no rows, data_state missing and a note.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  pageMax: 500,
  query: Type.Object(
    { kind: StringEnum(["missing", "behind"], { default: "missing" }), limit: Type.Integer({ minimum: 1, maximum: 500, default: 100, description: "Rows, 1-500" }) },
    { additionalProperties: false },
  ),
  response: Type.Object({ host: Type.String(), kind: StringEnum(["missing", "behind"]), data_state: DataState, note: Note, total: Type.Integer(), rows: Type.Array(GapRow) }, { additionalProperties: false }),
});

export const getMarket = defineContract({
  id: "get_market",
  method: "GET",
  path: "/market/{host}",
  scope: "read",
  cli: "market",
  summary: "The site's market from its own imported market reports: domains, overlap, filters and opportunities",
  description:
    "src chooses the source among those with an importer: keysso (Keys.so reports imported); by default the source with the newest import. A second market source is offered once it has an importer. " +
    "mine: the site's keywords and top-10 count from its own keyword report, and visibility from the competitor report's row of the site itself (null, with a note, when the report has none). data_state: the report's import day against the provider's slo_days, as GET /providers judges it; notes say when stale or expired. " +
    "Filters follow the Semrush gap vocabulary over keywords ranked ≤ 50: shared (the site and every rival), missing (every rival, not the site), behind (the site, below every rival ranking), strong (the site above every rival, all ranking), unique (only the site), theirs (a rival, not the site), all. " +
    "counts: keywords per filter. overlap: shared ÷ all keywords of the site and its rivals. opportunities: the keywords of the chosen filter with the clicks a month the site would gain at the best rival's position, largest first, paged (limit ≤ 100). " +
    "country: the base's market. Owner-only: only the caller's imports are read. Without imported reports: 200 with empty lists, data_state missing and a note.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  pageMax: 100,
  query: Type.Object(
    {
      src: Type.Optional(StringEnum([...MARKET_SOURCES])),
      filter: StringEnum([...MARKET_FILTERS], { default: "all" }),
      limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: "Page size, 1-100" }),
      offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
    },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      source: Nullable(StringEnum([...MARKET_SOURCES])),
      sources: Type.Array(Type.Object({ source: Type.String(), base: Type.String(), imported_at: UnixSeconds }, { additionalProperties: false })),
      filter: StringEnum([...MARKET_FILTERS]),
      mine: Nullable(Type.Object({ domain: Type.String(), keywords: Type.Integer(), top10: Type.Integer(), visibility: Nullable(Type.Number()) }, { additionalProperties: false })),
      country: Nullable(Type.Object({ base: Type.String(), engine: StringEnum(["yandex", "google"]), country: Nullable(Type.String()), region: Nullable(Type.String()) }, { additionalProperties: false })),
      ts: Nullable(UnixSeconds),
      domains: Type.Array(CompetitorSchema),
      rivals: Type.Array(Type.String()),
      overlap: Nullable(Type.Number({ description: "0-1" })),
      counts: Type.Record(Type.String(), Type.Integer()),
      notes: Type.Array(Type.String()),
      opportunities: Type.Array(GapRow),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
});

const ShareLine = Type.Object(
  {
    domain: Type.String(),
    shares: Type.Array(Nullable(Type.Number()), { description: "Share of voice (%) at each point of timeline, oldest first; null where the point is not valid" }),
    mean: Nullable(Type.Number({ description: "Mean share over the valid points" })),
    last: Nullable(Type.Number({ description: "Share at the newest valid point" })),
  },
  { additionalProperties: false },
);

export const getCompetitorHistory = defineContract({
  id: "get_competitor_history",
  method: "GET",
  path: "/competitors/{host}/history",
  scope: "read",
  cli: "competitors history",
  summary: "Share of voice of the site and its rivals over time, from imported SERP snapshots",
  description:
    "From imported rank-tracker SERP snapshots (Topvisor snapshots_2/history JSON): `points` points `step` days apart (7 or 30), the newest at the site's latest snapshot; each tracked query counts with the last snapshot of each step. " +
    "At a point, a domain's share of voice = Σ w·CTR(its best rank) ÷ Σ w·CTR(1) over the queries checked then, in %, with the Sistrix 2020 CTR curve (CTR 0 when the domain is not in the list); " +
    "w = the query's tracked volume when every query has one (rank checks imported with volumes), else 1 (weights says which). " +
    "checked_queries: the tracked queries with a snapshot in the span; a point is valid when at least 80 % of them were checked in its step (valid_points counts them); shares of other points are null. " +
    "days: points × step. my_share: the site's line; rivals: the other domains with the highest mean share (≤ 10); movers: domains by |share at the last valid point − share at the first| (≤ 10, ≥ 2 valid points). " +
    "Owner-only: only the caller's imports are read. Without snapshots: 200 with empty lists, data_state missing and a note. timeline and weights are extensions.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  query: Type.Object(
    {
      points: Type.Integer({ minimum: 2, maximum: 26, default: 12, description: "Points, 2-26" }),
      step: Type.Integer({ enum: [7, 30], default: 7, description: "Days between points: 7 or 30" }),
    },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      note: Note,
      step_days: Type.Integer(),
      days: Type.Integer({ description: "points × step_days" }),
      valid_points: Type.Integer(),
      checked_queries: Type.Integer(),
      weights: StringEnum(["volume", "equal"]),
      timeline: Type.Array(Type.Object({ date: Type.String({ format: "date" }), checked: Type.Integer(), valid: Type.Boolean() }, { additionalProperties: false })),
      my_share: ShareLine,
      rivals: Type.Array(ShareLine),
      movers: Type.Array(
        Type.Object({ domain: Type.String(), first: Type.Number(), last: Type.Number(), change: Type.Number({ description: "Percentage points, last − first" }) }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false },
  ),
});
