import { Type } from "@sinclair/typebox";
import { HostParams, Nullable, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";
import { TaskSchema } from "./tasks.ts";

// Blocks of GET /site/{host} whose features are not built yet answer null (listed in
// docs/architecture.md with the issue that brings them): nothing is invented.
const Pending = Nullable(Type.Object({}, { additionalProperties: true, description: "null until its feature exists" }));

export const getSite = defineContract({
  id: "get_site",
  method: "GET",
  path: "/site/{host}",
  scope: "read",
  cli: "site",
  summary: "One site at a glance: rank, statistics, your open tasks and recent events",
  description: "search, baseline, master_index, crawl, uptime, watchdog_changes and watched_pages are null until their features exist.",
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
      search: Pending,
      baseline: Pending,
      master_index: Pending,
      stats: Type.Object(
        { runs: Type.Integer(), first_checked: UnixSeconds, checks: Type.Integer(), failing: Type.Integer(), pages_checked: Type.Integer() },
        { additionalProperties: false },
      ),
      tasks_open: Type.Integer(),
      tasks_potential_gain: Type.Number(),
      top_tasks: Type.Array(TaskSchema, { maxItems: 5 }),
      crawl: Pending,
      uptime: Pending,
      watchdog_changes: Nullable(Type.Array(Type.Unknown())),
      watched_pages: Nullable(Type.Array(Type.Unknown())),
      events: Type.Array(
        Type.Object(
          { id: Type.Integer(), type: Type.String(), level: Type.String(), created: UnixSeconds, data: Type.Object({}, { additionalProperties: true }) },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
});
