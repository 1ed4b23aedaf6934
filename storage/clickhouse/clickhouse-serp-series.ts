import type { SerpFact, SerpResult } from "../../analyzer/index.ts";
import { assertSerpRow, type SerpBatch, type SerpSeries } from "../search/serp-series.ts";
import { SERP_SNAPSHOTS_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inList, sql, type Sql } from "../engine/clickhouse-sql.ts";

const COLUMNS = ["account_id", "host", "import_id", "engine", "region", "device", "keyword", "day", "rank", "domain", "url"] as const;

/**
 * SerpSeries on ClickHouse. The batches stay in Postgres (their transaction is the import's); the
 * rows are inserted while it is open, so a failed insert fails the import. Reads take only the
 * batches the caller names as live; a deleted batch's rows go by a mutation (ALTER … DELETE).
 */
export class ClickHouseSerpSeries implements SerpSeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(batch: SerpBatch, rows: readonly SerpFact[]): Promise<void> {
    rows.forEach(assertSerpRow);
    if (rows.length === 0) return;
    await this.ch.insert(
      SERP_SNAPSHOTS_TABLE,
      COLUMNS,
      rows.map((r) => ({ account_id: batch.accountId, host: batch.host, import_id: batch.importId, engine: r.engine, region: r.region, device: r.device, keyword: r.keyword, day: r.date, rank: r.rank, domain: r.domain, url: r.url })),
    );
  }

  async read(accountId: number, host: string, sinceDay: string, liveImports: readonly number[]): Promise<SerpResult[]> {
    if (liveImports.length === 0) return [];
    return this.newestLists(sql`account_id = ${accountId} AND host = ${host} AND day >= toDate(${sinceDay}) AND import_id IN ${inList(liveImports)}`);
  }

  async readMarket(sinceDay: string, liveImports: readonly number[]): Promise<SerpResult[]> {
    if (liveImports.length === 0) return [];
    return this.newestLists(sql`day >= toDate(${sinceDay}) AND import_id IN ${inList(liveImports)}`);
  }

  /** The newest batch's list per query and day among the rows `where` selects. */
  private async newestLists(where: Sql): Promise<SerpResult[]> {
    // No window functions on 18.16: the newest batch per query and day by a tuple IN; DISTINCT
    // because a batch stored twice is two copies until a merge.
    // The day comes back as d: an alias named day would replace the column in WHERE (ClickHouse
    // aliases are visible in the whole query).
    const rows = await this.ch.query<{ engine: string; region: number; device: string; keyword: string; d: string; rank: number; domain: string }>(
      sql`SELECT DISTINCT engine, region, device, keyword, toString(day) AS d, rank, domain FROM serp_snapshots
          WHERE ${where} AND (engine, region, device, keyword, day, import_id) IN (
            SELECT engine, region, device, keyword, day, max(import_id) FROM serp_snapshots WHERE ${where}
            GROUP BY engine, region, device, keyword, day)`,
    );
    return rows.map((r) => ({ engine: r.engine, region: Number(r.region), device: r.device, keyword: r.keyword, day: r.d, rank: Number(r.rank), domain: r.domain }));
  }

  async latestDay(accountId: number, host: string, liveImports: readonly number[]): Promise<string | null> {
    if (liveImports.length === 0) return null;
    const [row] = await this.ch.query<{ d: string; n: string }>(
      sql`SELECT toString(max(day)) AS d, toString(count()) AS n FROM serp_snapshots WHERE account_id = ${accountId} AND host = ${host} AND import_id IN ${inList(liveImports)}`,
    );
    return row && Number(row.n) > 0 ? row.d : null;
  }

  async drop(importId: number): Promise<void> {
    await this.ch.command(sql`ALTER TABLE serp_snapshots DELETE WHERE import_id = ${importId}`);
  }
}
