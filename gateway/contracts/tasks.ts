import { Type } from "@sinclair/typebox";
import { HostParams, PageEnvelope, StringEnum, UnixSeconds, pagedQuery, withError } from "../schemas.ts";
import { defineContract } from "./contract.ts";

const Level = StringEnum(["bad", "warn", "info"]);
const Status = StringEnum(["open", "done", "ignored"]);

export const TaskSchema = Type.Object(
  {
    id: Type.Integer(),
    host: Type.String(),
    code: Type.String({ description: "The check this task comes from" }),
    title: Type.String(),
    level: Level,
    status: Status,
    source: Type.String(),
    group: Type.String(),
    impact: Type.Number({ description: "Rank points gained by fixing it, as of the last check" }),
    impact_uncapped: Type.Number({
      description:
        "Rank points gained by fixing it once every rank cap is lifted (the capping checks fixed). Under a cap most impacts are 0; this tells a broken link from a missing security.txt. Equal to impact when no cap holds the rank down",
    }),
    hint: Type.String(),
    detail: Type.String(),
    effort: Type.Integer({ minimum: 1, maximum: 3 }),
    first_seen: UnixSeconds,
    last_seen: UnixSeconds,
    recheck: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const listSiteTasks = defineContract({
  id: "list_site_tasks",
  method: "GET",
  path: "/tasks/{host}",
  scope: "read",
  cli: "tasks list",
  summary: "Your tasks for a site you monitor (open first, most useful first)",
  tags: ["Tasks"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  response: Type.Object({ host: Type.String(), tasks: Type.Array(TaskSchema) }, { additionalProperties: false }),
});

export const setTaskStatus = defineContract({
  id: "set_task_status",
  method: "PATCH",
  path: "/tasks/{id}",
  scope: "write",
  cli: "tasks set",
  summary: "Set a task's status: open, done or ignored",
  description: "Any status may follow any other. An ignored task stays ignored across checks; a done task whose check fails again returns to open.",
  tags: ["Tasks"],
  errors: ["not_found", "bad_status"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  body: Type.Object({ status: withError(Status, "bad_status") }, { additionalProperties: false }),
  response: Type.Object({ id: Type.Integer(), status: Status, host: Type.String() }, { additionalProperties: false }),
});

export const getPlan = defineContract({
  id: "get_plan",
  method: "GET",
  path: "/plan",
  scope: "read",
  cli: "plan",
  summary: "Open tasks of all your sites, most useful first",
  description:
    "Ordered by impact, then level (bad, warn, info), then impact_uncapped (under a rank cap, where most impacts are 0: what a task is worth once the cap is lifted), then effort. Tasks of checks your profile of their site excludes (PUT /profile/{host}) are left out; they stay in /tasks/{host} with their status.",
  tags: ["Tasks"],
  errors: ["bad_host"],
  pageMax: 200,
  query: pagedQuery(200, {
    host: Type.Optional(withError(Type.String({ format: "host", maxLength: 300 }), "bad_host")),
    level: Type.Optional(Level),
  }),
  response: Type.Object({ tasks: Type.Array(TaskSchema), page: PageEnvelope }, { additionalProperties: false }),
});
