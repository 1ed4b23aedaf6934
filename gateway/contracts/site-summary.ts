import { Type } from "@sinclair/typebox";
import { HostParams, Nullable, StringEnum, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";
import { EventSchema } from "./monitoring.ts";
import { TaskSchema } from "./tasks.ts";

// baseline and master_index: the spec names them and shows nothing of what they hold, and no data
// Svc keeps defines them; they answer null rather than an invented figure.
const Pending = Nullable(Type.Object({}, { additionalProperties: true, description: "Always null: the contract names this block without its content, and Svc holds no data that defines it" }));

const SearchSummary = Nullable(
  Type.Object(
    {
      imports: Type.Integer({ description: "Your live imports of the host" }),
      source: Nullable(StringEnum(["gsc", "yandex"])),
      data_state: StringEnum(["fresh", "stale", "expired", "partial", "missing"], { description: "The daily clicks' age against their provider's slo_days, as GET /providers judges it; missing without daily clicks" }),
      data_until: Nullable(Type.String({ format: "date" })),
      real_monthly_organic: Nullable(Type.Integer()),
      verdict: StringEnum(["growing", "declining", "flat", "insufficient_data"]),
    },
    { additionalProperties: false, description: "Your search data of the host at a glance, as GET /traffic/{host} computes it; null when you imported none" },
  ),
);

const WatchdogChangeSchema = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    field: Type.Union(["status", "title", "description", "robots", "canonical", "h1", "content"].map((f) => Type.Literal(f)), {
      description: "The element that changed; content is the visible text (before and after give the body sizes)",
    }),
    before: Type.String(),
    after: Type.String(),
    level: Type.Union(["good", "warn", "bad", "info"].map((l) => Type.Literal(l))),
    at: UnixSeconds,
  },
  { additionalProperties: false },
);

const WatchedPageSchema = Type.Object(
  {
    url: Type.String(),
    status: Nullable(Type.Integer({ description: "The HTTP status at the last analysis; null before the page was first fetched" })),
    title: Nullable(Type.String()),
    checked_at: Nullable(UnixSeconds),
    changed_at: Nullable(UnixSeconds),
  },
  { additionalProperties: false },
);

export const getSite = defineContract({
  id: "get_site",
  method: "GET",
  path: "/site/{host}",
  scope: "read",
  cli: "site",
  summary: "One site at a glance: rank, statistics, your open tasks and recent events",
  description: "search: your imported search data of the host at a glance (GET /traffic/{host}), null when you imported none. baseline and master_index are always null: the contract names them without their content and Svc holds no data that defines them. crawl is null until the host is crawled; uptime, watchdog_changes and watched_pages are null when you do not monitor the host (docs/monitoring.md, Watchdog).",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      rank: Type.Object(
        {
          value: Type.Integer(),
          label: Type.String(),
          groups: Type.Array(Type.Object({ id: Type.String(), weight: Type.Number(), score: Nullable(Type.Number()), checks: Type.Integer() }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
      search: SearchSummary,
      baseline: Pending,
      master_index: Pending,
      stats: Type.Object(
        { runs: Type.Integer(), first_checked: UnixSeconds, checks: Type.Integer(), failing: Type.Integer(), pages_checked: Type.Integer() },
        { additionalProperties: false },
      ),
      tasks_open: Type.Integer(),
      tasks_potential_gain: Type.Number(),
      top_tasks: Type.Array(TaskSchema, { maxItems: 5 }),
      crawl: Nullable(
        Type.Object(
          {
            checked_at: UnixSeconds,
            job: Type.Integer(),
            run: Nullable(Type.Integer()),
            summary: Type.Object({}, { additionalProperties: true, description: "The latest crawl's summary, as in GET /crawl/{host}" }),
          },
          { additionalProperties: false, description: "The latest whole-site crawl; null when the host was never crawled" },
        ),
      ),
      uptime: Nullable(
        Type.Object(
          {
            up: Nullable(Type.Boolean()),
            state: Type.String(),
            since: Nullable(UnixSeconds),
            interval_min: Type.Integer(),
            last_check: Nullable(UnixSeconds),
            uptime_24h: Nullable(Type.Number()),
            uptime_7d: Nullable(Type.Number()),
            uptime_30d: Nullable(Type.Number()),
            open_incidents: Type.Integer(),
          },
          { additionalProperties: false, description: "As GET /uptime/{host}; null when you do not monitor the host" },
        ),
      ),
      watchdog_changes: Nullable(
        Type.Array(WatchdogChangeSchema, {
          maxItems: 20,
          description: "Changes the watchdog found in the watched pages in the last 30 days, newest first (at most 20); null when you do not monitor the host",
        }),
      ),
      watched_pages: Nullable(
        Type.Array(WatchedPageSchema, {
          description: "The pages the watchdog compares on every analysis: the home page, then the most important by internal link rank; null when you do not monitor the host",
        }),
      ),
      events: Type.Array(EventSchema, { description: "Your latest events of the site (as in GET /events)" }),
    },
    { additionalProperties: false },
  ),
});
