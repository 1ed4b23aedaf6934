import { Type } from "@sinclair/typebox";
import { HostParams, HostString, Nullable, StringEnum, PageEnvelope, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

const Importance = StringEnum(["critical", "high", "normal", "low"]);
const IntervalHours = Type.Integer({ minimum: 1, maximum: 720, description: "Check interval in hours (1-720)" });

const SiteItem = Type.Object(
  {
    host: Type.String(),
    added: UnixSeconds,
    interval_h: Type.Integer(),
    rank: Nullable(Type.Integer({ minimum: 1, maximum: 100 })),
    prev_rank: Nullable(Type.Integer({ minimum: 1, maximum: 100 })),
    label: Nullable(Type.String()),
    last_run: Nullable(UnixSeconds),
    importance: Importance,
    project: Nullable(Type.String()),
  },
  { additionalProperties: false, description: "rank, prev_rank, label and last_run are null until the site's first finished check" },
);

export const listSites = defineContract({
  id: "list_sites",
  method: "GET",
  path: "/sites",
  scope: "read",
  cli: "sites list",
  summary: "The account's monitored sites",
  tags: ["Sites"],
  pageMax: 200,
  query: pagedQuery(200, {}),
  response: Type.Object({ sites: Type.Array(SiteItem), page: PageEnvelope }, { additionalProperties: false }),
});

export const addSite = defineContract({
  id: "add_site",
  method: "POST",
  path: "/sites",
  scope: "write",
  cli: "sites add",
  summary: "Add a site to monitor (counted against the plan's site limit)",
  description:
    "host is a domain (IDN allowed), an address or an http(s) URL; it is stored normalised: lower case, punycode, an explicit non-default port kept, any path dropped. Answers 201 when added, 200 with added false when the site was already monitored.",
  tags: ["Sites"],
  status: 201,
  otherStatuses: { 200: "The site was already monitored (added false)" },
  errors: ["bad_host", "limit"],
  body: Type.Object(
    {
      host: HostString,
      interval: Type.Optional(IntervalHours),
      keyword: Type.Optional(
        Type.String({
          maxLength: 200,
          description:
            "An extension: the site's uptime keyword. A probe whose answer (its first 64 KB, after redirects) does not contain this text fails with cause keyword, like an error status; an empty string removes it. Given for a site already monitored, it replaces that site's keyword. A host several accounts monitor is probed for the keyword of the account that set one first.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: Type.Object({ host: Type.String(), added: Type.Boolean(), interval_h: Type.Integer() }, { additionalProperties: false }),
});

export const removeSite = defineContract({
  id: "remove_site",
  method: "DELETE",
  path: "/sites/{host}",
  scope: "write",
  cli: "sites remove",
  summary: "Stop monitoring a site",
  description: "removed is false when the account did not monitor the host (the call is idempotent).",
  tags: ["Sites"],
  errors: ["bad_host"],
  params: HostParams,
  response: Type.Object({ host: Type.String(), removed: Type.Boolean() }, { additionalProperties: false }),
});

export const updateSite = defineContract({
  id: "update_site",
  method: "PATCH",
  path: "/sites/{host}",
  scope: "write",
  cli: "sites set",
  additive: true,
  summary: "Change a site's interval, importance or project",
  description: "project is a name (created on first use) or null to detach; GET /overview filters by the project's integer id.",
  tags: ["Sites"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  body: Type.Object(
    {
      interval: Type.Optional(IntervalHours),
      importance: Type.Optional(Importance),
      project: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  response: Type.Object(
    { host: Type.String(), interval_h: Type.Integer(), importance: Importance, project: Nullable(Type.String()), project_id: Nullable(Type.Integer()) },
    { additionalProperties: false },
  ),
});

const OverviewRow = Type.Object(
  {
    host: Type.String(),
    project: Nullable(Type.String()),
    project_id: Nullable(Type.Integer()),
    importance: Importance,
    rank: Nullable(Type.Integer({ minimum: 1, maximum: 100 })),
    rank_delta: Nullable(Type.Integer()),
    rank_band: Nullable(Type.String()),
    critical_tasks: Type.Integer(),
    open_tasks: Type.Integer(),
    potential_gain: Type.Number(),
    online: Nullable(Type.Boolean({ description: "The uptime probes' confirmed state: false while a confirmed down lasts; null before the first probe" })),
    last_check: Nullable(UnixSeconds),
    never_checked: Type.Boolean(),
    stale: Type.Boolean({ description: "last check older than 2 × interval_h" }),
    falling: Type.Boolean({ description: "rank below the previous run's" }),
    interval_h: Type.Integer(),
    crawl: Type.Boolean({ description: "A whole-site crawl of the host exists (GET /crawl/{host})" }),
    profile: Nullable(Type.String({ description: "Your site type (PUT /profile/{host}); null when you store no profile" })),
    rank_without_exclusions: Nullable(
      Type.Number({ description: "With a stored profile: the latest run's standard rank (rank is then the rank with the profile's exclusions); null without a profile or a run" }),
    ),
  },
  { additionalProperties: false },
);

export const getOverview = defineContract({
  id: "get_overview",
  method: "GET",
  path: "/overview",
  scope: "read",
  cli: "overview",
  summary: "All the account's sites at a glance, with a summary",
  tags: ["Sites"],
  pageMax: 200,
  query: pagedQuery(200, {
    q: Type.Optional(Type.String({ maxLength: 200, description: "Search in host and project name" })),
    project: Type.Optional(Type.Integer({ minimum: 1, description: "Project id" })),
    state: StringEnum(["all", "crit", "down", "falling", "stale", "never", "ok"],
      { default: "all" }),
    importance: Type.Optional(Importance),
    rmax: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "Rank not above" })),
    sort: StringEnum(["name", "rank", "delta", "crit", "tasks", "checked"],
      { default: "name" }),
    dir: StringEnum(["asc", "desc"], { default: "asc" }),
  }),
  response: Type.Object(
    {
      summary: Type.Object(
        {
          n: Type.Integer(),
          rated: Type.Integer(),
          avg: Nullable(Type.Number()),
          best: Nullable(Type.Integer()),
          worst: Nullable(Type.Integer()),
          crit: Type.Integer(),
          open: Type.Integer(),
          falling: Type.Integer(),
          down: Type.Integer(),
          stale: Type.Integer(),
          never: Type.Integer(),
        },
        { additionalProperties: false },
      ),
      sites: Type.Array(OverviewRow),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
});
