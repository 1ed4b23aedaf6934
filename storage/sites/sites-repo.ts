import type { Db } from "../engine/db.ts";

export type Importance = "critical" | "high" | "normal" | "low";

export interface SiteRow {
  readonly id: number;
  readonly host: string;
  readonly added: number;
  readonly interval_h: number;
  readonly importance: Importance;
  readonly project_id: number | null;
  readonly project: string | null;
}

/** A site with its last run's rank (null before its first finished check). */
export interface SiteListRow extends SiteRow {
  readonly rank: number | null;
  readonly prev_rank: number | null;
  readonly label: string | null;
  readonly last_run: number | null;
}

export type AddSiteOutcome = { readonly kind: "added" | "exists"; readonly site: SiteRow } | { readonly kind: "limit"; readonly max: number };

export interface SiteChanges {
  readonly intervalH?: number;
  readonly importance?: Importance;
  /** A project name (created for the account when new), or null to detach. */
  readonly project?: string | null;
}

export interface OverviewFilter {
  readonly q?: string;
  readonly projectId?: number;
  readonly importance?: Importance;
}

const SITE_COLUMNS = "s.id, s.host, s.added, s.interval_h, s.importance, s.project_id, p.name AS project";
const RANK_COLUMNS = "s.rank, s.prev_rank, s.label, s.last_run";

/** The account's monitored sites and projects. */
export class SitesRepo {
  constructor(private readonly db: Db) {}

  /**
   * Adds a site unless the account's plan is full; adding a site already present changes nothing
   * but its keyword when one is given (undefined: unchanged; "" clears it). The account row is
   * locked first, so concurrent additions cannot exceed the plan: the statement after the lock
   * sees every addition committed before it. The presence check, the count and the insert are
   * that one statement.
   */
  async add(accountId: number, host: string, intervalH: number, now: number, keyword?: string): Promise<AddSiteOutcome> {
    return this.db.tx(async (q) => {
      const [plan] = await q.query<{ sites: number }>(
        "SELECT p.sites FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1 FOR UPDATE OF a",
        [accountId],
      );
      const max = plan?.sites ?? 0;
      // A host analysed before (reports are shared) brings its last ranks along.
      const [row] = await q.query<SiteRow & { kind: "added" | "exists" }>(
        `WITH existing AS (
           SELECT ${SITE_COLUMNS} FROM sites s LEFT JOIN projects p ON p.id = s.project_id WHERE s.account_id = $1 AND s.host = $2
         ), added AS (
           INSERT INTO sites (account_id, host, added, interval_h, rank, prev_rank, label, last_run, uptime_keyword)
           SELECT $1, $2, $3, $4, r.rank, r.prev_rank, r.label, r.checked_at, nullif($5, '')
           FROM (SELECT 1) one LEFT JOIN LATERAL (
             SELECT r1.rank, r1.label, r1.checked_at,
                    (SELECT r2.rank FROM runs r2 WHERE r2.host = $2 AND r2.id < r1.id ORDER BY r2.id DESC LIMIT 1) AS prev_rank
             FROM runs r1 WHERE r1.host = $2 ORDER BY r1.id DESC LIMIT 1
           ) r ON true
           WHERE NOT EXISTS (SELECT 1 FROM existing) AND (SELECT count(*) FROM sites WHERE account_id = $1) < $6
           RETURNING id, host, added, interval_h, importance, project_id, NULL::text AS project
         )
         SELECT 'added' AS kind, * FROM added
         UNION ALL
         SELECT 'exists' AS kind, * FROM existing`,
        [accountId, host, now, intervalH, keyword ?? "", max],
      );
      if (!row) return { kind: "limit", max };
      const { kind, ...site } = row;
      if (kind === "exists" && keyword !== undefined) {
        await q.query("UPDATE sites SET uptime_keyword = nullif($3, '') WHERE account_id = $1 AND host = $2", [accountId, host, keyword]);
      }
      return { kind, site };
    });
  }

  /** Whether any account monitors the host (sites are per account; the host's data is shared). */
  async monitoredByAnyone(host: string): Promise<boolean> {
    const rows = await this.db.query("SELECT 1 FROM sites WHERE host = $1 LIMIT 1", [host]);
    return rows.length > 0;
  }

  async get(accountId: number, host: string): Promise<SiteRow | null> {
    const rows = await this.db.query<SiteRow>(
      `SELECT ${SITE_COLUMNS} FROM sites s LEFT JOIN projects p ON p.id = s.project_id WHERE s.account_id = $1 AND s.host = $2`,
      [accountId, host],
    );
    return rows[0] ?? null;
  }

  /** A page of the account's sites with their last two runs' ranks (denormalised onto the rows). */
  async list(accountId: number, limit: number, offset: number): Promise<{ rows: SiteListRow[]; total: number }> {
    const rows = await this.db.query<SiteListRow>(
      `SELECT ${SITE_COLUMNS}, ${RANK_COLUMNS}
       FROM sites s LEFT JOIN projects p ON p.id = s.project_id
       WHERE s.account_id = $1 ORDER BY s.host LIMIT $2 OFFSET $3`,
      [accountId, limit, offset],
    );
    // A page that is not full tells the total itself; only a full page (or one past the end) asks.
    const total = rows.length > 0 && rows.length < limit ? offset + rows.length : await this.count(accountId);
    return { rows, total };
  }

  /** Records a host's new run on every site row of it (all accounts). */
  async recordRun(host: string, rank: number, label: string, checkedAt: number): Promise<void> {
    await this.db.query("UPDATE sites SET prev_rank = rank, rank = $2, label = $3, last_run = $4 WHERE host = $1", [host, rank, label, checkedAt]);
  }

  /** The accounts that monitor a host. */
  async monitors(host: string): Promise<number[]> {
    const rows = await this.db.query<{ account_id: number }>("SELECT account_id FROM sites WHERE host = $1 ORDER BY account_id", [host]);
    return rows.map((r) => r.account_id);
  }

  async count(accountId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>("SELECT count(*) AS n FROM sites WHERE account_id = $1", [accountId]);
    return row?.n ?? 0;
  }

  async remove(accountId: number, host: string): Promise<boolean> {
    const rows = await this.db.query("DELETE FROM sites WHERE account_id = $1 AND host = $2 RETURNING 1", [accountId, host]);
    return rows.length > 0;
  }

  /** Applies changes in one transaction; null when the account does not monitor the host. */
  async update(accountId: number, host: string, changes: SiteChanges): Promise<SiteRow | null> {
    return this.db.tx(async (q) => {
      // Project changes of one account are serialised: a site leaving a project must not delete it
      // while another joins it.
      if (changes.project !== undefined) await q.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
      const [site] = await q.query<{ id: number }>("SELECT id FROM sites WHERE account_id = $1 AND host = $2 FOR UPDATE", [accountId, host]);
      if (!site) return null;
      if (changes.intervalH !== undefined) await q.query("UPDATE sites SET interval_h = $2 WHERE id = $1", [site.id, changes.intervalH]);
      if (changes.importance !== undefined) await q.query("UPDATE sites SET importance = $2 WHERE id = $1", [site.id, changes.importance]);
      if (changes.project !== undefined) {
        let projectId: number | null = null;
        if (changes.project !== null) {
          const [p] = await q.query<{ id: number }>(
            `INSERT INTO projects (account_id, name) VALUES ($1, $2)
             ON CONFLICT (account_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
            [accountId, changes.project],
          );
          projectId = (p as { id: number }).id;
        }
        await q.query("UPDATE sites SET project_id = $2 WHERE id = $1", [site.id, projectId]);
        await q.query(
          "DELETE FROM projects p WHERE p.account_id = $1 AND NOT EXISTS (SELECT 1 FROM sites s WHERE s.project_id = p.id)",
          [accountId],
        );
      }
      const [row] = await q.query<SiteRow>(
        `SELECT ${SITE_COLUMNS} FROM sites s LEFT JOIN projects p ON p.id = s.project_id WHERE s.id = $1`,
        [site.id],
      );
      return row ?? null;
    });
  }

  /**
   * The account's sites matching the overview's stored-data filters (search in host and project
   * name, project, importance), by host. Rank-based filters, sorts and paging are applied by the
   * caller over the runs' data; an account holds at most its plan's number of sites.
   */
  async candidates(accountId: number, o: OverviewFilter): Promise<{ rows: SiteListRow[]; n: number }> {
    const where = ["s.account_id = $1"];
    const params: unknown[] = [accountId];
    if (o.q) {
      // Both sides are folded by the database, so its locale decides, consistently.
      params.push(`%${o.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(lower(s.host) LIKE lower($${params.length}) OR lower(coalesce(p.name, '')) LIKE lower($${params.length}))`);
    }
    if (o.projectId !== undefined) {
      params.push(o.projectId);
      where.push(`s.project_id = $${params.length}`);
    }
    if (o.importance !== undefined) {
      params.push(o.importance);
      where.push(`s.importance = $${params.length}`);
    }
    const rows = await this.db.query<SiteListRow>(
      `SELECT ${SITE_COLUMNS}, ${RANK_COLUMNS} FROM sites s LEFT JOIN projects p ON p.id = s.project_id WHERE ${where.join(" AND ")} ORDER BY s.host`,
      params,
    );
    return { rows, n: await this.count(accountId) };
  }
}
