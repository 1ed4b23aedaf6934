import type { Db } from "../engine/db.ts";

/** "pass", "fail", "warn", "skip", or another status a check reports. */
export type CheckStatus = "pass" | "fail" | "warn" | "skip" | (string & {});

/** One check's result in a finished analysis (a run). */
export interface CheckRow {
  /** The run, from the runs sequence; a run belongs to one host. */
  readonly runId: number;
  readonly jobId: number;
  /** The job's attempt that produced the row: a higher attempt replaces a lower one. */
  readonly attempt: number;
  readonly host: string;
  /** Unix seconds. */
  readonly checkedAt: number;
  readonly code: string;
  readonly status: CheckStatus;
  readonly value: string | null;
  readonly group: string;
}

/** One point of a check's history. */
export interface CheckPoint {
  readonly runId: number;
  readonly checkedAt: number;
  readonly status: CheckStatus;
  readonly value: string | null;
}

/**
 * The time-series port for per-check results. The embedded mode keeps it in Postgres tables; the
 * distributed mode implements it on ClickHouse. Every implementation passes test/harness/series-contract.ts.
 */
export interface CheckSeries {
  /**
   * Stores rows idempotently by (runId, code): writing a row again, replayed or from a later
   * attempt, leaves one row, the one of the highest attempt (of equal attempts, either: a replay
   * carries the same row). Refuses the whole batch, writing nothing, when a row is invalid.
   */
  write(rows: readonly CheckRow[]): Promise<void>;
  /** The check's results on the host, newest run first, at most `limit`. */
  history(host: string, code: string, limit: number): Promise<CheckPoint[]>;
  /** The rows of the host's newest run (highest runId), by code; [] when there is none. */
  latest(host: string): Promise<CheckRow[]>;
  /** Distinct (run, code) rows of the host: exact, duplicates never counted. */
  count(host: string): Promise<number>;
}

const UINT32_MAX = 2 ** 32 - 1;

/**
 * Why a row cannot be stored the same way on every implementation, or null. Strings must be
 * well-formed Unicode without NUL (Postgres text holds no NUL); numbers must fit ClickHouse's
 * UInt64 ids, UInt32 attempt and DateTime seconds.
 */
export function checkRowProblem(row: CheckRow): string | null {
  if (!isId(row.runId)) return `runId must be a positive safe integer, got ${String(row.runId)}`;
  if (!isId(row.jobId)) return `jobId must be a positive safe integer, got ${String(row.jobId)}`;
  if (!isUint32(row.attempt)) return `attempt must be an integer 0..${UINT32_MAX}, got ${String(row.attempt)}`;
  if (!isUint32(row.checkedAt)) return `checkedAt must be unix seconds 0..${UINT32_MAX}, got ${String(row.checkedAt)}`;
  for (const [name, v] of [["host", row.host], ["code", row.code], ["status", row.status], ["group", row.group]] as const) {
    const problem = textProblem(v);
    if (problem) return `${name} ${problem}`;
  }
  if (row.value !== null) {
    const problem = textProblem(row.value);
    if (problem) return `value ${problem}`;
  }
  return null;
}

/** Throws a RangeError naming the first invalid row; the port's implementations call it first. */
export function assertCheckRows(rows: readonly CheckRow[]): void {
  rows.forEach((row, i) => {
    const problem = checkRowProblem(row);
    if (problem) throw new RangeError(`check row ${i} (run ${String(row.runId)}, code ${JSON.stringify(row.code)}): ${problem}`);
  });
}

/** One row per (runId, code): the highest attempt, the later one of equal attempts. */
export function latestAttempts(rows: readonly CheckRow[]): CheckRow[] {
  const byKey = new Map<string, CheckRow>();
  for (const row of rows) {
    const key = `${row.runId}\u0000${row.code}`;
    const seen = byKey.get(key);
    if (!seen || row.attempt >= seen.attempt) byKey.set(key, row);
  }
  return [...byKey.values()];
}

function isId(n: unknown): boolean {
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0;
}

function isUint32(n: unknown): boolean {
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= UINT32_MAX;
}

function textProblem(s: unknown): string | null {
  if (typeof s !== "string") return "must be a string";
  if (s.includes("\0")) return "must not contain NUL";
  if (/\p{Surrogate}/u.test(s)) return "must be well-formed Unicode (a lone surrogate)";
  return null;
}

const ROW_COLUMNS = `run_id AS "runId", job_id AS "jobId", attempt, host, checked_at AS "checkedAt", code, status, value, check_group AS "group"`;

/** CheckSeries on the check_results table (migration 007), for PGlite and a Postgres server. */
export class PostgresCheckSeries implements CheckSeries {
  constructor(private readonly db: Db) {}

  async write(input: readonly CheckRow[]): Promise<void> {
    assertCheckRows(input);
    // An upsert may not touch a row twice in one statement.
    const rows = latestAttempts(input);
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO check_results (run_id, code, attempt, job_id, host, checked_at, status, value, check_group)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[])
       ON CONFLICT (run_id, code) DO UPDATE SET attempt = EXCLUDED.attempt, job_id = EXCLUDED.job_id, host = EXCLUDED.host,
         checked_at = EXCLUDED.checked_at, status = EXCLUDED.status, value = EXCLUDED.value, check_group = EXCLUDED.check_group
       WHERE check_results.attempt <= EXCLUDED.attempt`,
      [
        rows.map((r) => r.runId),
        rows.map((r) => r.code),
        rows.map((r) => r.attempt),
        rows.map((r) => r.jobId),
        rows.map((r) => r.host),
        rows.map((r) => r.checkedAt),
        rows.map((r) => r.status),
        rows.map((r) => r.value),
        rows.map((r) => r.group),
      ],
    );
  }

  async history(host: string, code: string, limit: number): Promise<CheckPoint[]> {
    assertLimit(limit);
    if (limit === 0) return [];
    return this.db.query<CheckPoint>(
      `SELECT run_id AS "runId", checked_at AS "checkedAt", status, value FROM check_results
       WHERE host = $1 AND code = $2 ORDER BY run_id DESC LIMIT $3`,
      [host, code, limit],
    );
  }

  async latest(host: string): Promise<CheckRow[]> {
    // COLLATE "C": by code point, as ClickHouse sorts, whatever the database's collation.
    return this.db.query<CheckRow>(
      `SELECT ${ROW_COLUMNS} FROM check_results
       WHERE host = $1 AND run_id = (SELECT max(run_id) FROM check_results WHERE host = $1)
       ORDER BY code COLLATE "C"`,
      [host],
    );
  }

  async count(host: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>("SELECT count(*)::bigint AS n FROM check_results WHERE host = $1", [host]);
    return Number(row?.n ?? 0);
  }
}

/** A history limit: a non-negative safe integer. */
export function assertLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
}
