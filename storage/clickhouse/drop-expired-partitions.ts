import { MONTHLY_TABLES } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { ident, inline, inList, sql } from "../engine/clickhouse-sql.ts";

export interface DroppedPartition {
  readonly table: string;
  /** YYYYMM */
  readonly month: string;
}

/**
 * Retention: drops the monthly partitions of the time-series tables that end before the month
 * `keepMonths` months back from `nowSeconds`'s month (UTC). With 13 and now in March 2024, 2023-02
 * and later stay: nothing younger than 13 months is dropped. For the scheduler to call now and
 * then; dropping a partition is cheap and drops whole months at once (TTL would delete rows at
 * merge time, and 18.16 has none).
 */
export async function dropExpiredPartitions(ch: ClickHouse, keepMonths: number, nowSeconds: number): Promise<DroppedPartition[]> {
  if (!Number.isInteger(keepMonths) || keepMonths < 1) throw new RangeError(`keepMonths must be a positive integer, got ${keepMonths}`);
  if (!Number.isFinite(nowSeconds)) throw new RangeError(`nowSeconds must be a number of seconds, got ${nowSeconds}`);
  const now = new Date(nowSeconds * 1000);
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - keepMonths, 1));
  const oldestKept = first.getUTCFullYear() * 100 + first.getUTCMonth() + 1;
  const parts = await ch.query<{ table: string; partition_id: string }>(
    sql`SELECT DISTINCT table, partition_id FROM system.parts
        WHERE database = currentDatabase() AND active AND table IN ${inList(MONTHLY_TABLES)}
        ORDER BY table, partition_id`,
  );
  const dropped: DroppedPartition[] = [];
  for (const p of parts) {
    // Only month partitions are ours to drop; anything else is left for a person to look at.
    if (!/^\d{6}$/.test(p.partition_id) || Number(p.partition_id) >= oldestKept) continue;
    // inline(): a partition ID must be a literal, also on servers with query parameters.
    await ch.command(sql`ALTER TABLE ${ident(p.table)} DROP PARTITION ID ${inline(p.partition_id)}`);
    dropped.push({ table: p.table, month: p.partition_id });
  }
  return dropped;
}
