import type { Db } from "../engine/db.ts";

/** A watched page as stored: its snapshot is the analyzer's WatchSnapshot, null until first fetched. */
export interface WatchedPageRow {
  readonly url: string;
  readonly position: number;
  readonly snapshot: Record<string, unknown> | null;
  readonly checked_at: number | null;
  readonly changed_at: number | null;
}

export interface WatchdogChangeRow {
  readonly id: number;
  readonly url: string;
  readonly field: string;
  readonly before: string;
  readonly after: string;
  readonly level: string;
  readonly at: number;
}

export interface NewWatchdogChange {
  readonly url: string;
  readonly field: string;
  readonly before: string;
  readonly after: string;
  readonly level: string;
}

/** The watchdog's pages and the changes found in them (docs/monitoring.md, "Watchdog"). */
export class WatchdogRepo {
  constructor(private readonly db: Db) {}

  /** A host's watched pages, the home page first. */
  async watched(host: string): Promise<WatchedPageRow[]> {
    return this.db.query<WatchedPageRow>(
      "SELECT url, position, snapshot, checked_at::float8 AS checked_at, changed_at::float8 AS changed_at FROM watched_pages WHERE host = $1 ORDER BY position, url",
      [host],
    );
  }

  /** Sets which pages a host watches, in order; pages watched before keep their snapshots. */
  async choose(host: string, urls: readonly string[]): Promise<void> {
    await this.db.tx(async (q) => {
      await q.query("DELETE FROM watched_pages WHERE host = $1 AND NOT (url = ANY ($2::text[]))", [host, urls]);
      if (urls.length === 0) return;
      await q.query(
        `INSERT INTO watched_pages (host, url, position) SELECT $1, u, p - 1 FROM unnest($2::text[]) WITH ORDINALITY AS x(u, p)
         ON CONFLICT (host, url) DO UPDATE SET position = EXCLUDED.position`,
        [host, urls],
      );
    });
  }

  /** Stores a watched page's latest snapshot; `changed` moves its changed_at. */
  async record(host: string, url: string, snapshot: object, at: number, changed: boolean): Promise<void> {
    await this.db.query(
      `UPDATE watched_pages SET snapshot = $3, checked_at = $4, changed_at = CASE WHEN $5 THEN $4 ELSE changed_at END
       WHERE host = $1 AND url = $2`,
      [host, url, JSON.stringify(snapshot), at, changed],
    );
  }

  /** Records the changes one run found; those of a run recorded before are not added again. Returns how many were new. */
  async addChanges(host: string, runId: number, at: number, changes: readonly NewWatchdogChange[]): Promise<number> {
    if (changes.length === 0) return 0;
    const rows = await this.db.query(
      `INSERT INTO watchdog_changes (host, url, field, before, after, level, at, run_id)
       SELECT $1, u, f, b, a, l, $2, $3 FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS x(u, f, b, a, l)
       ON CONFLICT (run_id, url, field) DO NOTHING RETURNING 1`,
      [host, at, runId, changes.map((c) => c.url), changes.map((c) => c.field), changes.map((c) => c.before), changes.map((c) => c.after), changes.map((c) => c.level)],
    );
    return rows.length;
  }

  /** A host's latest changes since `since`, newest first. */
  async changes(host: string, since: number, limit: number): Promise<WatchdogChangeRow[]> {
    return this.db.query<WatchdogChangeRow>(
      `SELECT id::float8 AS id, url, field, before, after, level, at::float8 AS at FROM watchdog_changes
       WHERE host = $1 AND at >= $2 ORDER BY at DESC, id DESC LIMIT $3`,
      [host, since, limit],
    );
  }
}
