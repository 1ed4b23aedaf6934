import { Type } from "@sinclair/typebox";
import { FAMILY_CHECKS } from "../../analyzer/index.ts";
import type { TaskRow } from "../../storage/index.ts";
import { ApiError } from "../errors.ts";
import { defineOperation } from "../registry/operation.ts";
import { HostParams, PageEnvelope, StringEnum, UnixSeconds, page, pagedQuery, withError } from "../schemas.ts";

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
    hint: Type.String(),
    detail: Type.String(),
    effort: Type.Integer({ minimum: 1, maximum: 3 }),
    first_seen: UnixSeconds,
    last_seen: UnixSeconds,
    recheck: Type.Boolean(),
  },
  { additionalProperties: false },
);

export function taskView(t: TaskRow) {
  return {
    id: t.id,
    host: t.host,
    code: t.code,
    title: t.title,
    level: t.level,
    status: t.status,
    source: t.source,
    group: t.grp,
    impact: t.impact,
    hint: t.hint,
    detail: t.detail,
    effort: t.effort,
    first_seen: t.first_seen,
    last_seen: t.last_seen,
    recheck: t.recheck,
  };
}

export const listSiteTasks = defineOperation({
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
  handler: async ({ auth, deps, params }) => {
    if (!(await deps.store.sites.get(auth!.accountId, params.host))) throw new ApiError("not_found", `you do not monitor ${params.host}`);
    const rows = await deps.store.tasks.forHost(auth!.accountId, params.host);
    return { body: { host: params.host, tasks: rows.map(taskView) } };
  },
});

export const setTaskStatus = defineOperation({
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
  handler: async ({ auth, deps, params, body, now }) => {
    const row = await deps.store.tasks.setStatus(auth!.accountId, params.id, body.status, now);
    if (!row) throw new ApiError("not_found", `no task ${params.id} in your account`);
    return { body: { id: row.id, status: row.status, host: row.host } };
  },
});

/** Check code → the profile family it belongs to: the plan's SQL leaves out what a profile excludes. */
const FAMILY_OF: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(FAMILY_CHECKS).flatMap(([family, codes]) => codes.map((code) => [code, family]))),
);

export const getPlan = defineOperation({
  id: "get_plan",
  method: "GET",
  path: "/plan",
  scope: "read",
  cli: "plan",
  summary: "Open tasks of all your sites, most useful first",
  description:
    "Ordered by impact, then level (bad, warn, info), then effort. Tasks of checks your profile of their site excludes (PUT /profile/{host}) are left out; they stay in /tasks/{host} with their status.",
  tags: ["Tasks"],
  errors: ["bad_host"],
  pageMax: 200,
  query: pagedQuery(200, {
    host: Type.Optional(withError(Type.String({ format: "host", maxLength: 300 }), "bad_host")),
    level: Type.Optional(Level),
  }),
  response: Type.Object({ tasks: Type.Array(TaskSchema), page: PageEnvelope }, { additionalProperties: false }),
  handler: async ({ auth, deps, query }) => {
    const { rows, total } = await deps.store.tasks.plan(
      auth!.accountId,
      { ...(query.host ? { host: query.host } : {}), ...(query.level ? { level: query.level } : {}), familyOf: FAMILY_OF },
      query.limit,
      query.offset,
    );
    return { body: { tasks: rows.map(taskView), page: page(query.limit, query.offset, total) } };
  },
});
