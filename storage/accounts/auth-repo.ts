import type { Db } from "../engine/db.ts";
import type { Scope } from "./accounts-repo.ts";

/** A key as the gateway checks it: never the key itself, which is stored only as a hash. */
export interface KeyRecord {
  readonly key_id: number;
  readonly account_id: number;
  readonly email: string;
  readonly name: string;
  readonly kind: "api" | "oauth";
  readonly prefix: string;
  readonly scopes: Scope[];
  readonly allowed_ips: string[];
  readonly rate_limit_per_hour: number;
  readonly created: number;
  readonly expires_at: number | null;
  readonly revoked_at: number | null;
  readonly blocked: boolean;
  readonly is_admin: boolean;
  /** For an OAuth access key, its grant: the grant's tokens share one hourly window. */
  readonly oauth_grant_id: number | null;
}

export interface Reservation {
  /** Units added to the window by this call (0 < granted ≤ wanted). */
  readonly granted: number;
  /** The window's count after this call. */
  readonly n: number;
}

/** Channel on which changes to keys and accounts are announced, so caches drop what changed. */
export const KEY_CHANGES_CHANNEL = "svc_key_changes";

/**
 * Key lookup and the hourly windows. A window's count is raised atomically in Postgres and never
 * past its cap, so however many gateway processes reserve from it, the limit holds.
 */
export class AuthRepo {
  constructor(protected readonly db: Db) {}

  /**
   * Subscribes to announcements of changed keys and accounts (payloads key:<id> and
   * account:<id>); onLost is called when the subscription drops.
   */
  onKeyChanges(onChange: (payload: string) => void, onLost: () => void): Promise<{ close(): Promise<void> }> {
    return this.db.listen(KEY_CHANGES_CHANNEL, onChange, onLost);
  }

  async findKey(hash: string): Promise<KeyRecord | null> {
    const rows = await this.db.query<KeyRecord>(
      `SELECT k.id AS key_id, k.account_id, a.email, k.name, k.kind, k.prefix, k.scopes,
              ARRAY(SELECT abbrev(x) FROM unnest(k.allowed_ips) x) AS allowed_ips, k.rate_limit_per_hour,
              k.created, k.expires_at, k.revoked_at, a.blocked, a.is_admin, k.oauth_grant_id
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.hash = $1`,
      [hash],
    );
    return rows[0] ?? null;
  }

  /**
   * Reserves up to `want` requests of a subject's window for the hour, never taking the count past
   * `cap`. Returns null when the window is already full.
   */
  async reserve(subject: string, hour: number, want: number, cap: number): Promise<Reservation | null> {
    // In SET, column references are the row's old values: granted = new n − old n.
    const rows = await this.db.query<Reservation>(
      `INSERT INTO rate_counters AS r (subject, hour, n, granted)
       SELECT $1, $2, LEAST($3::int, $4::int), LEAST($3::int, $4::int) WHERE $4::int > 0
       ON CONFLICT (subject, hour) DO UPDATE
         SET n = LEAST(r.n + $3::int, $4::int), granted = LEAST(r.n + $3::int, $4::int) - r.n
         WHERE r.n < $4::int
       RETURNING granted, n`,
      [subject, hour, want, cap],
    );
    return rows[0] ?? null;
  }

  /**
   * Charges cost units to a subject's window (e.g. a day's checks) all or nothing, never past cap.
   * Returns the count after the charge, or null when it would not fit.
   */
  async charge(subject: string, window: number, cost: number, cap: number): Promise<number | null> {
    const rows = await this.db.query<{ n: number }>(
      `INSERT INTO rate_counters AS r (subject, hour, n, granted)
       SELECT $1, $2, $3::int, $3::int WHERE $3::int <= $4::int
       ON CONFLICT (subject, hour) DO UPDATE SET n = r.n + $3::int, granted = $3::int WHERE r.n + $3::int <= $4::int
       RETURNING n`,
      [subject, window, cost, cap],
    );
    return rows[0]?.n ?? null;
  }

  /** The window's count as stored (requests admitted or reserved). */
  async used(subject: string, hour: number): Promise<number> {
    const rows = await this.db.query<{ n: number }>("SELECT n FROM rate_counters WHERE subject = $1 AND hour = $2", [subject, hour]);
    return rows[0]?.n ?? 0;
  }

  /** Drops windows older than the given hour. */
  async purgeCounters(beforeHour: number): Promise<void> {
    await this.db.query("DELETE FROM rate_counters WHERE hour < $1", [beforeHour]);
  }
}
