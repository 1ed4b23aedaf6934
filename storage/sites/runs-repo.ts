import type { Db } from "../engine/db.ts";
import type { StoredReport } from "./documents.ts";

export interface RunRow {
  readonly id: number;
  readonly host: string;
  readonly job_id: number | null;
  readonly checked_at: number;
  readonly rank: number;
  readonly label: string;
  readonly color: string;
  readonly report: StoredReport;
}

export interface NewRun {
  readonly host: string;
  readonly jobId: number;
  readonly checkedAt: number;
  readonly rank: number;
  readonly label: string;
  readonly color: string;
  readonly report: StoredReport;
}

/** A run as the diagnosis reads it (RunsRepo.diagnosisRuns). */
export interface DiagnosisRunRow {
  readonly id: number;
  readonly checked_at: number;
  readonly rank: number;
  readonly groups: { id: string; score: number | null }[];
  readonly failing: { code: string; title: string; level: "bad" | "warn" | "info" }[];
  /** Codes of the checks this run could not measure (na). */
  readonly unmeasured: string[];
  readonly browser: { score: number | null; lcp_ms: number | null } | null;
  /** tls_cert_valid's value when it failed, tls_cert_expiry's value (days left) whatever its status. */
  readonly certificate: { problem: string | null; days_left: number | null };
}

const RUN_COLUMNS = "id, host, job_id, checked_at, rank, label, color, report";

/** Announces a stored run (payload: its id) when its transaction commits: what the series sync waits for. */
export const RUNS_CHANNEL = "svc_runs";

/**
 * Finished analyses by host: the check-history time series, shared by every account. (The
 * distributed mode keeps per-check results in ClickHouse behind the same reads.)
 */
export class RunsRepo {
  constructor(private readonly db: Db) {}

  /** Stores a job's run once: a second completion of the same job returns the first run's id. */
  async insert(run: NewRun): Promise<number> {
    const rows = await this.db.query<{ id: number }>(
      `WITH r AS (
         INSERT INTO runs (host, job_id, checked_at, rank, label, color, report) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (job_id) DO NOTHING RETURNING id)
       SELECT r.id FROM r CROSS JOIN LATERAL (SELECT pg_notify('${RUNS_CHANNEL}', r.id::text)) n`,
      [run.host, run.jobId, run.checkedAt, run.rank, run.label, run.color, JSON.stringify(run.report)],
    );
    if (rows[0]) return rows[0].id;
    const [existing] = await this.db.query<{ id: number }>("SELECT id FROM runs WHERE job_id = $1", [run.jobId]);
    return (existing as { id: number }).id;
  }

  /**
   * Subscribes to stored runs (RUNS_CHANNEL, delivered once each run's transaction committed);
   * onLost is called when the subscription drops and announcements may have been missed.
   */
  onNewRuns(onRun: () => void, onLost: () => void): Promise<{ close(): Promise<void> }> {
    return this.db.listen(RUNS_CHANNEL, onRun, onLost);
  }

  /** Whether an analysis or a crawl of the host (the work that stores runs) is queued or running. */
  async checkInFlight(host: string): Promise<boolean> {
    const rows = await this.db.query("SELECT 1 FROM jobs WHERE host = $1 AND kind IN ('analyze', 'crawl') AND state IN ('queued', 'running') LIMIT 1", [host]);
    return rows.length > 0;
  }

  async latest(host: string): Promise<RunRow | null> {
    const rows = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE host = $1 ORDER BY id DESC LIMIT 1`, [host]);
    return rows[0] ?? null;
  }

  /** The latest run's id and report of each host, in one query (GET /overview's profiled sites). */
  async latestReports(hosts: readonly string[]): Promise<Map<string, { id: number; report: StoredReport }>> {
    if (hosts.length === 0) return new Map();
    const rows = await this.db.query<{ host: string; id: number; report: StoredReport }>(
      "SELECT DISTINCT ON (host) host, id, report FROM runs WHERE host = ANY($1::text[]) ORDER BY host, id DESC",
      [[...hosts]],
    );
    return new Map(rows.map((r) => [r.host, { id: r.id, report: r.report }]));
  }

  async get(host: string, id: number): Promise<RunRow | null> {
    const rows = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE host = $1 AND id = $2`, [host, id]);
    return rows[0] ?? null;
  }

  async byId(id: number): Promise<RunRow | null> {
    const rows = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The run just before `id` of the same host. */
  async previous(host: string, id: number): Promise<RunRow | null> {
    const rows = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE host = $1 AND id < $2 ORDER BY id DESC LIMIT 1`, [host, id]);
    return rows[0] ?? null;
  }

  /** Runs without their reports, newest first. */
  async history(host: string, limit: number, offset: number): Promise<{ rows: Omit<RunRow, "report">[]; total: number }> {
    const rows = await this.db.query<Omit<RunRow, "report">>(
      "SELECT id, host, job_id, checked_at, rank, label, color FROM runs WHERE host = $1 ORDER BY id DESC LIMIT $2 OFFSET $3",
      [host, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>("SELECT count(*) AS n FROM runs WHERE host = $1", [host]);
    return { rows, total: count?.n ?? 0 };
  }

  /** How many finished runs the host has, and when the first was checked (null without runs). */
  async historySpan(host: string): Promise<{ runs: number; firstCheckedAt: number | null }> {
    const [row] = await this.db.query<{ runs: number; first: number | null }>("SELECT count(*) AS runs, min(checked_at) AS first FROM runs WHERE host = $1", [host]);
    return { runs: row?.runs ?? 0, firstCheckedAt: row?.first ?? null };
  }

  /** Reports of the host's runs before `id` (newest first, at most limit), for "seen before" questions. */
  async reportsBefore(host: string, id: number, limit: number): Promise<StoredReport[]> {
    const rows = await this.db.query<{ report: StoredReport }>("SELECT report FROM runs WHERE host = $1 AND id < $2 ORDER BY id DESC LIMIT $3", [host, id, limit]);
    return rows.map((r) => r.report);
  }

  /** Runs after `id` in id order with their job's attempt (the series sync's read). */
  async after(id: number, limit: number): Promise<(RunRow & { attempt: number })[]> {
    return this.db.query<RunRow & { attempt: number }>(
      `SELECT r.id, r.host, r.job_id, r.checked_at, r.rank, r.label, r.color, r.report, COALESCE(j.attempt, 1) AS attempt
       FROM runs r LEFT JOIN jobs j ON j.id = r.job_id WHERE r.id > $1 ORDER BY r.id LIMIT $2`,
      [id, limit],
    );
  }

  /** A derived series' cursor over runs (0 before its first sync). */
  async cursor(name: string): Promise<number> {
    const [row] = await this.db.query<{ last_id: number }>("SELECT last_id FROM series_cursors WHERE name = $1", [name]);
    return row?.last_id ?? 0;
  }

  /** Moves a cursor forward (never back: two schedulers may sync at once). */
  async advanceCursor(name: string, lastId: number): Promise<void> {
    await this.db.query(
      `INSERT INTO series_cursors (name, last_id) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET last_id = GREATEST(series_cursors.last_id, EXCLUDED.last_id)`,
      [name, lastId],
    );
  }

  /**
   * The host's runs checked from `since` on, plus the last one before it (what stood at `since`),
   * oldest first and at most `limit` (the newest kept), reduced in SQL to what the diagnosis reads:
   * the rank groups, the failing or warning checks, the unmeasured ones and the home page's mobile browser measurement.
   */
  async diagnosisRuns(host: string, since: number, limit: number): Promise<DiagnosisRunRow[]> {
    const rows = await this.db.query<DiagnosisRunRow>(
      `SELECT id, checked_at, rank, COALESCE(report->'groups', '[]'::jsonb) AS groups,
         COALESCE((SELECT jsonb_agg(jsonb_build_object('code', i->>'code', 'title', i->>'title', 'level', i->>'level') ORDER BY n)
                   FROM jsonb_array_elements(report->'items') WITH ORDINALITY AS x(i, n) WHERE i->>'status' IN ('fail', 'warn')), '[]'::jsonb) AS failing,
         COALESCE((SELECT jsonb_agg(i->>'code') FROM jsonb_array_elements(report->'items') AS z(i) WHERE i->>'status' = 'na'), '[]'::jsonb) AS unmeasured,
         (SELECT jsonb_build_object('score', p->'score', 'lcp_ms', p->'lcp_ms')
            FROM jsonb_array_elements(COALESCE(report->'browser'->'pages', '[]'::jsonb)) WITH ORDINALITY AS y(p, n)
           WHERE p->>'device' = 'mobile' AND COALESCE(p->>'error', '') = '' ORDER BY n LIMIT 1) AS browser,
         jsonb_build_object(
           'problem', (SELECT i->>'value' FROM jsonb_array_elements(report->'items') AS v(i) WHERE i->>'code' = 'tls_cert_valid' AND i->>'status' = 'fail' LIMIT 1),
           'days_left', (SELECT i->'value' FROM jsonb_array_elements(report->'items') AS v(i) WHERE i->>'code' = 'tls_cert_expiry' AND jsonb_typeof(i->'value') = 'number' LIMIT 1)) AS certificate
       FROM runs WHERE host = $1 AND id >= COALESCE((SELECT max(id) FROM runs WHERE host = $1 AND checked_at < $2), 0)
       ORDER BY id DESC LIMIT $3`,
      [host, since, limit],
    );
    return rows.reverse();
  }

  /** Whether anyone ever analysed the host (shared data). */
  /**
   * Whether the host has a run (shared by every account), or the account itself monitors it or
   * started a job for it. Another account's site or job does not count: what other accounts
   * monitor must not show through the shared reports.
   */
  async knownTo(accountId: number, host: string): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM runs WHERE host = $2
       UNION ALL SELECT 1 FROM jobs WHERE host = $2 AND account_id = $1
       UNION ALL SELECT 1 FROM sites WHERE host = $2 AND account_id = $1
       LIMIT 1`,
      [accountId, host],
    );
    return rows.length > 0;
  }

  /**
   * The rank groups' scores of the host's runs checked in [from, to), newest first, at most 5000
   * (hourly checks for half a year): the fix effects' series.
   */
  async groupScores(host: string, from: number, to: number): Promise<{ checked_at: number; groups: StoredReport["groups"] }[]> {
    return this.db.query<{ checked_at: number; groups: StoredReport["groups"] }>(
      "SELECT checked_at, report -> 'groups' AS groups FROM runs WHERE host = $1 AND checked_at >= $2 AND checked_at < $3 ORDER BY id DESC LIMIT 5000",
      [host, from, to],
    );
  }
}
