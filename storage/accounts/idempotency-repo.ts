import type { Db } from "../engine/db.ts";

export interface StoredAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string>;
}

export type ClaimOutcome =
  | { readonly kind: "claimed" }
  | { readonly kind: "conflict" }
  | { readonly kind: "busy" }
  | { readonly kind: "replay"; readonly answer: StoredAnswer };

interface Row {
  fingerprint: string;
  state: "running" | "done";
  locked_until: number;
  status: number | null;
  body: string | null;
  headers: Record<string, string> | null;
  expires_at: number;
}

/**
 * Idempotency keys per account. A claim is one INSERT … ON CONFLICT: exactly one of any number of
 * concurrent identical requests executes; the others see it running (busy) or done (replay).
 * A running claim whose lock expired (the process died) may be taken over by the same request.
 */
export class IdempotencyRepo {
  constructor(protected readonly db: Db) {}

  async claim(accountId: number, key: string, fingerprint: string, now: number, lockSeconds: number, ttlSeconds: number): Promise<ClaimOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await this.db.query(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, state, locked_until, created, expires_at)
         VALUES ($1, $2, $3, 'running', $4, $5, $6)
         ON CONFLICT (account_id, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, state = 'running', locked_until = EXCLUDED.locked_until,
               status = NULL, body = NULL, headers = NULL, created = EXCLUDED.created, expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at <= $5
              OR (idempotency_keys.state = 'running' AND idempotency_keys.locked_until <= $5
                  AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
         RETURNING 1`,
        [accountId, key, fingerprint, now + lockSeconds, now, now + ttlSeconds],
      );
      if (claimed.length > 0) return { kind: "claimed" };
      const [row] = await this.db.query<Row>(
        "SELECT fingerprint, state, locked_until, status, body, headers, expires_at FROM idempotency_keys WHERE account_id = $1 AND key = $2",
        [accountId, key],
      );
      if (!row) continue; // released (a 5xx) between the two statements: claim again
      if (row.fingerprint !== fingerprint) return { kind: "conflict" };
      if (row.state === "running") return { kind: "busy" };
      return { kind: "replay", answer: { status: row.status ?? 200, body: row.body ?? "", headers: row.headers ?? {} } };
    }
    return { kind: "busy" };
  }

  async complete(accountId: number, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.query(
      "UPDATE idempotency_keys SET state = 'done', status = $3, body = $4, headers = $5 WHERE account_id = $1 AND key = $2",
      [accountId, key, answer.status, answer.body, JSON.stringify(answer.headers)],
    );
  }

  /** Forgets a claim whose request failed with a 5xx, so that a retry executes. */
  async release(accountId: number, key: string): Promise<void> {
    await this.db.query("DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND state = 'running'", [accountId, key]);
  }

  async purgeExpired(now: number): Promise<number> {
    const rows = await this.db.query("DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING 1", [now]);
    return rows.length;
  }
}
