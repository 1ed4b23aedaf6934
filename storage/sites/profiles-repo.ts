import type { Db } from "../engine/db.ts";

export interface ProfileRow {
  readonly account_id: number;
  readonly host: string;
  /** general, shop, forum, blog, corporate or portal (the CHECK of migration 005). */
  readonly profile: string;
  /** Excluded check families (analyzer/profiles.ts), in the order given. */
  readonly exclude: string[];
  readonly updated: number;
}

const PROFILE_COLUMNS = "account_id, host, profile, exclude, updated";

/** An account's site profile per monitored host; no row means the default profile. */
export class ProfilesRepo {
  constructor(private readonly db: Db) {}

  async get(accountId: number, host: string): Promise<ProfileRow | null> {
    const rows = await this.db.query<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM profiles WHERE account_id = $1 AND host = $2`, [accountId, host]);
    return rows[0] ?? null;
  }

  /** Every stored profile of an account, in one query (GET /overview). */
  async forAccount(accountId: number): Promise<ProfileRow[]> {
    return this.db.query<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM profiles WHERE account_id = $1 ORDER BY host`, [accountId]);
  }

  /**
   * Stores the profile of a site the account monitors, replacing the previous one. One statement:
   * null when the account does not monitor the host (then nothing is written).
   */
  async set(accountId: number, host: string, profile: string, exclude: readonly string[], now: number): Promise<ProfileRow | null> {
    const rows = await this.db.query<ProfileRow>(
      `INSERT INTO profiles (account_id, host, profile, exclude, updated)
       SELECT s.account_id, s.host, $3, $4, $5 FROM sites s WHERE s.account_id = $1 AND s.host = $2
       ON CONFLICT (account_id, host) DO UPDATE SET profile = EXCLUDED.profile, exclude = EXCLUDED.exclude, updated = EXCLUDED.updated
       RETURNING ${PROFILE_COLUMNS}`,
      [accountId, host, profile, [...exclude], now],
    );
    return rows[0] ?? null;
  }

  /** Drops the stored profile (back to the default); true when there was one. */
  async reset(accountId: number, host: string): Promise<boolean> {
    const rows = await this.db.query("DELETE FROM profiles WHERE account_id = $1 AND host = $2 RETURNING 1", [accountId, host]);
    return rows.length > 0;
  }
}
