import type { DailyFact, Engine } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";
import type { SerpBatch } from "./serp-series.ts";

/** A day's total search traffic of one engine (the export's total row: no query, page, country or device). */
export interface DailyTotal {
  readonly engine: Engine;
  readonly day: string;
  readonly clicks: number;
  readonly impressions: number;
  /** Σ position × impressions: ÷ impressions gives the impression-weighted position. */
  readonly posXImpr: number;
}

/**
 * The time-series port for dated search facts (search_daily: GSC Chart/Dates, Yandex
 * query analytics), stored as sums. The embedded mode keeps them in Postgres, the distributed mode
 * in ClickHouse; the batches stay in Postgres, and reads name the live ones (as SerpSeries).
 */
export interface SearchDailySeries {
  /** Stores a batch's dated rows; `within` is the import's transaction (used by a store in the account database). */
  add(batch: SerpBatch, rows: readonly DailyFact[], within?: Queryable): Promise<void>;
  /**
   * The site's daily totals per engine and day from the newest of the live batches that has that
   * day (a re-import of an overlapping export replaces, never doubles), summed within that batch;
   * by engine, then oldest first.
   */
  totals(accountId: number, host: string, liveImports: readonly number[]): Promise<DailyTotal[]>;
  /** Removes the rows of a deleted batch. */
  drop(importId: number): Promise<void>;
}

const CHUNK_ROWS = 20_000;

export function assertDailyRow(r: DailyFact): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(r.date)) throw new RangeError(`not a day: ${JSON.stringify(r.date)}`);
  for (const [name, n] of [["clicks", r.clicks], ["impressions", r.impressions]] as const) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
  }
  if (!Number.isFinite(r.posXImpr) || r.posXImpr < 0) throw new RangeError(`posXImpr must be a non-negative number, got ${r.posXImpr}`);
}

export class PostgresSearchDailySeries implements SearchDailySeries {
  constructor(private readonly db: Db) {}

  async add(batch: SerpBatch, rows: readonly DailyFact[], within?: Queryable): Promise<void> {
    rows.forEach(assertDailyRow);
    const q = within ?? this.db;
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const chunk = rows.slice(start, start + CHUNK_ROWS);
      const col = <T>(f: (r: DailyFact) => T) => chunk.map(f);
      await q.query(
        `INSERT INTO search_daily (import_id, account_id, host, engine, day, query, page, country, device, clicks, impressions, pos_x_impr)
         SELECT $1::bigint, $2::bigint, $3::text, * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::double precision[])`,
        [batch.importId, batch.accountId, batch.host, col((r) => r.engine), col((r) => r.date), col((r) => r.query), col((r) => r.page), col((r) => r.country), col((r) => r.device), col((r) => r.clicks), col((r) => r.impressions), col((r) => r.posXImpr)],
      );
    }
  }

  async totals(accountId: number, host: string, liveImports: readonly number[]): Promise<DailyTotal[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<{ engine: Engine; day: string; clicks: string | number; impressions: string | number; pos_x_impr: number }>(
      // DISTINCT: a batch stored twice (a retried add) counts once, as on ClickHouse.
      `SELECT engine, day, sum(clicks)::bigint AS clicks, sum(impressions)::bigint AS impressions, sum(pos_x_impr)::float8 AS pos_x_impr FROM (
         SELECT DISTINCT engine, day, query, page, country, device, clicks, impressions, pos_x_impr, import_id, max(import_id) OVER (PARTITION BY engine, day) AS newest
         FROM search_daily WHERE account_id = $1 AND host = $2 AND query = '' AND page = '' AND country = '' AND device = '' AND import_id = ANY($3::bigint[])
       ) s WHERE import_id = newest GROUP BY engine, day ORDER BY engine, day`,
      [accountId, host, liveImports],
    );
    return rows.map((r) => ({ engine: r.engine, day: r.day, clicks: Number(r.clicks), impressions: Number(r.impressions), posXImpr: Number(r.pos_x_impr) }));
  }

  async drop(importId: number): Promise<void> {
    await this.db.query("DELETE FROM search_daily WHERE import_id = $1", [importId]);
  }
}
