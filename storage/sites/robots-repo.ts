import { createHash } from "node:crypto";
import type { Db } from "../engine/db.ts";

export interface RobotsVersionRow {
  readonly seen_at: number;
  readonly status: number;
  readonly lines: string[];
}

/** robots.txt as analyses read it, a row per change (migration 038). */
export class RobotsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Records the robots.txt an analysis read, unless it is the site's latest version already (same
   * hash). Returns whether a new version was stored. Written in the analysis's unit of work.
   */
  async record(v: { host: string; runId: number; seenAt: number; status: number; lines: readonly string[] }): Promise<boolean> {
    const hash = createHash("sha256").update(`${v.status}\n${v.lines.join("\n")}`).digest("hex");
    const rows = await this.db.query<{ id: number }>(
      `INSERT INTO robots_versions (host, seen_at, run_id, status, hash, lines)
       SELECT $1, $2, $3, $4, $5, $6::text[]
       WHERE NOT EXISTS (
         SELECT 1 FROM (SELECT hash FROM robots_versions WHERE host = $1 ORDER BY seen_at DESC, id DESC LIMIT 1) latest WHERE latest.hash = $5
       )
       RETURNING id`,
      [v.host, v.seenAt, v.runId, v.status, hash, [...v.lines]],
    );
    return rows.length > 0;
  }

  /** The versions seen at or after `since`, and the one in force at `since` (the first to diff against), oldest first. */
  async since(host: string, since: number): Promise<RobotsVersionRow[]> {
    const rows = await this.db.query<RobotsVersionRow>(
      `(SELECT seen_at, status, lines, id FROM robots_versions WHERE host = $1 AND seen_at < $2 ORDER BY seen_at DESC, id DESC LIMIT 1)
       UNION ALL
       (SELECT seen_at, status, lines, id FROM robots_versions WHERE host = $1 AND seen_at >= $2)
       ORDER BY seen_at, id`,
      [host, since],
    );
    return rows.map((r) => ({ seen_at: Number(r.seen_at), status: Number(r.status), lines: r.lines }));
  }
}
