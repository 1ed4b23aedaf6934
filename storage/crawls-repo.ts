import type { Db, Queryable } from "./db.ts";

/** A stored crawl page (the CrawledPage message as JSON, plus the columns lists sort and filter on). */
export interface CrawlPageRow {
  readonly url: string;
  readonly depth: number;
  readonly status: number;
  readonly skipped: string;
  readonly title: string;
  readonly words: number;
  readonly inlinks: number;
  readonly outlinks: number;
  readonly score: number;
  readonly issues: string[];
  readonly data: unknown;
}

export interface NewCrawlPage {
  readonly url: string;
  readonly depth: number;
  readonly status: number;
  readonly skipped: string;
  readonly title: string;
  readonly words: number;
  readonly outlinks: number;
  readonly issues: readonly string[];
  readonly data: unknown;
}

export interface CrawlRow {
  readonly job_id: number;
  readonly host: string;
  readonly run_id: number | null;
  readonly checked_at: number;
  readonly findings: unknown;
  readonly report: unknown;
}

export interface CrawlPagesFilter {
  /** Only URLs that answered with this status class (2, 3, 4, 5) or not at all (0). */
  readonly statusClass?: number;
  /** Only pages failing this check. */
  readonly issue?: string;
}

/** Crawls by host (shared like runs) and the pages of crawl jobs. */
export class CrawlsRepo {
  constructor(private readonly db: Db) {}

  /** Stores pages of a crawl job held by `worker`; a page stored again replaces itself. False when the lease is lost. */
  async putPages(jobId: number, worker: string, pages: readonly NewCrawlPage[]): Promise<boolean> {
    return this.db.tx(async (q) => {
      const held = await q.query("SELECT 1 FROM jobs WHERE id = $1 AND worker = $2 AND state = 'running' FOR UPDATE", [jobId, worker]);
      if (held.length === 0) return false;
      if (pages.length === 0) return true;
      await q.query(
        `INSERT INTO crawl_pages (job_id, url, depth, status, skipped, title, words, outlinks, issues, data)
         SELECT $1, u, d, s, sk, t, w, o, string_to_array(i, ' '), x::json
         FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[], $10::text[]) AS p(u, d, s, sk, t, w, o, i, x)
         ON CONFLICT (job_id, url) DO UPDATE SET depth = EXCLUDED.depth, status = EXCLUDED.status, skipped = EXCLUDED.skipped,
           title = EXCLUDED.title, words = EXCLUDED.words, outlinks = EXCLUDED.outlinks, issues = EXCLUDED.issues, data = EXCLUDED.data`,
        [
          jobId,
          pages.map((p) => p.url),
          pages.map((p) => p.depth),
          pages.map((p) => p.status),
          pages.map((p) => p.skipped),
          pages.map((p) => p.title),
          pages.map((p) => p.words),
          pages.map((p) => p.outlinks),
          pages.map((p) => p.issues.join(" ")),
          pages.map((p) => JSON.stringify(p.data)),
        ],
      );
      return true;
    });
  }

  /** The stored pages of a job in the order they were stored (the resume read). */
  async jobPages(jobId: number, offset: number, limit: number): Promise<unknown[]> {
    const rows = await this.db.query<{ data: unknown }>("SELECT data FROM crawl_pages WHERE job_id = $1 ORDER BY seq LIMIT $2 OFFSET $3", [jobId, limit, offset]);
    return rows.map((r) => r.data);
  }

  /** Records a finished crawl and the per-page link figures, in the job's completion transaction. */
  async settle(q: Queryable, crawl: Omit<CrawlRow, "run_id"> & { run_id: number }, stats: readonly { url: string; inlinks: number; score: number }[]): Promise<void> {
    await q.query(
      `INSERT INTO crawls (job_id, host, run_id, checked_at, findings, report) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (job_id) DO NOTHING`,
      [crawl.job_id, crawl.host, crawl.run_id, crawl.checked_at, JSON.stringify(crawl.findings), JSON.stringify(crawl.report)],
    );
    if (stats.length === 0) return;
    await q.query(
      `UPDATE crawl_pages c SET inlinks = s.n, score = s.r
       FROM unnest($2::text[], $3::int[], $4::float8[]) AS s(u, n, r)
       WHERE c.job_id = $1 AND c.url = s.u`,
      [crawl.job_id, stats.map((s) => s.url), stats.map((s) => s.inlinks), stats.map((s) => s.score)],
    );
  }

  /** The host's latest finished crawl, or null. */
  async latest(host: string, q: Queryable = this.db): Promise<CrawlRow | null> {
    const rows = await q.query<CrawlRow>("SELECT job_id, host, run_id, checked_at, findings, report FROM crawls WHERE host = $1 ORDER BY checked_at DESC, job_id DESC LIMIT 1", [host]);
    return rows[0] ?? null;
  }

  /** The host's latest crawl's findings if it finished at or after `since` (Unix s). */
  async findingsSince(host: string, since: number, q: Queryable = this.db): Promise<unknown> {
    const rows = await q.query<{ findings: unknown }>(
      "SELECT findings FROM crawls WHERE host = $1 AND checked_at >= $2 ORDER BY checked_at DESC, job_id DESC LIMIT 1",
      [host, since],
    );
    return rows[0]?.findings ?? null;
  }

  /** A page of a crawl's URLs, in crawl order (depth, then order stored). */
  async pages(jobId: number, filter: CrawlPagesFilter, limit: number, offset: number): Promise<{ rows: CrawlPageRow[]; total: number }> {
    const where = ["job_id = $1"];
    const params: unknown[] = [jobId];
    if (filter.statusClass !== undefined) {
      params.push(filter.statusClass);
      where.push(filter.statusClass === 0 ? `status = 0 AND skipped = ''` : `status / 100 = $${params.length}`);
      if (filter.statusClass === 0) params.pop();
    }
    if (filter.issue !== undefined) {
      params.push(filter.issue);
      where.push(`$${params.length} = ANY (issues)`);
    }
    const clause = where.join(" AND ");
    const rows = await this.db.query<CrawlPageRow>(
      `SELECT url, depth, status, skipped, title, words, inlinks, outlinks, score, issues, data FROM crawl_pages WHERE ${clause}
       ORDER BY (depth < 0), depth, seq LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM crawl_pages WHERE ${clause}`, params);
    return { rows, total: count?.n ?? 0 };
  }
}
