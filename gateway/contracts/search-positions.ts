import { Type } from "@sinclair/typebox";
import { DATA_STATES } from "../../analyzer/index.ts";
import { HostParams, Nullable, PageEnvelope, StringEnum, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

// Tracked positions from imported rank-tracker data (Topvisor, Keys.so monitoring).
// Without rank checks: 200, empty lists, data_state missing and a note naming the import.

const DataState = StringEnum([...DATA_STATES]);
const Note = Nullable(Type.String({ description: "Why the answer is empty or partial, and which import would fill it" }));
const Trend = StringEnum(["down", "up", "lost"]);

export const listPositions = defineContract({
  id: "list_positions",
  method: "GET",
  path: "/positions/{host}",
  scope: "read",
  cli: "positions",
  summary: "Tracked keyword positions of a site from imported rank-tracker data",
  description:
    "One entry per keyword × engine × region × device: its latest check (checked, position, page), the check before it (previous), the check nearest a week before (week_ago, within ±3 days), " +
    "change_week = week_ago − position (positive = up; not found counts as 101), best = the best position of the 90 days before the latest check. " +
    "trend: lost = found a week before and not found now; down = change_week < 0; up = change_week > 0; null otherwise. The trend parameter keeps only that trend. " +
    "Without imported rank checks: 200 with an empty list, data_state missing and a note.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, { trend: Type.Optional(Trend) }),
  response: Type.Object(
    {
      host: Type.String(),
      trend: Nullable(Trend),
      data_state: DataState,
      note: Note,
      keywords: Type.Array(
        Type.Object(
          {
            query: Type.String(),
            engine: Type.String(),
            device: Type.String(),
            region: Type.Integer({ description: "Yandex geo id (213 Moscow, 2 St Petersburg, 225 Russia)" }),
            group: Type.String(),
            position: Nullable(Type.Integer({ description: "null: not found within the tracked depth" })),
            previous: Nullable(Type.Integer()),
            week_ago: Nullable(Type.Integer()),
            change_week: Nullable(Type.Integer()),
            best: Nullable(Type.Integer()),
            page: Nullable(Type.String()),
            checked: Type.String({ format: "date" }),
            trend: Nullable(Trend),
            volume: Nullable(Type.Integer()),
          },
          { additionalProperties: false },
        ),
      ),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
});

export const getPositionPages = defineContract({
  id: "get_position_pages",
  method: "GET",
  path: "/positions/{host}/pages",
  scope: "read",
  cli: "positions pages",
  summary: "The site's ranking pages and cannibalization",
  description:
    "pages: URLs of the latest rank checks with their keywords, mean position, top-3 and top-10 counts and Σ volume (of the keywords that have one; null when none has), most keywords first. " +
    "cannibalization: keywords whose ranking URL changed at least twice within the last 14 days of checks (source flips), and queries split between URLs in imported query×URL data (source shares: ≥ 2 URLs each with ≥ 10 % of impressions, best position ≤ 20). " +
    "Without imported data: 200 with empty lists, data_state missing and a note.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      data_state: DataState,
      note: Note,
      pages: Type.Array(
        Type.Object({ url: Type.String(), keywords: Type.Integer(), avg_position: Type.Number(), top3: Type.Integer(), top10: Type.Integer(), volume: Nullable(Type.Integer({ description: "Σ of the keywords' known volumes; null when none has a volume" })) }, { additionalProperties: false }),
      ),
      cannibalization: Type.Array(
        Type.Object(
          {
            query: Type.String(),
            engine: Type.String(),
            source: StringEnum(["flips", "shares"]),
            urls: Type.Array(Type.String()),
            changes: Nullable(Type.Integer({ description: "URL changes within 14 days (flips)" })),
            expected_gain_clicks: Nullable(Type.Integer({ description: "shares: as in /opportunities" })),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
});

export const getSerpVolatility = defineContract({
  id: "get_serp_volatility",
  method: "GET",
  path: "/positions/{host}/volatility",
  scope: "read",
  cli: "positions volatility",
  summary: "How much the site's tracked positions moved each day, beside the market",
  description:
    "With imported SERP snapshots (Topvisor snapshots_2 history), method rank_distance: for each tracked query and day with a top-10 list on the day before too, D = Σ |rank today − rank the day before| over the entries of either list (an absent entry ranks 11; an entry is a domain and its occurrence in the list), shake = 100 · D / 110 (110: all ten entries changed); " +
    "site_pct = the mean shake of the site's queries that day, market_pct = the median shake over every query in this installation tracked on the same engine, region and device as the site's (an aggregate), market_median_pct = the median of market_pct over the days; the window ends at the site's latest snapshot; shakes list the site's queries whose own rank moved ≥ 5 (absent = 101). " +
    "Svc uses the reference's fallback measure (method moved_share) without SERP snapshots, and when the snapshots measure fewer days of the window than the daily rank checks do (weekly snapshots measure none): the note then says so. " +
    "moved_share: site_pct = the share (%) of the site's tracked keywords whose position changed by ≥ 3 since the day before or that entered or left the tracked depth; " +
    "market_pct = the same share over every tracked keyword of the same engine in this installation (an aggregate: no other site is revealed); market_median_pct = the median of market_pct over the days. " +
    "The window ends at the newest day of the data used (snapshots or checks); data_state is that data's age against its provider's slo_days, as GET /providers judges it. shakes: days whose market_pct exceeds both 2 × market_median_pct and the window's 90th percentile, each with the site's keywords that moved ≥ 5 places. " +
    "Without imported rank checks: 200 with empty lists, market_median_pct null, data_state missing and a note.",
  tags: ["Search data"],
  errors: ["bad_host", "not_found", "service_off"],
  params: HostParams,
  query: Type.Object({ days: Type.Integer({ minimum: 7, maximum: 90, default: 30 }) }, { additionalProperties: false }),
  response: Type.Object(
    {
      host: Type.String(),
      days: Type.Integer(),
      data_state: DataState,
      note: Note,
      method: StringEnum(["moved_share", "rank_distance"], { description: "rank_distance: from SERP snapshots (the top-10 lists' rank distance); moved_share: the fallback without them" }),
      market_median_pct: Nullable(Type.Number()),
      series: Type.Array(Type.Object({ date: Type.String({ format: "date" }), site_pct: Nullable(Type.Number()), market_pct: Nullable(Type.Number()) }, { additionalProperties: false })),
      shakes: Type.Array(
        Type.Object(
          {
            date: Type.String({ format: "date" }),
            market_pct: Type.Number(),
            keywords: Type.Array(Type.Object({ query: Type.String(), from: Nullable(Type.Integer()), to: Nullable(Type.Integer()) }, { additionalProperties: false })),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
});
