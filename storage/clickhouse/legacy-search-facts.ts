import type { Db } from "../engine/db.ts";
import { BACKLINKS_TABLE, INDEX_ISSUES_TABLE, INDEX_STATUS_TABLE, INDEX_URLS_TABLE, MARKET_DOMAINS_TABLE, MARKET_KEYWORDS_TABLE, RANK_CHECKS_TABLE, SEARCH_DAILY_TABLE, SEARCH_PERIOD_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { ident, sql } from "../engine/clickhouse-sql.ts";

// Issue 19, upgrades: versions before the search-fact ports (migrations 032, 037 and 039) kept
// imported dated facts, rank checks, period sums, backlinks, indexing and market facts in the
// account database in the distributed mode too (SERP snapshots never were: they came with their
// port); since then those ports read ClickHouse only, so such rows were no longer read. This moves
// them once, batch by batch: the batch's rows are copied to ClickHouse in bounded chunks, then
// deleted from Postgres in one transaction. Idempotent: a batch whose ClickHouse rows already
// number the Postgres ones (a crash between the copy and the delete) is only deleted; one with
// some but not all (a crash mid-copy) has them removed first, so no fact is stored twice.

/** A fact table moved: its columns (the same names in both stores) and how a Postgres value becomes ClickHouse's. */
interface Family {
  readonly table: string;
  readonly columns: readonly string[];
  /** ClickHouse's order column rebuilt from the rows' order (Postgres rows of older versions had none, or 0). */
  readonly seq?: boolean;
  readonly convert?: Readonly<Record<string, (v: unknown) => unknown>>;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const BASE = ["account_id", "host", "import_id"];
const BASE_CONVERT = { account_id: num, import_id: num };

const FAMILIES: readonly Family[] = [
  {
    table: SEARCH_PERIOD_TABLE,
    columns: [...BASE, "engine", "dim", "key", "key2", "clicks", "impressions", "pos_x_impr", "prev_clicks", "prev_impressions", "prev_pos_x_impr"],
    convert: { ...BASE_CONVERT, clicks: num, impressions: num, prev_clicks: num, prev_impressions: num },
  },
  {
    table: SEARCH_DAILY_TABLE,
    columns: [...BASE, "engine", "day", "query", "page", "country", "device", "clicks", "impressions", "pos_x_impr"],
    convert: { ...BASE_CONVERT, clicks: num, impressions: num },
  },
  {
    table: RANK_CHECKS_TABLE,
    columns: [...BASE, "provider", "engine", "region", "device", "keyword", "day", "position", "url", "grp", "volume"],
    convert: { ...BASE_CONVERT, region: num, position: num, volume: num },
  },
  {
    table: BACKLINKS_TABLE,
    columns: [...BASE, "provider", "source_url", "target_url", "anchor", "source_domain", "nofollow", "source_rating", "rating_scale", "first_seen", "last_seen", "lost_at"],
    convert: { ...BASE_CONVERT, nofollow: (v) => (v ? 1 : 0), source_rating: num },
  },
  { table: INDEX_STATUS_TABLE, columns: [...BASE, "engine", "day", "indexed", "not_indexed"], convert: { ...BASE_CONVERT, indexed: num, not_indexed: num } },
  { table: INDEX_ISSUES_TABLE, columns: [...BASE, "engine", "reason", "source", "validation", "pages"], seq: true, convert: { ...BASE_CONVERT, pages: num } },
  {
    table: INDEX_URLS_TABLE,
    columns: [...BASE, "engine", "url", "status", "reason", "http_code", "last_crawled", "event", "event_date", "target"],
    convert: { ...BASE_CONVERT, http_code: num },
  },
  {
    table: MARKET_DOMAINS_TABLE,
    columns: [...BASE, "provider", "base", "domain", "common_keywords", "similarity_pct", "visibility", "top10", "pages_in_index"],
    seq: true,
    convert: { ...BASE_CONVERT, common_keywords: num, similarity_pct: num, visibility: num, top10: num, pages_in_index: num },
  },
  {
    table: MARKET_KEYWORDS_TABLE,
    columns: [...BASE, "provider", "base", "domain", "keyword", "position", "url", "volume"],
    convert: { ...BASE_CONVERT, position: num, volume: num },
  },
];

/** The tables whose legacy rows are moved. */
export const LEGACY_FACT_TABLES: readonly string[] = FAMILIES.map((f) => f.table);

export interface LegacyMoveReport {
  readonly batches: number;
  readonly rows: number;
  /** Rows per table. */
  readonly tables: Record<string, number>;
  /** Rows removed whose batch no longer exists (deleted after the upgrade, before the move: its ClickHouse rows were dropped, these never read). */
  readonly orphans: number;
}

/**
 * Moves every complete batch's facts left in the Postgres fact tables into ClickHouse, `chunkRows`
 * rows per read and insert, then deletes them from Postgres (one transaction per batch). Incomplete
 * batches are the sweeper's. `keepGoing` is asked before each batch (a lease renewed; false stops).
 */
export async function moveLegacySearchFacts(db: Db, ch: ClickHouse, opts: { chunkRows?: number; keepGoing?: () => Promise<boolean> } = {}): Promise<LegacyMoveReport> {
  const chunkRows = opts.chunkRows ?? 20_000;
  const tables: Record<string, number> = {};
  let batches = 0;
  let rows = 0;
  const ids = new Set<number>();
  for (const f of FAMILIES) {
    const found = await db.query<{ import_id: string | number }>(
      `SELECT DISTINCT t.import_id FROM ${f.table} t JOIN import_batches b ON b.id = t.import_id AND b.complete`,
    );
    for (const r of found) ids.add(Number(r.import_id));
  }
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (opts.keepGoing && !(await opts.keepGoing())) break;
    let moved = 0;
    for (const f of FAMILIES) {
      const n = await moveTable(db, ch, f, id, chunkRows);
      if (n > 0) tables[f.table] = (tables[f.table] ?? 0) + n;
      moved += n;
    }
    await db.tx(async (q) => {
      for (const f of FAMILIES) await q.query(`DELETE FROM ${f.table} WHERE import_id = $1`, [id]);
    });
    if (moved > 0) batches += 1;
    rows += moved;
  }
  let orphans = 0;
  for (const f of FAMILIES) {
    const gone = await db.query<{ n: string | number }>(
      `WITH d AS (DELETE FROM ${f.table} t WHERE NOT EXISTS (SELECT 1 FROM import_batches b WHERE b.id = t.import_id) RETURNING 1) SELECT count(*) AS n FROM d`,
    );
    orphans += Number(gone[0]?.n ?? 0);
  }
  return { batches, rows, tables, orphans };
}

/** Copies one batch's rows of one table unless ClickHouse holds exactly as many; answers how many the batch has. */
async function moveTable(db: Db, ch: ClickHouse, f: Family, importId: number, chunkRows: number): Promise<number> {
  const pg = Number((await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${f.table} WHERE import_id = $1`, [importId]))[0]?.n ?? 0);
  if (pg === 0) return 0;
  const held = Number((await ch.query<{ n: string }>(sql`SELECT toString(count()) AS n FROM ${ident(f.table)} WHERE import_id = ${importId}`))[0]?.n ?? 0);
  if (held === pg) return pg;
  // A copy cut short: its rows go first (a mutation; rows inserted after it are not touched).
  if (held > 0) {
    await ch.command(sql`ALTER TABLE ${ident(f.table)} DELETE WHERE import_id = ${importId}`);
    // Reads of some tables take no FINAL: the copy goes in once the old rows are gone (18.16 has no mutations_sync).
    for (let waited = 0; ; waited += 100) {
      const pending = await ch.query<{ n: string }>(sql`SELECT toString(count()) AS n FROM system.mutations WHERE database = currentDatabase() AND table = ${f.table} AND is_done = 0`);
      if (Number(pending[0]?.n ?? 0) === 0) break;
      if (waited > 600_000) throw new Error(`the deletion of batch ${importId}'s partial copy in ${f.table} has not finished in 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const columns = f.seq ? [...f.columns, "seq"] : f.columns;
  let after = "(0,0)";
  let seq = 0;
  for (;;) {
    const chunk = await db.query<Record<string, unknown> & { ctid: string }>(
      `SELECT ctid::text AS ctid, ${f.columns.join(", ")} FROM ${f.table} WHERE import_id = $1 AND ctid > $2::tid ORDER BY ctid LIMIT $3`,
      [importId, after, chunkRows],
    );
    if (chunk.length === 0) break;
    after = chunk[chunk.length - 1]!.ctid;
    await ch.insert(
      f.table,
      columns,
      chunk.map((r) => {
        const row: Record<string, unknown> = {};
        for (const c of f.columns) row[c] = f.convert?.[c] ? f.convert[c](r[c]) : r[c];
        if (f.seq) row.seq = seq++;
        return row;
      }),
    );
    if (chunk.length < chunkRows) break;
  }
  return pg;
}
