import { assertCheckRows, assertLimit, latestAttempts, type CheckPoint, type CheckRow, type CheckSeries } from "../sites/check-series.ts";
import { CHECKS_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inline, sql } from "../engine/clickhouse-sql.ts";

const COLUMNS = ["host", "run_id", "code", "attempt", "job_id", "checked_at", "status", "value", "check_group"] as const;

// UInt64 arrives as a JSON string, also inside a tuple.
type Int64Text = string | number;

/**
 * CheckSeries on a ReplacingMergeTree(attempt) ordered by (host, run_id, code). A merge keeps the
 * highest attempt of a key, but only within a month partition and only some time after the
 * insert, so every read picks it itself: argMax over one tuple per key. The tuple matters:
 * argMax(value, attempt) on a Nullable column skips NULLs and would answer an older attempt's value.
 */
export class ClickHouseCheckSeries implements CheckSeries {
  constructor(private readonly ch: ClickHouse) {}

  async write(input: readonly CheckRow[]): Promise<void> {
    assertCheckRows(input);
    const rows = latestAttempts(input).map((r) => ({
      host: r.host,
      run_id: r.runId,
      code: r.code,
      attempt: r.attempt,
      job_id: r.jobId,
      checked_at: r.checkedAt, // unix seconds: read as such whatever the server's time zone
      status: r.status,
      value: r.value,
      check_group: r.group,
    }));
    if (rows.length === 0) return;
    await this.ch.insert(CHECKS_TABLE, COLUMNS, rows);
  }

  async history(host: string, code: string, limit: number): Promise<CheckPoint[]> {
    assertLimit(limit);
    if (limit === 0) return [];
    const rows = await this.ch.query<{ run_id: Int64Text; r: [number, string, string | null] }>(
      sql`SELECT run_id, argMax(tuple(toUInt32(checked_at), status, value), attempt) AS r
          FROM check_results
          WHERE host = ${host} AND code = ${code}
          GROUP BY run_id
          ORDER BY run_id DESC
          LIMIT ${inline(limit)}`,
    );
    return rows.map(({ run_id, r: [checkedAt, status, value] }) => ({ runId: Number(run_id), checkedAt, status, value }));
  }

  async latest(host: string): Promise<CheckRow[]> {
    const rows = await this.ch.query<{ host: string; run_id: Int64Text; code: string; r: [number, Int64Text, number, string, string | null, string] }>(
      sql`SELECT host, run_id, code, argMax(tuple(attempt, job_id, toUInt32(checked_at), status, value, check_group), attempt) AS r
          FROM check_results
          WHERE host = ${host} AND run_id = (SELECT max(run_id) FROM check_results WHERE host = ${host})
          GROUP BY host, run_id, code
          ORDER BY code`,
    );
    return rows.map(({ host: stored, run_id, code, r: [attempt, jobId, checkedAt, status, value, group] }) => ({
      runId: Number(run_id),
      jobId: Number(jobId),
      attempt,
      host: stored,
      checkedAt,
      code,
      status,
      value,
      group,
    }));
  }

  async count(host: string): Promise<number> {
    const [row] = await this.ch.query<{ n: Int64Text }>(
      sql`SELECT count() AS n FROM (SELECT run_id, code FROM check_results WHERE host = ${host} GROUP BY run_id, code)`,
    );
    return Number(row?.n ?? 0);
  }
}
