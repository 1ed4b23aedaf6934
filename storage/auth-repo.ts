import type { Db } from "./db.ts";
import type { Scope } from "./accounts-repo.ts";

/** Everything the gateway needs to decide on a keyed request, read (and counted) in one round trip. */
export interface KeyCheck {
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
  readonly ip_ok: boolean;
  /** The hour's count after this request, or null when the request was not counted. */
  readonly counted: number | null;
  /** The hour's count before this request (0 when none). */
  readonly used: number;
}

export interface CounterResult {
  /** Count after this request, or null when the limit was already reached (not counted). */
  readonly counted: number | null;
  readonly used: number;
}

/**
 * Key lookup and the hourly counters. The counter is a fixed window per clock hour, incremented
 * atomically in Postgres and never past its cap, so the limit is exact across any number of
 * gateway processes.
 */
export class AuthRepo {
  constructor(private readonly db: Db) {}

  /**
   * Finds the key by hash and, when it is usable for this request (not revoked or expired, account
   * not blocked, address allowed, scope held), counts the request against the key's hour.
   */
  async checkKey(hash: string, now: number, hour: number, address: string, scope: Scope): Promise<KeyCheck | null> {
    const rows = await this.db.query<KeyCheck>(
      `WITH k AS (
         SELECT k.id AS key_id, k.account_id, a.email, k.name, k.kind, k.prefix, k.scopes,
                ARRAY(SELECT abbrev(x) FROM unnest(k.allowed_ips) x) AS allowed_ips, k.rate_limit_per_hour, k.created, k.expires_at,
                k.revoked_at, a.blocked, a.is_admin,
                (cardinality(k.allowed_ips) = 0 OR $3::inet <<= ANY (k.allowed_ips)) AS ip_ok
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.hash = $1
       ), counted AS (
         INSERT INTO rate_counters (subject, hour, n)
         SELECT 'k:' || key_id, $4, 1 FROM k
         WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2) AND NOT blocked AND ip_ok
           AND $5::text = ANY (scopes) AND rate_limit_per_hour > 0
         ON CONFLICT (subject, hour) DO UPDATE SET n = rate_counters.n + 1
           WHERE rate_counters.n < (SELECT rate_limit_per_hour FROM k)
         RETURNING n
       )
       SELECT k.*, (SELECT n FROM counted) AS counted,
              COALESCE((SELECT n FROM rate_counters r WHERE r.subject = 'k:' || k.key_id AND r.hour = $4), 0) AS used
       FROM k`,
      [hash, now, address, hour, scope],
    );
    return rows[0] ?? null;
  }

  /** Counts one request of a subject (e.g. a client address) against cap for the hour. */
  async count(subject: string, hour: number, cap: number): Promise<CounterResult> {
    const rows = await this.db.query<{ counted: number | null; used: number }>(
      `WITH counted AS (
         INSERT INTO rate_counters (subject, hour, n) SELECT $1, $2, 1 WHERE $3::int > 0
         ON CONFLICT (subject, hour) DO UPDATE SET n = rate_counters.n + 1 WHERE rate_counters.n < $3
         RETURNING n
       )
       SELECT (SELECT n FROM counted) AS counted,
              COALESCE((SELECT n FROM rate_counters WHERE subject = $1 AND hour = $2), 0) AS used`,
      [subject, hour, cap],
    );
    const row = rows[0] as { counted: number | null; used: number };
    return row;
  }

  /** Gives back one counted request (a 304 costs nothing). */
  async refund(subject: string, hour: number): Promise<void> {
    await this.db.query("UPDATE rate_counters SET n = n - 1 WHERE subject = $1 AND hour = $2 AND n > 0", [subject, hour]);
  }

  async used(subject: string, hour: number): Promise<number> {
    const rows = await this.db.query<{ n: number }>("SELECT n FROM rate_counters WHERE subject = $1 AND hour = $2", [subject, hour]);
    return rows[0]?.n ?? 0;
  }

  /** Drops windows older than the given hour. */
  async purgeCounters(beforeHour: number): Promise<void> {
    await this.db.query("DELETE FROM rate_counters WHERE hour < $1", [beforeHour]);
  }
}
