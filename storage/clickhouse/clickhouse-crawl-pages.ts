import { systemClock, type Clock } from "../../runtime/index.ts";
import {
  assertCount,
  assertCrawlFilter,
  assertCrawlPages,
  assertLinkStats,
  lastPerUrl,
  type CrawlPageRow,
  type CrawlPages,
  type CrawlPagesFilter,
  type NewCrawlPage,
  type CrawlLinkStats,
  type CrawlLease,
  type CrawlJobRef,
} from "../sites/crawl-pages.ts";
import { CRAWL_LINKS_TABLE, CRAWL_PAGES_TABLE } from "./clickhouse-schema.ts";
import type { ClickHouse } from "../engine/open-clickhouse.ts";
import { inline, sql, type Sql } from "../engine/clickhouse-sql.ts";

const PAGE_COLUMNS = ["job_id", "url", "attempt", "seq", "job_created", "depth", "status", "skipped", "title", "words", "outlinks", "issues", "data"] as const;
const LINK_COLUMNS = ["job_id", "url", "version", "job_created", "inlinks", "score"] as const;

/**
 * CrawlPages on ClickHouse: crawl_pages, a ReplacingMergeTree(attempt) keyed by (job, URL hash), and
 * crawl_page_links for the figures a settle adds (clickhouse-schema.ts). Leases are account data,
 * checked by the caller on the account database: put takes the attempt (the row version) and the
 * job's creation time (the partition) from the lease it is given. Merges come some time after inserts, so
 * every read picks the surviving row itself, argMax over (attempt, seq): a later attempt wins,
 * and of one attempt the later put, as a merge would decide.
 */
export class ClickHouseCrawlPages implements CrawlPages {
  private lastSeq = 0;

  constructor(
    private readonly ch: ClickHouse,
    private readonly clock: Clock = systemClock,
  ) {}

  async put(lease: CrawlLease, input: readonly NewCrawlPage[]): Promise<void> {
    const json = assertCrawlPages(input);
    const pages = lastPerUrl(input);
    if (pages.length === 0) return;
    const job = { attempt: lease.attempt, created: lease.created };
    const jobId = lease.jobId;
    // A worker that loses its lease between the caller's check and this insert writes rows of an
    // older attempt: the next attempt's rows outrank them, whichever lands last.
    const first = this.nextSeq(pages.length);
    const rows = pages.map((p, i) => ({
      job_id: jobId,
      url: p.url,
      attempt: job.attempt,
      seq: first + i,
      job_created: job.created, // unix seconds: read as such whatever the server's time zone
      depth: p.depth,
      status: p.status,
      skipped: p.skipped,
      title: p.title,
      words: p.words,
      outlinks: p.outlinks,
      issues: p.issues,
      data: json.get(p),
    }));
    await this.ch.insert(CRAWL_PAGES_TABLE, PAGE_COLUMNS, rows);
  }

  async jobPages(jobId: number, offset: number, limit: number): Promise<unknown[]> {
    assertCount("offset", offset);
    assertCount("limit", limit);
    const rows = await this.ch.query<{ data: string }>(
      sql`SELECT data FROM (${latestPages(jobId)}) ORDER BY seq LIMIT ${inline(offset)}, ${inline(limit)}`,
    );
    return rows.map((r) => JSON.parse(r.data) as unknown);
  }

  /**
   * Written at once, not in a transaction of the account database: a settle that fails to commit
   * and is retried writes the same figures again, which changes nothing.
   */
  async setLinkStats(ref: CrawlJobRef, input: readonly CrawlLinkStats[]): Promise<void> {
    assertLinkStats(input);
    const stats = lastPerUrl(input);
    if (stats.length === 0) return;
    const job = { created: ref.created };
    const jobId = ref.id;
    const version = this.nextSeq(1);
    await this.ch.insert(
      CRAWL_LINKS_TABLE,
      LINK_COLUMNS,
      stats.map((s) => ({ job_id: jobId, url: s.url, version, job_created: job.created, inlinks: s.inlinks, score: s.score })),
    );
  }

  async pages(jobId: number, filter: CrawlPagesFilter, limit: number, offset: number): Promise<{ rows: CrawlPageRow[]; total: number }> {
    assertCount("limit", limit);
    assertCount("offset", offset);
    assertCrawlFilter(filter);
    // Filters apply to the surviving row of each URL, never to an older copy before the pick.
    const where = [
      ...(filter.statusClass === 0 ? [sql`status = 0 AND skipped = ''`] : filter.statusClass !== undefined ? [sql`intDiv(status, 100) = ${filter.statusClass}`] : []),
      ...(filter.issue !== undefined ? [sql`has(issues, ${filter.issue})`] : []),
    ].reduce((all, c) => sql`${all} AND ${c}`, sql`1`);
    const rows = await this.ch.query<Omit<CrawlPageRow, "data"> & { data: string }>(
      sql`SELECT url, depth, status, skipped, title, words, inlinks, outlinks, score, issues, data
          FROM (${latestPages(jobId)})
          ANY LEFT JOIN (${latestLinks(jobId)}) USING url_hash
          WHERE ${where}
          ORDER BY depth < 0, depth, seq
          LIMIT ${inline(offset)}, ${inline(limit)}`,
    );
    const [count] = await this.ch.query<{ n: string }>(sql`SELECT count() AS n FROM (${latestPages(jobId)}) WHERE ${where}`);
    return { rows: rows.map((r) => ({ ...r, score: parsedFloat(r.score), data: JSON.parse(r.data) as unknown })), total: Number(count?.n ?? 0) };
  }

  /** FINAL is exact here: a job's rows share one partition, and FINAL merges within partitions. */
  async count(jobId: number): Promise<number> {
    const [row] = await this.ch.query<{ n: string }>(sql`SELECT count() AS n FROM crawl_pages FINAL WHERE job_id = ${jobId}`);
    return Number(row?.n ?? 0);
  }

  /**
   * The first of n store-order numbers: the clock in microseconds, and never at or below the last
   * one handed out, so batches of one process keep their order within a millisecond.
   */
  private nextSeq(n: number): number {
    const first = Math.max(Math.floor(this.clock.nowMs()) * 1000, this.lastSeq + 1);
    this.lastSeq = first + n - 1;
    return first;
  }
}

/**
 * A Float64 as written: servers before 19.x parse inserted numbers with a fast, inexact parser (1.66
 * is stored as 1.6600000000000001, an ulp off). A score keeps 15 significant digits (CrawlLinkStats),
 * and rounding to them undoes an error of a few ulps.
 */
function parsedFloat(value: number): number {
  return Number(value.toPrecision(15));
}

/** The surviving row of each of the job's URLs, its columns unpacked. */
function latestPages(jobId: number): Sql {
  return sql`SELECT url_hash, tupleElement(p, 1) AS url, tupleElement(p, 2) AS depth, tupleElement(p, 3) AS status,
      tupleElement(p, 4) AS skipped, tupleElement(p, 5) AS title, tupleElement(p, 6) AS words, tupleElement(p, 7) AS outlinks,
      tupleElement(p, 8) AS issues, tupleElement(p, 9) AS data, tupleElement(p, 10) AS seq
    FROM (
      SELECT url_hash, argMax(tuple(url, depth, status, skipped, title, words, outlinks, issues, data, seq), tuple(attempt, seq)) AS p
      FROM crawl_pages WHERE job_id = ${jobId} GROUP BY url_hash
    )`;
}

/** The newest link figures of each of the job's URLs. */
function latestLinks(jobId: number): Sql {
  return sql`SELECT url_hash, tupleElement(s, 1) AS inlinks, tupleElement(s, 2) AS score
    FROM (SELECT url_hash, argMax(tuple(inlinks, score), version) AS s FROM crawl_page_links WHERE job_id = ${jobId} GROUP BY url_hash)`;
}
