import type { DailyFact, Engine } from "../../analyzer/index.ts";
import { assertDailyRow, type DailyTotal, type SearchDailySeries } from "../search/search-daily-series.ts";
import type { SerpBatch } from "../search/serp-series.ts";
import { SEARCH_DAILY_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inList, sql } from "../engine/clickhouse-sql.ts";

const COLUMNS = ["account_id", "host", "import_id", "engine", "day", "query", "page", "country", "device", "clicks", "impressions", "pos_x_impr"] as const;

/**
 * SearchDailySeries on ClickHouse: one row per (batch, engine, day, query, page, country, device)
 * after merges; reads use FINAL, so a batch stored twice is summed once before the merge too.
 */
export class ClickHouseSearchDailySeries implements SearchDailySeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(batch: SerpBatch, rows: readonly DailyFact[]): Promise<void> {
    rows.forEach(assertDailyRow);
    if (rows.length === 0) return;
    await this.ch.insert(
      SEARCH_DAILY_TABLE,
      COLUMNS,
      rows.map((r) => ({ account_id: batch.accountId, host: batch.host, import_id: batch.importId, engine: r.engine, day: r.date, query: r.query, page: r.page, country: r.country, device: r.device, clicks: r.clicks, impressions: r.impressions, pos_x_impr: r.posXImpr })),
    );
  }

  async totals(accountId: number, host: string, liveImports: readonly number[]): Promise<DailyTotal[]> {
    if (liveImports.length === 0) return [];
    const where = sql`account_id = ${accountId} AND host = ${host} AND query = '' AND page = '' AND country = '' AND device = '' AND import_id IN ${inList(liveImports)}`;
    // Aliases differ from the columns: a ClickHouse alias is visible in the whole query.
    const rows = await this.ch.query<{ e: string; d: string; c: string; i: string; p: number }>(
      sql`SELECT engine AS e, toString(day) AS d, toString(sum(clicks)) AS c, toString(sum(impressions)) AS i, sum(pos_x_impr) AS p
          FROM search_daily FINAL
          WHERE ${where} AND (engine, day, import_id) IN (SELECT engine, day, max(import_id) FROM search_daily WHERE ${where} GROUP BY engine, day)
          GROUP BY engine, day ORDER BY engine, day`,
    );
    return rows.map((r) => ({ engine: r.e as Engine, day: r.d, clicks: Number(r.c), impressions: Number(r.i), posXImpr: Number(r.p) }));
  }

  async drop(importId: number): Promise<void> {
    await this.ch.command(sql`ALTER TABLE search_daily DELETE WHERE import_id = ${importId}`);
  }
}
