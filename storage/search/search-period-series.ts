import type { Engine, PeriodFact } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";
import type { SerpBatch } from "./serp-series.ts";

/** A period row as stored: sums over the batch's period (and its Compare-mode previous period). */
export interface PeriodSum {
  readonly engine: Engine;
  readonly dim: string;
  readonly key: string;
  readonly key2: string;
  readonly clicks: number;
  readonly impressions: number;
  readonly pos_x_impr: number;
  readonly prev_clicks: number | null;
  readonly prev_impressions: number | null;
  readonly prev_pos_x_impr: number | null;
  /** The batch it came from (its period is the batch's). */
  readonly import_id: number;
}

/** Σ clicks and Σ impressions of the query rows at one rounded position. */
export interface CtrAtRank {
  readonly engine: Engine;
  readonly rank: number;
  readonly clicks: number;
  readonly impressions: number;
}

/**
 * The time-series port for period sums (search_period: GSC Performance's queries, pages,
 * countries, devices, appearances, Yandex query × page). A UI export is a whole: reads take, per
 * engine, the newest of the live batches holding the dimensions asked for, never rows of two
 * exports mixed. The embedded mode keeps them in Postgres, the distributed mode in ClickHouse; the
 * batches stay in Postgres and reads name the live ones (as SerpSeries). A batch holds one row per
 * (engine, dim, key, key2): add() sums repeated keys first (a query normalised to the same text).
 */
export interface SearchPeriodSeries {
  /** Stores a batch's period rows (again: the same rows once); `within` is the import's transaction (used by a store in the account database). */
  add(batch: SerpBatch, rows: readonly PeriodFact[], within?: Queryable): Promise<void>;
  /**
   * Stores more of a batch's rows beside those already stored (an import writing in bounded
   * transactions): the caller merged the whole file first (mergePeriodRows), so the slices are
   * disjoint; nothing is replaced. `within` as for add.
   */
  append(batch: SerpBatch, rows: readonly PeriodFact[], within?: Queryable): Promise<void>;
  /** The rows of dims from, per engine, the newest live batch holding any of dims; query rows only with impressions ≥ minQueryImpressions. Unordered. */
  latest(accountId: number, host: string, dims: readonly string[], liveImports: readonly number[], minQueryImpressions?: number): Promise<PeriodSum[]>;
  /** Σ clicks and Σ impressions per engine and rounded position (half to even) over those newest query rows with impressions and a position. Unordered. */
  ctrByRank(accountId: number, host: string, liveImports: readonly number[]): Promise<CtrAtRank[]>;
  /**
   * One page of those newest query rows (of one engine, or all), most clicks first, then most
   * impressions, then key (code point order), then engine; their total; and the batches they come from.
   */
  queriesPage(accountId: number, host: string, engine: Engine | null, limit: number, offset: number, liveImports: readonly number[]): Promise<{ rows: PeriodSum[]; total: number; imports: number[] }>;
  /** Removes the rows of a deleted batch. */
  drop(importId: number): Promise<void>;
}

const CHUNK_ROWS = 20_000;

export function assertPeriodRow(r: PeriodFact): void {
  for (const [name, n] of [["clicks", r.clicks], ["impressions", r.impressions], ["prevClicks", r.prevClicks ?? 0], ["prevImpressions", r.prevImpressions ?? 0]] as const) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
  }
  for (const [name, n] of [["posXImpr", r.posXImpr], ["prevPosXImpr", r.prevPosXImpr ?? 0]] as const) {
    if (!Number.isFinite(n) || n < 0) throw new RangeError(`${name} must be a non-negative number, got ${n}`);
  }
}

const addNullable = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/** One row per (engine, dim, key, key2), repeated keys summed; checked first. */
export function mergePeriodRows(rows: readonly PeriodFact[]): PeriodFact[] {
  rows.forEach(assertPeriodRow);
  const out = new Map<string, PeriodFact>();
  for (const r of rows) {
    const k = `${r.engine}\n${r.dim}\n${r.key}\n${r.key2}`;
    const o = out.get(k);
    out.set(
      k,
      o
        ? {
            ...o,
            clicks: o.clicks + r.clicks,
            impressions: o.impressions + r.impressions,
            posXImpr: o.posXImpr + r.posXImpr,
            prevClicks: addNullable(o.prevClicks, r.prevClicks),
            prevImpressions: addNullable(o.prevImpressions, r.prevImpressions),
            prevPosXImpr: addNullable(o.prevPosXImpr, r.prevPosXImpr),
          }
        : r,
    );
  }
  return [...out.values()];
}

type Raw = Omit<PeriodSum, "clicks" | "impressions" | "prev_clicks" | "prev_impressions" | "import_id"> & {
  clicks: string | number;
  impressions: string | number;
  prev_clicks: string | number | null;
  prev_impressions: string | number | null;
  import_id: string | number;
};
const nn = (x: string | number | null) => (x === null ? null : Number(x));

/** A stored row as the port answers it (bigint columns arrive as text from some drivers). */
export function periodSum(r: Raw): PeriodSum {
  return {
    engine: r.engine,
    dim: r.dim,
    key: r.key,
    key2: r.key2,
    clicks: Number(r.clicks),
    impressions: Number(r.impressions),
    pos_x_impr: Number(r.pos_x_impr),
    prev_clicks: nn(r.prev_clicks),
    prev_impressions: nn(r.prev_impressions),
    prev_pos_x_impr: nn(r.prev_pos_x_impr),
    import_id: Number(r.import_id),
  };
}

// The newest batch per engine is MATERIALIZED: inlined, a planner without statistics (a fresh
// import) re-ran its aggregate for every row joined, quadratic in the batch's rows. A batch
// belongs to one account and site, so its id and engine select its rows.
const COLUMNS = "p.engine, p.dim, p.key, p.key2, p.clicks, p.impressions, p.pos_x_impr, p.prev_clicks, p.prev_impressions, p.prev_pos_x_impr, p.import_id";

export class PostgresSearchPeriodSeries implements SearchPeriodSeries {
  constructor(private readonly db: Db) {}

  async add(batch: SerpBatch, rows: readonly PeriodFact[], within?: Queryable): Promise<void> {
    const merged = mergePeriodRows(rows);
    const q = within ?? this.db;
    // A retried add of the batch (the same rows) is stored once, as ClickHouse's merge keeps one.
    if (merged.length > 0) await q.query("DELETE FROM search_period WHERE import_id = $1", [batch.importId]);
    await this.insert(batch, merged, q);
  }

  async append(batch: SerpBatch, rows: readonly PeriodFact[], within?: Queryable): Promise<void> {
    await this.insert(batch, mergePeriodRows(rows), within ?? this.db);
  }

  private async insert(batch: SerpBatch, merged: readonly PeriodFact[], q: Queryable): Promise<void> {
    for (let start = 0; start < merged.length; start += CHUNK_ROWS) {
      const chunk = merged.slice(start, start + CHUNK_ROWS);
      const col = <T>(f: (r: PeriodFact) => T) => chunk.map(f);
      await q.query(
        `INSERT INTO search_period (import_id, account_id, host, engine, dim, key, key2, clicks, impressions, pos_x_impr, prev_clicks, prev_impressions, prev_pos_x_impr)
         SELECT $1::bigint, $2::bigint, $3::text, * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::double precision[], $11::bigint[], $12::bigint[], $13::double precision[])`,
        [batch.importId, batch.accountId, batch.host, col((r) => r.engine), col((r) => r.dim), col((r) => r.key), col((r) => r.key2), col((r) => r.clicks), col((r) => r.impressions), col((r) => r.posXImpr), col((r) => r.prevClicks), col((r) => r.prevImpressions), col((r) => r.prevPosXImpr)],
      );
    }
  }

  async latest(accountId: number, host: string, dims: readonly string[], liveImports: readonly number[], minQueryImpressions = 0): Promise<PeriodSum[]> {
    if (liveImports.length === 0 || dims.length === 0) return [];
    const rows = await this.db.query<Raw>(
      `WITH newest AS MATERIALIZED (
         SELECT engine, max(import_id) AS import_id FROM search_period
         WHERE account_id = $1 AND host = $2 AND dim = ANY($3::text[]) AND import_id = ANY($4::bigint[]) GROUP BY engine
       )
       SELECT ${COLUMNS} FROM search_period p JOIN newest n ON n.import_id = p.import_id AND n.engine = p.engine
       WHERE p.dim = ANY($3::text[]) AND (p.dim <> 'query' OR p.impressions >= $5)`,
      [accountId, host, dims, liveImports, minQueryImpressions],
    );
    return rows.map(periodSum);
  }

  async ctrByRank(accountId: number, host: string, liveImports: readonly number[]): Promise<CtrAtRank[]> {
    if (liveImports.length === 0) return [];
    const rows = await this.db.query<{ engine: Engine; rank: number; clicks: string | number; impressions: string | number }>(
      `WITH newest AS MATERIALIZED (
         SELECT engine, max(import_id) AS import_id FROM search_period WHERE account_id = $1 AND host = $2 AND dim = 'query' AND import_id = ANY($3::bigint[]) GROUP BY engine
       )
       SELECT p.engine, round(p.pos_x_impr / p.impressions)::int AS rank, sum(p.clicks)::bigint AS clicks, sum(p.impressions)::bigint AS impressions
       FROM search_period p JOIN newest n ON n.import_id = p.import_id AND n.engine = p.engine
       WHERE p.dim = 'query' AND p.impressions > 0 AND p.pos_x_impr > 0 GROUP BY 1, 2`,
      [accountId, host, liveImports],
    );
    return rows.map((r) => ({ engine: r.engine, rank: Number(r.rank), clicks: Number(r.clicks), impressions: Number(r.impressions) }));
  }

  async queriesPage(accountId: number, host: string, engine: Engine | null, limit: number, offset: number, liveImports: readonly number[]): Promise<{ rows: PeriodSum[]; total: number; imports: number[] }> {
    if (liveImports.length === 0) return { rows: [], total: 0, imports: [] };
    const newest = `WITH newest AS MATERIALIZED (
        SELECT engine, max(import_id) AS import_id FROM search_period
        WHERE account_id = $1 AND host = $2 AND dim = 'query' AND ($3::text IS NULL OR engine = $3::text) AND import_id = ANY($4::bigint[]) GROUP BY engine
      ) `;
    const rows = await this.db.query<Raw>(
      `${newest}SELECT ${COLUMNS} FROM search_period p JOIN newest n ON n.import_id = p.import_id AND n.engine = p.engine
       WHERE p.dim = 'query'
       ORDER BY p.clicks DESC, p.impressions DESC, p.key COLLATE "C", p.engine LIMIT $5 OFFSET $6`,
      [accountId, host, engine, liveImports, limit, offset],
    );
    const meta = await this.db.query<{ import_id: string | number; n: string | number }>(
      `${newest}SELECT n.import_id, (SELECT count(*) FROM search_period p WHERE p.import_id = n.import_id AND p.engine = n.engine AND p.dim = 'query') AS n FROM newest n`,
      [accountId, host, engine, liveImports],
    );
    return { rows: rows.map(periodSum), total: meta.reduce((a, m) => a + Number(m.n), 0), imports: [...new Set(meta.map((m) => Number(m.import_id)))].sort((a, b) => a - b) };
  }

  async drop(importId: number): Promise<void> {
    await this.db.query("DELETE FROM search_period WHERE import_id = $1", [importId]);
  }
}
