import type { StoredCrawlReport } from "./documents.ts";
import type { Db } from "../engine/db.ts";

export interface CrawlRow {
  readonly job_id: number;
  readonly host: string;
  readonly run_id: number | null;
  readonly checked_at: number;
  readonly findings: unknown;
  readonly report: StoredCrawlReport;
}

/** Finished crawls by host, shared like runs (their pages are behind the CrawlPages port). */
export class CrawlsRepo {
  constructor(private readonly db: Db) {}

  /** Records a finished crawl, in the job's unit of work; recorded again, it stays as first recorded. */
  async settle(crawl: Omit<CrawlRow, "run_id"> & { run_id: number }): Promise<void> {
    await this.db.query(
      `INSERT INTO crawls (job_id, host, run_id, checked_at, findings, report) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (job_id) DO NOTHING`,
      [crawl.job_id, crawl.host, crawl.run_id, crawl.checked_at, JSON.stringify(crawl.findings), JSON.stringify(crawl.report)],
    );
  }

  /** Which of these hosts have a finished crawl. */
  async crawledHosts(hosts: readonly string[]): Promise<Set<string>> {
    if (hosts.length === 0) return new Set();
    const rows = await this.db.query<{ host: string }>("SELECT DISTINCT host FROM crawls WHERE host = ANY ($1::text[]) AND run_id IS NOT NULL", [hosts]);
    return new Set(rows.map((r) => r.host));
  }

  /** The host's latest finished crawl, or null. */
  async latest(host: string): Promise<CrawlRow | null> {
    const rows = await this.db.query<CrawlRow>("SELECT job_id, host, run_id, checked_at, findings, report FROM crawls WHERE host = $1 ORDER BY checked_at DESC, job_id DESC LIMIT 1", [host]);
    return rows[0] ?? null;
  }

  /** Whether a crawl of the host is queued or running (its first finished crawl may be on the way). */
  async inFlight(host: string): Promise<boolean> {
    const rows = await this.db.query("SELECT 1 FROM jobs WHERE host = $1 AND kind = 'crawl' AND state IN ('queued', 'running') LIMIT 1", [host]);
    return rows.length > 0;
  }

  /** Why the host's latest crawl job failed (its error detail), or null when it did not fail. */
  async lastFailure(host: string): Promise<string | null> {
    const rows = await this.db.query<{ state: string; error: string | null; error_detail: string | null }>(
      "SELECT state, error, error_detail FROM jobs WHERE host = $1 AND kind = 'crawl' ORDER BY id DESC LIMIT 1",
      [host],
    );
    const job = rows[0];
    return job?.state === "error" ? job.error_detail || job.error || "failed" : null;
  }

  /** The host's latest crawl's findings if it finished at or after `since` (Unix s). */
  async findingsSince(host: string, since: number): Promise<unknown> {
    const rows = await this.db.query<{ findings: unknown }>(
      "SELECT findings FROM crawls WHERE host = $1 AND checked_at >= $2 ORDER BY checked_at DESC, job_id DESC LIMIT 1",
      [host, since],
    );
    return rows[0]?.findings ?? null;
  }
}
