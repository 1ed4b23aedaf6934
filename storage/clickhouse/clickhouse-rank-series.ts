import type { Engine, RankFact } from "../../analyzer/index.ts";
import { assertRankRow, movesOf, sortRankRows, type MarketMoves, type RankBatch, type RankRow, type RankSeries } from "../search/rank-series.ts";
import { RANK_CHECKS_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inList, sql } from "../engine/clickhouse-sql.ts";

const COLUMNS = ["account_id", "host", "import_id", "provider", "engine", "region", "device", "keyword", "day", "position", "url", "grp", "volume"] as const;

interface Row {
  e: string;
  region: number;
  device: string;
  keyword: string;
  d: string;
  p: number | null;
  u: string | null;
  grp: string;
  v: string | null;
}

/**
 * RankSeries on ClickHouse: one row per (batch, query, day) after merges; reads use FINAL and
 * take, per query and day, the newest live batch by a tuple IN (18.16 has no window functions).
 * Aliases differ from column names: a ClickHouse alias is visible in the whole query.
 */
export class ClickHouseRankSeries implements RankSeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(batch: RankBatch, rows: readonly RankFact[]): Promise<void> {
    rows.forEach(assertRankRow);
    if (rows.length === 0) return;
    await this.ch.insert(
      RANK_CHECKS_TABLE,
      COLUMNS,
      rows.map((r) => ({ account_id: batch.accountId, host: batch.host, import_id: batch.importId, provider: batch.provider, engine: r.engine, region: r.region, device: r.device, keyword: r.keyword, day: r.date, position: r.position, url: r.url, grp: r.group, volume: r.volume })),
    );
  }

  async read(accountId: number, host: string, sinceDay: string, liveImports: readonly number[]): Promise<RankRow[]> {
    if (liveImports.length === 0) return [];
    const where = sql`account_id = ${accountId} AND host = ${host} AND day >= toDate(${sinceDay}) AND import_id IN ${inList(liveImports)}`;
    const rows = await this.ch.query<Row>(
      sql`SELECT engine AS e, region, device, keyword, toString(day) AS d, position AS p, url AS u, grp, toString(volume) AS v FROM rank_checks FINAL
          WHERE ${where} AND (engine, region, device, keyword, day, import_id) IN (
            SELECT engine, region, device, keyword, day, max(import_id) FROM rank_checks WHERE ${where} GROUP BY engine, region, device, keyword, day)`,
    );
    return sortRankRows(
      rows.map((r) => ({ engine: r.e as Engine, region: Number(r.region), device: r.device, keyword: r.keyword, day: r.d, position: r.p === null ? null : Number(r.p), url: r.u, grp: r.grp, volume: r.v === null ? null : Number(r.v) })),
    );
  }

  async volumes(accountId: number, host: string, liveImports: readonly number[]): Promise<Map<string, number>> {
    if (liveImports.length === 0) return new Map();
    const rows = await this.ch.query<{ k: string; v: string }>(
      sql`SELECT keyword AS k, toString(argMax(volume, (day, import_id))) AS v FROM rank_checks
          WHERE account_id = ${accountId} AND host = ${host} AND volume IS NOT NULL AND import_id IN ${inList(liveImports)} GROUP BY keyword`,
    );
    return new Map(rows.map((r) => [r.k, Number(r.v)]));
  }

  async moves(sinceDay: string, liveImports: readonly number[]): Promise<MarketMoves[]> {
    if (liveImports.length === 0) return [];
    const where = sql`day >= toDate(${sinceDay}) - 1 AND import_id IN ${inList(liveImports)}`;
    const rows = await this.ch.query<{ a: string; h: string; e: string; region: number; device: string; keyword: string; d: string; p: number | null }>(
      sql`SELECT toString(account_id) AS a, host AS h, engine AS e, region, device, keyword, toString(day) AS d, position AS p
          FROM rank_checks FINAL WHERE ${where} AND (account_id, host, engine, region, device, keyword, day, import_id) IN (
            SELECT account_id, host, engine, region, device, keyword, day, max(import_id) FROM rank_checks WHERE ${where} GROUP BY account_id, host, engine, region, device, keyword, day)`,
    );
    return movesOf(
      rows.map((r) => ({ series: JSON.stringify([r.a, r.h, r.e, Number(r.region), r.device, r.keyword]), engine: r.e as Engine, day: r.d, position: r.p === null ? null : Number(r.p) })),
      sinceDay,
    );
  }

  async drop(importId: number): Promise<void> {
    await this.ch.command(sql`ALTER TABLE rank_checks DELETE WHERE import_id = ${importId}`);
  }
}
