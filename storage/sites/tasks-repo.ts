import { EVENTS, newEvent } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";
import { appendEvents } from "../work/events-repo.ts";

export type TaskStatus = "open" | "done" | "ignored";

export interface TaskRow {
  readonly id: number;
  readonly account_id: number;
  readonly host: string;
  readonly code: string;
  readonly title: string;
  readonly level: "bad" | "warn" | "info";
  readonly grp: string;
  readonly impact: number;
  /** The gain with every rank cap lifted (null: written before migration 048). */
  readonly impact_uncapped: number | null;
  readonly hint: string;
  readonly detail: string;
  readonly source: string;
  readonly recheck: boolean;
  readonly effort: number;
  readonly status: TaskStatus;
  readonly first_seen: number;
  readonly last_seen: number;
  readonly updated: number;
  /** When the task last became done (null: never, or done before migration 029 kept it). */
  readonly done_at: number | null;
}

/** A failing check as a task to be (re)opened. */
export interface TaskDraftRow {
  readonly code: string;
  readonly title: string;
  readonly level: "bad" | "warn" | "info";
  readonly group: string;
  readonly impact: number;
  /** The gain with every rank cap lifted (analyzer TaskDraft.impact_uncapped); absent: `impact`. */
  readonly impactUncapped?: number;
  readonly hint: string;
  readonly detail: string;
  readonly source: string;
  readonly recheck: boolean;
  readonly effort: number;
}

export interface TaskTransition {
  readonly taskId: number;
  readonly code: string;
  readonly title: string;
  readonly kind: "new" | "returned" | "fixed";
}

const TASK_COLUMNS = "id, account_id, host, code, title, level, grp, impact, impact_uncapped, hint, detail, source, recheck, effort, status, first_seen, last_seen, updated, done_at";

/** Tasks belong to an account and keep their id across runs. */
export class TasksRepo {
  constructor(private readonly db: Db) {}

  /**
   * Applies one run to an account's tasks of a host: failing checks open (or refresh) their task —
   * a done task returns to open, an ignored one stays ignored —; open tasks whose check now passes
   * become done. Returns the transitions, for events. The account's tasks of the host stay locked
   * until the unit of work it runs in ends.
   */
  async applyRun(accountId: number, host: string, now: number, failing: readonly TaskDraftRow[], passing: ReadonlySet<string>): Promise<TaskTransition[]> {
    return this.db.tx((q) => applyRun(q, accountId, host, now, failing, passing));
  }

  async forHost(accountId: number, host: string): Promise<TaskRow[]> {
    return this.db.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE account_id = $1 AND host = $2 ORDER BY status, impact DESC, CASE level WHEN 'bad' THEN 0 WHEN 'warn' THEN 1 ELSE 2 END, coalesce(impact_uncapped, impact) DESC, id`, [accountId, host]);
  }

  /**
   * The account's open tasks, most useful first (impact, then level, then the gain with caps
   * lifted, then effort). `familyOf` maps
   * a check code to the profile family it belongs to (analyzer FAMILY_CHECKS inverted): a task whose
   * family the account's profile of its host excludes is left out — in SQL, so order, paging and
   * total stay exact.
   */
  async plan(
    accountId: number,
    filter: { host?: string; level?: string; familyOf?: Readonly<Record<string, string>> },
    limit: number,
    offset: number,
  ): Promise<{ rows: TaskRow[]; total: number }> {
    const where = ["account_id = $1", "status = 'open'"];
    const params: unknown[] = [accountId];
    if (filter.familyOf && Object.keys(filter.familyOf).length > 0) {
      params.push(JSON.stringify(filter.familyOf));
      where.push(
        `NOT EXISTS (SELECT 1 FROM profiles p WHERE p.account_id = tasks.account_id AND p.host = tasks.host AND ($${params.length}::jsonb ->> tasks.code) = ANY (p.exclude))`,
      );
    }
    if (filter.host) {
      params.push(filter.host);
      where.push(`host = $${params.length}`);
    }
    if (filter.level) {
      params.push(filter.level);
      where.push(`level = $${params.length}`);
    }
    const order = "impact DESC, CASE level WHEN 'bad' THEN 0 WHEN 'warn' THEN 1 ELSE 2 END, coalesce(impact_uncapped, impact) DESC, effort, id";
    const rows = await this.db.query<TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM tasks WHERE ${where.join(" AND ")}`, params);
    return { rows, total: count?.n ?? 0 };
  }

  /** Sets a task's status (its owner only); writes the transition's event in the same transaction. */
  async setStatus(accountId: number, id: number, status: TaskStatus, now: number): Promise<TaskRow | null> {
    return this.db.tx(async (q) => {
      const [row] = await q.query<TaskRow>(
        // done_at keeps the first day of a done streak: marking a done task done again is no new fix.
        `UPDATE tasks SET status = $3, updated = $4,
           done_at = CASE WHEN $3 <> 'done' THEN done_at WHEN status = 'done' AND done_at IS NOT NULL THEN done_at ELSE $4::bigint END
         WHERE id = $1 AND account_id = $2 RETURNING ${TASK_COLUMNS}`,
        [id, accountId, status, now],
      );
      if (!row) return null;
      await appendEvents(q, [newEvent(EVENTS.TASK_SET[status], { taskId: id, code: row.code, title: row.title, host: row.host, at: now }, { accountId, host: row.host })], now);
      return row;
    });
  }

  /** Open tasks and their summed impact per host of an account. */
  async openCounts(accountId: number): Promise<Map<string, { open: number; crit: number; gain: number }>> {
    const rows = await this.db.query<{ host: string; open: number; crit: number; gain: number }>(
      `SELECT host, count(*) AS open, count(*) FILTER (WHERE level = 'bad') AS crit, coalesce(sum(impact), 0) AS gain
       FROM tasks WHERE account_id = $1 AND status = 'open' GROUP BY host`,
      [accountId],
    );
    return new Map(rows.map((r) => [r.host, { open: Number(r.open), crit: Number(r.crit), gain: Number(r.gain) }]));
  }

  /** One task of an account (null: none, or another account's). */
  async get(accountId: number, id: number): Promise<TaskRow | null> {
    const rows = await this.db.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0] ?? null;
  }

  /**
   * A re-check found the task's check passing: an open task becomes done with the re-check's event,
   * in one transaction. A task that is no longer open (the run that answered the re-check closed it,
   * or the user changed it meanwhile) is returned as it is.
   */
  async markFixed(accountId: number, id: number, now: number): Promise<TaskRow | null> {
    return this.db.tx(async (q) => {
      const [row] = await q.query<TaskRow>(
        `UPDATE tasks SET status = 'done', updated = $3, done_at = $3 WHERE id = $1 AND account_id = $2 AND status = 'open' RETURNING ${TASK_COLUMNS}`,
        [id, accountId, now],
      );
      if (!row) {
        const [same] = await q.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1 AND account_id = $2`, [id, accountId]);
        return same ?? null;
      }
      await appendEvents(q, [newEvent(EVENTS.TASK_RECHECKED, { taskId: id, code: row.code, title: row.title, host: row.host, at: now }, { accountId, host: row.host })], now);
      return row;
    });
  }

  /**
   * An account's done tasks of the sites it monitors, newest done first (one host, or all its
   * sites), with their total. Tasks of a site the account removed stay stored but are left out.
   */
  async done(accountId: number, filter: { host?: string; since?: number }, limit: number, offset: number): Promise<{ rows: TaskRow[]; total: number }> {
    const where = ["account_id = $1", "status = 'done'", "host IN (SELECT s.host FROM sites s WHERE s.account_id = $1)"];
    const params: unknown[] = [accountId];
    if (filter.host !== undefined) {
      params.push(filter.host);
      where.push(`host = $${params.length}`);
    }
    if (filter.since !== undefined) {
      params.push(filter.since);
      where.push(`coalesce(done_at, updated) >= $${params.length}`);
    }
    const cond = where.join(" AND ");
    const rows = await this.db.query<TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE ${cond} ORDER BY coalesce(done_at, updated) DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE ${cond}`, params);
    return { rows, total: count?.n ?? 0 };
  }
}

/** TasksRepo.applyRun in the transaction `q`. */
async function applyRun(q: Queryable, accountId: number, host: string, now: number, failing: readonly TaskDraftRow[], passing: ReadonlySet<string>): Promise<TaskTransition[]> {
  const existing = await q.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE account_id = $1 AND host = $2 FOR UPDATE`, [accountId, host]);
  const byCode = new Map(existing.map((t) => [t.code, t]));
  const transitions: TaskTransition[] = [];
  // One statement for every failing check, not one each (a crawl's run has dozens: each a round trip
  // to a Postgres server). A code twice in `failing` is kept once, its last draft (a row cannot be
  // upserted twice by one statement).
  const drafts = [...new Map(failing.map((d) => [d.code, d])).values()];
  const ids = new Map<string, number>();
  if (drafts.length > 0) {
    const column = <T,>(f: (d: TaskDraftRow) => T) => drafts.map(f);
    const rows = await q.query<{ id: number; code: string }>(
      `INSERT INTO tasks (account_id, host, code, title, level, grp, impact, hint, detail, source, recheck, effort, status, first_seen, last_seen, updated, impact_uncapped)
       SELECT $1, $2, d.code, d.title, d.level, d.grp, d.impact, d.hint, d.detail, d.source, d.recheck, d.effort, 'open', $3, $3, $3, d.impact_uncapped
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::text[], $10::text[], $11::text[], $12::boolean[], $13::int[], $14::float8[])
         AS d(code, title, level, grp, impact, hint, detail, source, recheck, effort, impact_uncapped)
       ON CONFLICT (account_id, host, code) DO UPDATE SET title = EXCLUDED.title, level = EXCLUDED.level, grp = EXCLUDED.grp,
         impact = EXCLUDED.impact, impact_uncapped = EXCLUDED.impact_uncapped, hint = EXCLUDED.hint, detail = EXCLUDED.detail, source = EXCLUDED.source,
         recheck = EXCLUDED.recheck, effort = EXCLUDED.effort, last_seen = EXCLUDED.last_seen,
         status = CASE WHEN tasks.status = 'done' THEN 'open' ELSE tasks.status END,
         updated = CASE WHEN tasks.status = 'done' THEN EXCLUDED.updated ELSE tasks.updated END
       RETURNING id, code`,
      [
        accountId,
        host,
        now,
        column((d) => d.code),
        column((d) => d.title),
        column((d) => d.level),
        column((d) => d.group),
        column((d) => d.impact),
        column((d) => d.hint),
        column((d) => d.detail),
        column((d) => d.source),
        column((d) => d.recheck),
        column((d) => d.effort),
        column((d) => d.impactUncapped ?? d.impact),
      ],
    );
    for (const row of rows) ids.set(row.code, row.id);
  }
  for (const d of drafts) {
    const before = byCode.get(d.code);
    const id = ids.get(d.code) as number;
    if (!before) transitions.push({ taskId: id, code: d.code, title: d.title, kind: "new" });
    else if (before.status === "done") transitions.push({ taskId: id, code: d.code, title: d.title, kind: "returned" });
  }
  const fixed = existing.filter((t) => t.status === "open" && passing.has(t.code));
  if (fixed.length > 0) await q.query("UPDATE tasks SET status = 'done', updated = $2, done_at = $2 WHERE id = ANY ($1::bigint[])", [fixed.map((t) => t.id), now]);
  for (const t of fixed) transitions.push({ taskId: t.id, code: t.code, title: t.title, kind: "fixed" });
  return transitions;
}
