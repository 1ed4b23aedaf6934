import { FAMILY_CHECKS } from "../../analyzer/index.ts";
import type { TaskRow } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";

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
    impact_uncapped: t.impact_uncapped ?? t.impact,
    hint: t.hint,
    detail: t.detail,
    effort: t.effort,
    first_seen: t.first_seen,
    last_seen: t.last_seen,
    recheck: t.recheck,
  };
}

export const listSiteTasks = implement(contracts.listSiteTasks, { repos: ["sites", "tasks"] }, async ({ auth, repos, params }) => {
  if (!(await repos.sites.get(auth!.accountId, params.host))) throw new ApiError("not_found", `you do not monitor ${params.host}`);
  const rows = await repos.tasks.forHost(auth!.accountId, params.host);
  return { body: { host: params.host, tasks: rows.map(taskView) } };
});

export const setTaskStatus = implement(contracts.setTaskStatus, { repos: ["tasks"] }, async ({ auth, repos, params, body, now }) => {
  const row = await repos.tasks.setStatus(auth!.accountId, params.id, body.status, now);
  if (!row) throw new ApiError("not_found", `no task ${params.id} in your account`);
  return { body: { id: row.id, status: row.status, host: row.host } };
});

/** Check code → the profile family it belongs to: the plan's SQL leaves out what a profile excludes. */
const FAMILY_OF: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(FAMILY_CHECKS).flatMap(([family, codes]) => codes.map((code) => [code, family]))),
);

export const getPlan = implement(contracts.getPlan, { repos: ["tasks"] }, async ({ auth, repos, query }) => {
  const { rows, total } = await repos.tasks.plan(
    auth!.accountId,
    { ...(query.host ? { host: query.host } : {}), ...(query.level ? { level: query.level } : {}), familyOf: FAMILY_OF },
    query.limit,
    query.offset,
  );
  return { body: { tasks: rows.map(taskView), page: page(query.limit, query.offset, total) } };
});

export const tasksHandlers = [listSiteTasks, setTaskStatus, getPlan];
