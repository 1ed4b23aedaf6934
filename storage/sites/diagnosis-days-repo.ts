import type { Db } from "../engine/db.ts";

/** One stored day of a site's diagnosis history (migration 038). */
export interface DiagnosisDayRow {
  readonly day: string;
  readonly health: number | null;
  readonly level: string;
  readonly rank: number | null;
  readonly root_cause: string | null;
}

/**
 * The diagnosis history materialised (GET /diagnosis/{host}/history): finished days' points per
 * account and site, valid while the evidence's stamp holds.
 */
export class DiagnosisDaysRepo {
  constructor(private readonly db: Db) {}

  /**
   * What can rewrite a finished day's point, as a stamp: the account's import batches of the site
   * (each import or deletion changes their count or id sum; imported data is dated in the past).
   */
  async importStamp(accountId: number, host: string): Promise<string> {
    const [row] = await this.db.query<{ n: number | string; s: number | string }>(
      "SELECT count(*) AS n, coalesce(sum(id), 0) AS s FROM import_batches WHERE account_id = $1 AND host = $2",
      [accountId, host],
    );
    return `i${Number(row?.n ?? 0)}.${Number(row?.s ?? 0)}`;
  }

  /** The stored points of days from `fromDay` to `toDay` (inclusive) computed under `stamp`, oldest first. */
  async range(accountId: number, host: string, fromDay: string, toDay: string, stamp: string): Promise<DiagnosisDayRow[]> {
    const rows = await this.db.query<DiagnosisDayRow>(
      "SELECT day, health, level, rank, root_cause FROM diagnosis_days WHERE account_id = $1 AND host = $2 AND day >= $3 AND day <= $4 AND stamp = $5 ORDER BY day",
      [accountId, host, fromDay, toDay, stamp],
    );
    return rows.map((r) => ({ day: r.day, health: r.health === null ? null : Number(r.health), level: r.level, rank: r.rank === null ? null : Number(r.rank), root_cause: r.root_cause }));
  }

  /** Stores finished days' points (replacing those of another stamp), in one statement. */
  async put(accountId: number, host: string, stamp: string, points: readonly DiagnosisDayRow[], computedAt: number): Promise<void> {
    if (points.length === 0) return;
    await this.db.query(
      `INSERT INTO diagnosis_days (account_id, host, day, stamp, health, level, rank, root_cause, computed_at)
       SELECT $1, $2, p.day, $3, p.health, p.level, p.rank, p.root_cause, $4
       FROM jsonb_to_recordset($5::jsonb) AS p(day text, health integer, level text, rank integer, root_cause text)
       ON CONFLICT (account_id, host, day) DO UPDATE SET stamp = EXCLUDED.stamp, health = EXCLUDED.health, level = EXCLUDED.level,
         rank = EXCLUDED.rank, root_cause = EXCLUDED.root_cause, computed_at = EXCLUDED.computed_at`,
      [accountId, host, stamp, computedAt, JSON.stringify(points)],
    );
  }
}
