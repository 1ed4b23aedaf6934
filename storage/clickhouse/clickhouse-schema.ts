import type { ClickHouse } from "./open-clickhouse.ts";
import { sql, type Sql } from "./sql-template.ts";

// The time-series tables. Every table is partitioned by month of its time column, so retention is a
// DROP PARTITION (see drop-expired-partitions.ts), and ordered for the API's reads: by host or key
// first, then time or run. Statements stay within what ClickHouse 18.16 accepts: no TTL, no CODEC,
// no LowCardinality (it would need allow_experimental_low_cardinality_type on 18.16; the columns
// it would suit are short strings that compress well anyway).

/** Per key and UTC day, summed by the engine on merge; reads sum again, so they are exact at any time. */
export const USAGE_TABLE = "usage_daily";
/** Per-check results of finished analyses; one row per (run, code) after merges, the highest attempt. */
export const CHECKS_TABLE = "check_results";

/** Tables whose partitions are months (toYYYYMM), for retention. */
export const MONTHLY_TABLES: readonly string[] = [USAGE_TABLE, CHECKS_TABLE];

const TABLES: readonly Sql[] = [
  sql`CREATE TABLE IF NOT EXISTS usage_daily (
    key_id  UInt64,
    day     Date,
    calls   Int64,
    errors  Int64,
    limited Int64
  ) ENGINE = SummingMergeTree((calls, errors, limited))
  PARTITION BY toYYYYMM(day)
  ORDER BY (key_id, day)`,
  // ReplacingMergeTree(attempt): the natural key (host, run_id, code) is the sorting key and the
  // attempt is the version, so a rewrite of a check, retried or replayed, leaves one row. Merges
  // happen within a partition only; reads therefore pick the highest attempt themselves (argMax).
  sql`CREATE TABLE IF NOT EXISTS check_results (
    host        String,
    run_id      UInt64,
    code        String,
    attempt     UInt32,
    job_id      UInt64,
    checked_at  DateTime('UTC'),
    status      String,
    value       Nullable(String),
    check_group String
  ) ENGINE = ReplacingMergeTree(attempt)
  PARTITION BY toYYYYMM(checked_at)
  ORDER BY (host, run_id, code)`,
];

/**
 * Creates the tables that are missing. Idempotent, and safe when several processes start at once;
 * the database itself must exist. CREATE … IF NOT EXISTS leaves an existing table alone, so a later
 * change to a table needs an ALTER step of its own (18.16 has no ADD COLUMN IF NOT EXISTS).
 */
export async function ensureClickHouseSchema(ch: ClickHouse): Promise<void> {
  for (const statement of TABLES) await ch.command(statement);
}
