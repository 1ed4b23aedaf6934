import type { BacklinkFact } from "../../analyzer/index.ts";
import { backlinkRow, uniqueLinks, type BacklinkBatch, type BacklinkRow, type BacklinkSeries } from "../search/backlink-series.ts";
import { BACKLINKS_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inline, inList, sql, type Sql } from "../engine/clickhouse-sql.ts";

const COLUMNS = ["account_id", "host", "import_id", "provider", "source_url", "target_url", "anchor", "source_domain", "nofollow", "source_rating", "rating_scale", "first_seen", "last_seen", "lost_at"] as const;

/**
 * BacklinkSeries on ClickHouse: one row per (batch, link). Reads take each link's row of the newest
 * live batch by a tuple IN (18.16 has no window functions), or, when one live batch of the site has
 * links (the common case), that batch's rows directly. No FINAL: a batch's links are stored once
 * (add() keeps one row per link and an import's adds are disjoint), and FINAL over a million rows
 * costs seconds (bench:imports). Nothing derived is kept, so seal() has nothing to do and drop() is
 * one mutation.
 */
export class ClickHouseBacklinkSeries implements BacklinkSeries {
  constructor(private readonly ch: ClickHouse) {}

  async add(batch: BacklinkBatch, links: readonly BacklinkFact[]): Promise<void> {
    const rows = uniqueLinks(links);
    if (rows.length === 0) return;
    await this.ch.insert(
      BACKLINKS_TABLE,
      COLUMNS,
      rows.map((r) => ({
        account_id: batch.accountId,
        host: batch.host,
        import_id: batch.importId,
        provider: batch.provider,
        source_url: r.sourceUrl,
        target_url: r.targetUrl,
        anchor: r.anchor,
        source_domain: r.sourceDomain,
        nofollow: r.nofollow ? 1 : 0,
        source_rating: r.sourceRating,
        rating_scale: r.ratingScale,
        first_seen: r.firstSeen,
        last_seen: r.lastSeen,
        lost_at: r.lostAt,
      })),
    );
  }

  async seal(): Promise<void> {}

  /** The condition for each link's row of the newest live batch that has it; null when no live batch has links. */
  private async newest(accountId: number, host: string, liveImports: readonly number[]): Promise<Sql | null> {
    const site = sql`account_id = ${accountId} AND host = ${host}`;
    const held = await this.ch.query<{ b: string }>(sql`SELECT DISTINCT toString(import_id) AS b FROM backlinks WHERE ${site} AND import_id IN ${inList(liveImports)}`);
    const batches = held.map((r) => Number(r.b));
    if (batches.length === 0) return null;
    if (batches.length === 1) return sql`${site} AND import_id = ${batches[0]!}`;
    const where = sql`${site} AND import_id IN ${inList(batches)}`;
    return sql`${where} AND (source_url, target_url, anchor, import_id) IN (SELECT source_url, target_url, anchor, max(import_id) FROM backlinks WHERE ${where} GROUP BY source_url, target_url, anchor)`;
  }

  async page(accountId: number, host: string, state: "live" | "lost", limit: number, offset: number, liveImports: readonly number[]): Promise<{ rows: BacklinkRow[]; total: number }> {
    const newest = liveImports.length === 0 ? null : await this.newest(accountId, host, liveImports);
    if (newest === null) return { rows: [], total: 0 };
    const where = sql`${newest} AND ${state === "live" ? sql`isNull(lost_at)` : sql`isNotNull(lost_at)`}`;
    const order = state === "live" ? sql`isNull(source_rating), source_rating DESC, isNull(first_seen), first_seen DESC` : sql`lost_at DESC`;
    const rows = await this.ch.query<Parameters<typeof backlinkRow>[0]>(
      sql`SELECT source_url, target_url, anchor, nofollow, source_rating, rating_scale, first_seen, last_seen, lost_at, provider FROM backlinks
          WHERE ${where} ORDER BY ${order}, source_url, target_url, anchor LIMIT ${inline(offset)}, ${inline(limit)}`,
    );
    const [count] = await this.ch.query<{ n: string }>(sql`SELECT toString(count()) AS n FROM backlinks WHERE ${where}`);
    return { rows: rows.map(backlinkRow), total: Number(count?.n ?? 0) };
  }

  async dates(accountId: number, host: string, liveImports: readonly number[]): Promise<{ first_seen: string | null; lost_at: string | null }[]> {
    const newest = liveImports.length === 0 ? null : await this.newest(accountId, host, liveImports);
    if (newest === null) return [];
    return this.ch.query(sql`SELECT first_seen, lost_at FROM backlinks WHERE ${newest} ORDER BY source_url, target_url, anchor`);
  }

  async drop(importId: number): Promise<void> {
    await this.ch.command(sql`ALTER TABLE backlinks DELETE WHERE import_id = ${importId}`);
  }
}
