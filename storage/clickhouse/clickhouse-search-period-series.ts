import type { Engine, PeriodFact } from "../../analyzer/index.ts";
import { mergePeriodRows, periodSum, type CtrAtRank, type PeriodSum, type SearchPeriodSeries } from "../search/search-period-series.ts";
import type { SerpBatch } from "../search/serp-series.ts";
import { SEARCH_PERIOD_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inline, inList, sql, type Sql } from "../engine/clickhouse-sql.ts";

const COLUMNS = ["account_id", "host", "import_id", "engine", "dim", "key", "key2", "clicks", "impressions", "pos_x_impr", "prev_clicks", "prev_impressions", "prev_pos_x_impr"] as const;

/**
 * SearchPeriodSeries on ClickHouse: one row per (batch, engine, dim, key, key2) after merges (the
 * sorting key); reads use FINAL, so a batch stored twice is read once before the merge too. No
 * window functions on 18.16: the newest batch per engine by a tuple IN.
 */
export class ClickHouseSearchPeriodSeries implements SearchPeriodSeries {
  constructor(private readonly ch: ClickHouse) {}

  /** Stores a batch's rows; a retried add is read once (FINAL, then the merge). */
  async add(batch: SerpBatch, rows: readonly PeriodFact[]): Promise<void> {
    await this.append(batch, rows);
  }

  /** More of a batch's rows (disjoint from those stored): the same insert, nothing to replace here. */
  async append(batch: SerpBatch, rows: readonly PeriodFact[]): Promise<void> {
    const merged = mergePeriodRows(rows);
    if (merged.length === 0) return;
    await this.ch.insert(
      SEARCH_PERIOD_TABLE,
      COLUMNS,
      merged.map((r) => ({
        account_id: batch.accountId,
        host: batch.host,
        import_id: batch.importId,
        engine: r.engine,
        dim: r.dim,
        key: r.key,
        key2: r.key2,
        clicks: r.clicks,
        impressions: r.impressions,
        pos_x_impr: r.posXImpr,
        prev_clicks: r.prevClicks,
        prev_impressions: r.prevImpressions,
        prev_pos_x_impr: r.prevPosXImpr,
      })),
    );
  }

  /** The condition for the rows of `dims` in, per engine, the newest live batch holding any of them. */
  private newest(accountId: number, host: string, dims: readonly string[], liveImports: readonly number[], engine: Engine | null = null): Sql {
    const engineIs = engine === null ? sql`1` : sql`engine = ${engine}`;
    const where = sql`account_id = ${accountId} AND host = ${host} AND dim IN ${inList(dims)} AND import_id IN ${inList(liveImports)} AND ${engineIs}`;
    return sql`${where} AND (engine, import_id) IN (SELECT engine, max(import_id) FROM search_period WHERE ${where} GROUP BY engine)`;
  }

  async latest(accountId: number, host: string, dims: readonly string[], liveImports: readonly number[], minQueryImpressions = 0): Promise<PeriodSum[]> {
    if (liveImports.length === 0 || dims.length === 0) return [];
    const rows = await this.ch.query<Parameters<typeof periodSum>[0]>(
      sql`SELECT engine, dim, key, key2, clicks, impressions, pos_x_impr, prev_clicks, prev_impressions, prev_pos_x_impr, import_id FROM search_period FINAL
          WHERE ${this.newest(accountId, host, dims, liveImports)} AND (dim != 'query' OR impressions >= ${minQueryImpressions})`,
    );
    return rows.map(periodSum);
  }

  async ctrByRank(accountId: number, host: string, liveImports: readonly number[]): Promise<CtrAtRank[]> {
    if (liveImports.length === 0) return [];
    // round() of a Float64 rounds half to even, as Postgres's round(double precision).
    const rows = await this.ch.query<{ e: string; r: string; c: string; i: string }>(
      sql`SELECT engine AS e, toString(toInt64(round(pos_x_impr / impressions))) AS r, toString(sum(clicks)) AS c, toString(sum(impressions)) AS i FROM search_period FINAL
          WHERE ${this.newest(accountId, host, ["query"], liveImports)} AND impressions > 0 AND pos_x_impr > 0 GROUP BY e, r`,
    );
    return rows.map((x) => ({ engine: x.e as Engine, rank: Number(x.r), clicks: Number(x.c), impressions: Number(x.i) }));
  }

  async queriesPage(accountId: number, host: string, engine: Engine | null, limit: number, offset: number, liveImports: readonly number[]): Promise<{ rows: PeriodSum[]; total: number; imports: number[] }> {
    if (liveImports.length === 0) return { rows: [], total: 0, imports: [] };
    const where = this.newest(accountId, host, ["query"], liveImports, engine);
    const rows = await this.ch.query<Parameters<typeof periodSum>[0]>(
      sql`SELECT engine, dim, key, key2, clicks, impressions, pos_x_impr, prev_clicks, prev_impressions, prev_pos_x_impr, import_id FROM search_period FINAL
          WHERE ${where} ORDER BY clicks DESC, impressions DESC, key, engine LIMIT ${inline(offset)}, ${inline(limit)}`,
    );
    const meta = await this.ch.query<{ b: string; n: string }>(sql`SELECT toString(import_id) AS b, toString(count()) AS n FROM search_period FINAL WHERE ${where} GROUP BY import_id`);
    return { rows: rows.map(periodSum), total: meta.reduce((a, m) => a + Number(m.n), 0), imports: meta.map((m) => Number(m.b)).sort((a, b) => a - b) };
  }

  async drop(importId: number): Promise<void> {
    await this.ch.command(sql`ALTER TABLE search_period DELETE WHERE import_id = ${importId}`);
  }
}
