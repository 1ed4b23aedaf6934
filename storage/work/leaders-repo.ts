import type { Db } from "../engine/db.ts";

/**
 * Named leases for leader election among scheduler processes, on the account database (a row per
 * name, so it works the same on PGlite and on a server with connection pools). A holder renews
 * before until_ms; another process takes the name only once it has lapsed.
 */
export class LeadersRepo {
  constructor(private readonly db: Db) {}

  /** Takes or renews the lease on name for holder until nowMs + ttlMs; false when another holds it. */
  async acquire(name: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query<{ holder: string }>(
      `INSERT INTO leaders (name, holder, until_ms) VALUES ($1, $2, $4)
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, until_ms = EXCLUDED.until_ms
       WHERE leaders.holder = EXCLUDED.holder OR leaders.until_ms < $3
       RETURNING holder`,
      [name, holder, nowMs, nowMs + ttlMs],
    );
    return rows[0]?.holder === holder;
  }

  /** Gives the lease up at once (a clean shutdown), so another process need not wait for it to lapse. */
  async release(name: string, holder: string): Promise<void> {
    await this.db.query("DELETE FROM leaders WHERE name = $1 AND holder = $2", [name, holder]);
  }
}
