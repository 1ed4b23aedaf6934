import type { SerpFact, SerpResult } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";

/**
 * The time-series port for SERP snapshots: the domains ranking per tracked query and
 * day, as imported rank-tracker snapshots bring them. The embedded mode keeps them in Postgres
 * (serp_snapshots), the distributed mode in ClickHouse. The batches stay in Postgres either way:
 * reads name the batches that still exist, so rows of a batch that never committed or was deleted
 * (drop() removes them; on ClickHouse a mutation that runs later) are never read.
 */
export interface SerpSeries {
  /**
   * Stores an import batch's snapshot rows. `within` is the import's transaction: a store in the
   * account database writes in it (all or nothing); another store ignores it, and its rows of a
   * batch that never commits stay invisible (no live batch names them).
   */
  add(batch: SerpBatch, rows: readonly SerpFact[], within?: Queryable): Promise<void>;
  /**
   * The site's results on days ≥ sinceDay from the live batches: for each query (engine, region,
   * device, keyword) and day, the list of the newest of those batches that has one (a day's list
   * is a whole: never mixed from two imports). Unordered.
   */
  read(accountId: number, host: string, sinceDay: string, liveImports: readonly number[]): Promise<SerpResult[]>;
  /**
   * Every site's results on days ≥ sinceDay from the live batches named, whichever account or site
   * imported them: per query (engine, region, device, keyword) and day, the list of the newest of
   * those batches that has one. For the market line of volatility (callers show aggregates only).
   */
  readMarket(sinceDay: string, liveImports: readonly number[]): Promise<SerpResult[]>;
  /** The newest day with a snapshot of the site in the live batches, null without one. */
  latestDay(accountId: number, host: string, liveImports: readonly number[]): Promise<string | null>;
  /** Removes the rows of a deleted batch (SearchRepo.deleteBatch calls it). */
  drop(importId: number): Promise<void>;
}

export interface SerpBatch {
  readonly importId: number;
  readonly accountId: number;
  readonly host: string;
}

const CHUNK_ROWS = 20_000;

export function assertSerpRow(r: SerpFact): void {
  if (!Number.isSafeInteger(r.rank) || r.rank < 1) throw new RangeError(`rank must be a positive integer, got ${r.rank}`);
  if (!Number.isSafeInteger(r.region) || r.region < 0) throw new RangeError(`region must be a non-negative integer, got ${r.region}`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(r.date)) throw new RangeError(`not a day: ${JSON.stringify(r.date)}`);
}

export class PostgresSerpSeries implements SerpSeries {
  constructor(private readonly db: Db) {}

  async add(batch: SerpBatch, rows: readonly SerpFact[], within?: Queryable): Promise<void> {
    rows.forEach(assertSerpRow);
    const q = within ?? this.db;
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const chunk = rows.slice(start, start + CHUNK_ROWS);
      const col = <T>(f: (r: SerpFact) => T) => chunk.map(f);
      await q.query(
        `INSERT INTO serp_snapshots (import_id, account_id, host, engine, region, device, keyword, day, rank, domain, url)
         SELECT $1::bigint, $2::bigint, $3::text, * FROM unnest($4::text[], $5::integer[], $6::text[], $7::text[], $8::text[], $9::integer[], $10::text[], $11::text[])`,
        [batch.importId, batch.accountId, batch.host, col((r) => r.engine), col((r) => r.region), col((r) => r.device), col((r) => r.keyword), col((r) => r.date), col((r) => r.rank), col((r) => r.domain), col((r) => r.url)],
      );
    }
  }

  async read(accountId: number, host: string, sinceDay: string, liveImports: readonly number[]): Promise<SerpResult[]> {
    if (liveImports.length === 0) return [];
    return this.db.query<SerpResult>(
      // DISTINCT: a batch stored twice (a retried add) is read once, as on ClickHouse.
      `SELECT DISTINCT engine, region, device, keyword, day, rank, domain FROM (
         SELECT engine, region, device, keyword, day, rank, domain, import_id,
                max(import_id) OVER (PARTITION BY engine, region, device, keyword, day) AS newest
         FROM serp_snapshots WHERE account_id = $1 AND host = $2 AND day >= $3 AND import_id = ANY($4::bigint[])
       ) s WHERE import_id = newest`,
      [accountId, host, sinceDay, liveImports],
    );
  }

  async readMarket(sinceDay: string, liveImports: readonly number[]): Promise<SerpResult[]> {
    if (liveImports.length === 0) return [];
    return this.db.query<SerpResult>(
      `SELECT DISTINCT engine, region, device, keyword, day, rank, domain FROM (
         SELECT engine, region, device, keyword, day, rank, domain, import_id,
                max(import_id) OVER (PARTITION BY engine, region, device, keyword, day) AS newest
         FROM serp_snapshots WHERE day >= $1 AND import_id = ANY($2::bigint[])
       ) s WHERE import_id = newest`,
      [sinceDay, liveImports],
    );
  }

  async latestDay(accountId: number, host: string, liveImports: readonly number[]): Promise<string | null> {
    if (liveImports.length === 0) return null;
    const [row] = await this.db.query<{ day: string | null }>("SELECT max(day) AS day FROM serp_snapshots WHERE account_id = $1 AND host = $2 AND import_id = ANY($3::bigint[])", [accountId, host, liveImports]);
    return row?.day ?? null;
  }

  async drop(importId: number): Promise<void> {
    await this.db.query("DELETE FROM serp_snapshots WHERE import_id = $1", [importId]);
  }
}
