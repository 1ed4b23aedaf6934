import type { BacklinkFact } from "../../analyzer/index.ts";
import type { Db, Queryable } from "../engine/db.ts";
import { insertColumns, type Column } from "./fact-insert.ts";
import type { SerpBatch } from "./serp-series.ts";

/** A batch of backlinks: the provider is stored with each link. */
export interface BacklinkBatch extends SerpBatch {
  readonly provider: string;
}

export interface BacklinkRow {
  readonly source_url: string;
  readonly target_url: string;
  readonly anchor: string;
  readonly nofollow: boolean;
  readonly source_rating: number | null;
  readonly rating_scale: string | null;
  readonly first_seen: string | null;
  readonly last_seen: string | null;
  readonly lost_at: string | null;
  readonly provider: string;
}

/**
 * The time-series port for imported backlinks (Ahrefs, Semrush, GSC Latest links). A link
 * is (source, target, anchor); reads take each link's row from the newest live batch that has it,
 * so a later export replaces an older one's row and deleting it reveals the older row again. Live =
 * no lost day. Postgres in the embedded mode, ClickHouse in the distributed one; the batches stay in
 * Postgres and reads name the live ones.
 */
export interface BacklinkSeries {
  /**
   * Stores a batch's links, one per link (the file's last row of it). `within` is a transaction of
   * the account database (a store there writes in it; another store ignores it). May be called
   * several times for one batch with disjoint links (an import in bounded transactions); the same
   * link twice in one batch is not expected (not idempotent: the import deduplicates the file first).
   */
  add(batch: BacklinkBatch, links: readonly BacklinkFact[], within?: Queryable): Promise<void>;
  /**
   * Called once the batch's links are all stored, in the transaction that makes the batch live
   * (`liveImports` names the live batches after it, this one included): a store that keeps
   * derived state (Postgres: the superseded marks and the totals) brings it up to date.
   */
  seal(batch: BacklinkBatch, liveImports: readonly number[], within?: Queryable): Promise<void>;
  /**
   * One page of the site's live or lost links (newest live batch's row per link): live by rating
   * (highest first, unrated last), then first seen (newest first, unknown last); lost by lost day
   * (newest first); ties by source, target and anchor in code point order. With their total.
   */
  page(accountId: number, host: string, state: "live" | "lost", limit: number, offset: number, liveImports: readonly number[]): Promise<{ rows: BacklinkRow[]; total: number }>;
  /** Each link's first-seen and lost days (newest live batch's row per link), ordered by link. */
  dates(accountId: number, host: string, liveImports: readonly number[]): Promise<{ first_seen: string | null; lost_at: string | null }[]>;
  /** Removes a batch's links (the batch is no longer live when this runs); `sealed` false for a batch that never was (an import that failed or stopped). */
  drop(importId: number, liveImports: readonly number[], sealed?: boolean): Promise<void>;
}

/** One row per link, the last of the file; checked first. */
export function uniqueLinks(links: readonly BacklinkFact[]): BacklinkFact[] {
  for (const l of links) {
    if (l.sourceRating !== null && !Number.isSafeInteger(l.sourceRating)) throw new RangeError(`sourceRating must be an integer or null, got ${l.sourceRating}`);
  }
  return [...new Map(links.map((r) => [`${r.sourceUrl}\n${r.targetUrl}\n${r.anchor}`, r])).values()];
}

const t = (name: string): Column => [name, "text"];
const COLUMNS: readonly Column[] = [["import_id", "bigint"], ["account_id", "bigint"], t("host"), t("provider"), t("source_url"), t("target_url"), t("anchor"), t("source_domain"), ["nofollow", "boolean"], ["source_rating", "integer"], t("rating_scale"), t("first_seen"), t("last_seen"), t("lost_at")];
const READ = "source_url, target_url, anchor, nofollow, source_rating, rating_scale, first_seen, last_seen, lost_at, provider";

/**
 * BacklinkSeries on Postgres. The newest row of each link is kept unsuperseded (older rows of the
 * link superseded) when a batch is sealed and when one is dropped, and the live and lost totals are
 * counted then too (backlink_totals), so a read is an index scan (migration 032's partial indexes)
 * rather than a deduplication of every row per request. A batch's rows are stored unsuperseded but
 * not read before it is live (the live list filters them), so an import in bounded transactions
 * stays invisible until its final commit.
 */
export class PostgresBacklinkSeries implements BacklinkSeries {
  constructor(private readonly db: Db) {}

  async add(batch: BacklinkBatch, links: readonly BacklinkFact[], within?: Queryable): Promise<void> {
    const rows = uniqueLinks(links);
    const own = [batch.importId, batch.accountId, batch.host, batch.provider] as const;
    await insertColumns(within ?? this.db, "backlinks", COLUMNS, rows.map((r) => [...own, r.sourceUrl, r.targetUrl, r.anchor, r.sourceDomain, r.nofollow, r.sourceRating, r.ratingScale, r.firstSeen, r.lastSeen, r.lostAt]));
  }

  async seal(batch: BacklinkBatch, liveImports: readonly number[], within?: Queryable): Promise<void> {
    const q = within ?? this.db;
    if ((await q.query("SELECT 1 FROM backlinks WHERE import_id = $1 LIMIT 1", [batch.importId])).length === 0) return;
    if ((await q.query("SELECT 1 FROM backlinks WHERE account_id = $1 AND host = $2 AND import_id < $3 AND NOT superseded LIMIT 1", [batch.accountId, batch.host, batch.importId])).length > 0) {
      await q.query(
        `UPDATE backlinks o SET superseded = true FROM backlinks n
         WHERE n.import_id = $1 AND o.account_id = $2 AND o.host = $3 AND o.import_id < $1 AND NOT o.superseded
           AND o.source_url = n.source_url AND o.target_url = n.target_url AND o.anchor = n.anchor`,
        [batch.importId, batch.accountId, batch.host],
      );
    }
    await refreshTotals(q, batch.accountId, batch.host, liveImports);
    // After a large batch the planner's statistics predate it (autovacuum comes later): estimating
    // the site's rows at 1, it sorted 900,000 links per page (2 s) instead of walking the partial
    // index in order (bench:imports). ANALYZE samples the table (about 30,000 rows) once.
    if ((await q.query("SELECT 1 FROM backlinks WHERE import_id = $1 OFFSET 10000 LIMIT 1", [batch.importId])).length > 0) await q.query("ANALYZE backlinks");
  }

  async page(accountId: number, host: string, state: "live" | "lost", limit: number, offset: number, liveImports: readonly number[]): Promise<{ rows: BacklinkRow[]; total: number }> {
    if (liveImports.length === 0) return { rows: [], total: 0 };
    const where = `account_id = $1 AND host = $2 AND NOT superseded AND import_id = ANY($5::bigint[]) AND ${state === "live" ? "lost_at IS NULL" : "lost_at IS NOT NULL"}`;
    const rows = await this.db.query<BacklinkRow>(
      `SELECT ${READ} FROM backlinks WHERE ${where}
       ORDER BY ${state === "live" ? "source_rating DESC NULLS LAST, first_seen DESC NULLS LAST" : "lost_at DESC"}, source_url COLLATE "C", target_url COLLATE "C", anchor COLLATE "C" LIMIT $3 OFFSET $4`,
      [accountId, host, limit, offset, liveImports],
    );
    // The totals are counted when a batch is sealed or dropped, not per request.
    const total = await this.db.query<{ n: number | string }>(`SELECT ${state === "live" ? "live" : "lost"} AS n FROM backlink_totals WHERE account_id = $1 AND host = $2`, [accountId, host]);
    return { rows: rows.map(backlinkRow), total: Number(total[0]?.n ?? 0) };
  }

  async dates(accountId: number, host: string, liveImports: readonly number[]): Promise<{ first_seen: string | null; lost_at: string | null }[]> {
    if (liveImports.length === 0) return [];
    return this.db.query(
      `SELECT first_seen, lost_at FROM (
         SELECT DISTINCT ON (source_url, target_url, anchor) source_url, target_url, anchor, first_seen, lost_at FROM backlinks
         WHERE account_id = $1 AND host = $2 AND import_id = ANY($3::bigint[]) ORDER BY source_url, target_url, anchor, import_id DESC
       ) l ORDER BY source_url COLLATE "C", target_url COLLATE "C", anchor COLLATE "C"`,
      [accountId, host, liveImports],
    );
  }

  async drop(importId: number, liveImports: readonly number[], sealed = true): Promise<void> {
    // A batch never sealed superseded nothing and was never counted: its rows just go.
    if (!sealed) {
      await this.db.query("DELETE FROM backlinks WHERE import_id = $1", [importId]);
      return;
    }
    await this.db.tx(async (q) => {
      const site = await q.query<{ account_id: number | string; host: string }>("SELECT account_id, host FROM backlinks WHERE import_id = $1 LIMIT 1", [importId]);
      if (!site[0]) return;
      const accountId = Number(site[0].account_id);
      // The links this batch held newest become the newest of the live batches left.
      await q.query(
        `WITH gone AS (SELECT host, source_url, target_url, anchor FROM backlinks WHERE import_id = $1 AND NOT superseded),
         best AS (
           SELECT o.host, o.source_url, o.target_url, o.anchor, max(o.import_id) AS import_id FROM backlinks o
           JOIN gone g ON g.host = o.host AND g.source_url = o.source_url AND g.target_url = o.target_url AND g.anchor = o.anchor
           WHERE o.account_id = $2 AND o.import_id <> $1 AND o.import_id = ANY($3::bigint[]) GROUP BY 1, 2, 3, 4
         )
         UPDATE backlinks o SET superseded = false FROM best b
         WHERE o.account_id = $2 AND o.host = b.host AND o.import_id = b.import_id AND o.source_url = b.source_url AND o.target_url = b.target_url AND o.anchor = b.anchor`,
        [importId, accountId, liveImports],
      );
      await q.query("DELETE FROM backlinks WHERE import_id = $1", [importId]);
      await refreshTotals(q, accountId, site[0].host, liveImports.filter((id) => id !== importId));
    });
  }
}

/** Recounts a site's live and lost links (the unsuperseded rows of live batches) into backlink_totals. */
async function refreshTotals(q: Queryable, accountId: number, host: string, liveImports: readonly number[]): Promise<void> {
  await q.query(
    `INSERT INTO backlink_totals (account_id, host, live, lost)
     SELECT $1, $2, count(*) FILTER (WHERE lost_at IS NULL), count(*) FILTER (WHERE lost_at IS NOT NULL) FROM backlinks
     WHERE account_id = $1 AND host = $2 AND NOT superseded AND import_id = ANY($3::bigint[])
     ON CONFLICT (account_id, host) DO UPDATE SET live = EXCLUDED.live, lost = EXCLUDED.lost`,
    [accountId, host, liveImports],
  );
}

type RawLink = Omit<BacklinkRow, "nofollow" | "source_rating"> & { nofollow: boolean | number | string; source_rating: number | string | null };

/** A stored link as the port answers it (drivers differ in how they give booleans and integers). */
export function backlinkRow(r: RawLink): BacklinkRow {
  return {
    source_url: r.source_url,
    target_url: r.target_url,
    anchor: r.anchor,
    nofollow: r.nofollow === true || r.nofollow === 1 || r.nofollow === "1" || r.nofollow === "true",
    source_rating: r.source_rating === null ? null : Number(r.source_rating),
    rating_scale: r.rating_scale,
    first_seen: r.first_seen,
    last_seen: r.last_seen,
    lost_at: r.lost_at,
    provider: r.provider,
  };
}
