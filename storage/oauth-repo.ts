import type { Db, Queryable } from "./db.ts";
import { KEY_CHANGES_CHANNEL } from "./auth-repo.ts";
import type { NewKey, Scope } from "./accounts-repo.ts";

export interface OAuthClientRow {
  readonly id: string;
  readonly name: string;
  readonly redirect_uris: string[];
  readonly created: number;
}

export interface NewCode {
  readonly hash: string;
  readonly clientId: string;
  readonly accountId: number;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly resource: string;
  readonly scopes: readonly Scope[];
  readonly expiresAt: number;
}

export interface CodeRow {
  readonly client_id: string;
  readonly account_id: number;
  readonly redirect_uri: string;
  readonly code_challenge: string;
  readonly resource: string;
  readonly scopes: Scope[];
  readonly expires_at: number;
  readonly used_at: number | null;
  readonly grant_id: number | null;
}

/** What a grant hands out at once: an access key (an api_keys row) and a refresh token. */
export interface TokenIssue {
  readonly accessKey: Omit<NewKey, "accountId" | "scopes" | "kind">;
  readonly refreshHash: string;
  readonly refreshExpiresAt: number;
}

export interface IssuedTokens {
  readonly grantId: number;
  readonly keyId: number;
  readonly scopes: Scope[];
  readonly accessExpiresAt: number | null;
}

/** Why a code or refresh token was refused; reuse also revoked what it had produced. */
export type TokenRefusal = "unknown" | "expired" | "reused" | "revoked" | "client";

/** A refused code or refresh token, with the access keys its reuse revoked (for the key caches). */
export interface Refused {
  readonly refusal: TokenRefusal;
  /** Set when a check of the caller's refused a code (wrong verifier, redirect URI, resource). */
  readonly reason?: string;
  readonly revokedKeys: readonly number[];
}

const refused = (refusal: TokenRefusal, revokedKeys: readonly number[] = []): Refused => ({ refusal, revokedKeys });

/**
 * Clients, codes, grants and refresh tokens of the OAuth 2.1 authorization server. Codes and
 * refresh tokens are taken with one conditional UPDATE, so of two concurrent uses exactly one wins.
 */
export class OAuthRepo {
  constructor(private readonly db: Db) {}

  async registerClient(c: { readonly id: string; readonly name: string; readonly redirectUris: readonly string[] }, now: number): Promise<OAuthClientRow> {
    const rows = await this.db.query<OAuthClientRow>(
      "INSERT INTO oauth_clients (id, name, redirect_uris, created) VALUES ($1, $2, $3, $4) RETURNING id, name, redirect_uris, created",
      [c.id, c.name, c.redirectUris, now],
    );
    return rows[0] as OAuthClientRow;
  }

  async client(id: string): Promise<OAuthClientRow | null> {
    const rows = await this.db.query<OAuthClientRow>("SELECT id, name, redirect_uris, created FROM oauth_clients WHERE id = $1", [id]);
    return rows[0] ?? null;
  }

  async insertCode(c: NewCode, now: number): Promise<void> {
    await this.db.query(
      `INSERT INTO oauth_codes (hash, client_id, account_id, redirect_uri, code_challenge, resource, scopes, created, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [c.hash, c.clientId, c.accountId, c.redirectUri, c.codeChallenge, c.resource, c.scopes, now, c.expiresAt],
    );
    // Spent and expired codes are of no further use; the table stays small without a planner.
    await this.db.query("DELETE FROM oauth_codes WHERE expires_at < $1", [now - 86_400]);
  }

  /**
   * Exchanges a code for a grant and its first tokens, in one transaction. check() sees the code
   * (unused, unexpired, of this client) and may refuse it (verifier, redirect URI) before anything
   * is written; a refused code stays usable only if check() says so. A second use of a code
   * revokes the grant the first produced.
   */
  async exchangeCode(
    hash: string,
    clientId: string,
    now: number,
    check: (code: CodeRow) => string | null,
    issue: TokenIssue,
  ): Promise<IssuedTokens | Refused> {
    return this.db.tx(async (q) => {
      const [code] = await q.query<CodeRow>(
        "SELECT client_id, account_id, redirect_uri, code_challenge, resource, scopes, expires_at, used_at, grant_id FROM oauth_codes WHERE hash = $1 FOR UPDATE",
        [hash],
      );
      if (!code) return refused("unknown");
      if (code.client_id !== clientId) return refused("client");
      if (code.used_at !== null) return refused("reused", code.grant_id !== null ? await revokeGrant(q, code.grant_id, now) : []);
      // A code is single-use whatever the outcome: a wrong verifier spends it too.
      await q.query("UPDATE oauth_codes SET used_at = $2 WHERE hash = $1", [hash, now]);
      if (code.expires_at <= now) return refused("expired");
      const reason = check(code);
      if (reason !== null) return { refusal: "unknown", reason, revokedKeys: [] };
      const [grant] = await q.query<{ id: number }>(
        "INSERT INTO oauth_grants (client_id, account_id, scopes, resource, created) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        [clientId, code.account_id, code.scopes, code.resource, now],
      );
      const grantId = (grant as { id: number }).id;
      await q.query("UPDATE oauth_codes SET grant_id = $2 WHERE hash = $1", [hash, grantId]);
      await q.query("UPDATE oauth_clients SET last_used = $2 WHERE id = $1", [clientId, now]);
      return issueTokens(q, grantId, code.account_id, code.scopes, issue, now);
    });
  }

  /**
   * Rotates a refresh token: the presented one is spent and a new pair is issued under the same
   * grant. A spent token presented again revokes the whole grant (a stolen token was used).
   */
  async rotateRefresh(hash: string, clientId: string, now: number, issue: TokenIssue): Promise<IssuedTokens | Refused> {
    return this.db.tx(async (q) => {
      const [row] = await q.query<{ grant_id: number; expires_at: number; used_at: number | null; client_id: string; account_id: number; scopes: Scope[]; revoked_at: number | null }>(
        `SELECT t.grant_id, t.expires_at, t.used_at, g.client_id, g.account_id, g.scopes, g.revoked_at
         FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = $1 FOR UPDATE OF t`,
        [hash],
      );
      if (!row) return refused("unknown");
      if (row.client_id !== clientId) return refused("client");
      if (row.revoked_at !== null) return refused("revoked");
      if (row.used_at !== null) return refused("reused", await revokeGrant(q, row.grant_id, now));
      if (row.expires_at <= now) return refused("expired");
      await q.query("UPDATE oauth_refresh_tokens SET used_at = $2 WHERE hash = $1", [hash, now]);
      return issueTokens(q, row.grant_id, row.account_id, row.scopes, issue, now);
    });
  }

  /**
   * RFC 7009: revokes a refresh token's grant (with every access token of it), or one OAuth access
   * token. Unknown tokens are not an error. Returns the key ids revoked, for the key caches.
   */
  async revokeToken(hash: string, now: number): Promise<number[]> {
    return this.db.tx(async (q) => {
      const [refresh] = await q.query<{ grant_id: number }>("SELECT grant_id FROM oauth_refresh_tokens WHERE hash = $1", [hash]);
      if (refresh) return revokeGrant(q, refresh.grant_id, now);
      const rows = await q.query<{ id: number }>(
        `WITH u AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE hash = $1 AND kind = 'oauth' RETURNING id)
         SELECT u.id FROM u CROSS JOIN LATERAL (SELECT pg_notify('${KEY_CHANGES_CHANNEL}', 'key:' || u.id)) n`,
        [hash, now],
      );
      return rows.map((r) => r.id);
    });
  }
}

async function issueTokens(q: Queryable, grantId: number, accountId: number, scopes: Scope[], issue: TokenIssue, now: number): Promise<IssuedTokens> {
  const k = issue.accessKey;
  const [key] = await q.query<{ id: number }>(
    `INSERT INTO api_keys (account_id, name, kind, prefix, hash, scopes, allowed_ips, rate_limit_per_hour, created, expires_at, oauth_grant_id)
     VALUES ($1, $2, 'oauth', $3, $4, $5, $6::inet[], $7, $8, $9, $10) RETURNING id`,
    [accountId, k.name, k.prefix, k.hash, scopes, k.allowedIps, k.ratePerHour, now, k.expiresAt, grantId],
  );
  await q.query("INSERT INTO oauth_refresh_tokens (hash, grant_id, created, expires_at) VALUES ($1, $2, $3, $4)", [issue.refreshHash, grantId, now, issue.refreshExpiresAt]);
  return { grantId, keyId: (key as { id: number }).id, scopes, accessExpiresAt: k.expiresAt };
}

/** Revokes a grant and every access key issued under it, announcing each key to the caches. */
async function revokeGrant(q: Queryable, grantId: number, now: number): Promise<number[]> {
  await q.query("UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1", [grantId, now]);
  const rows = await q.query<{ id: number }>(
    `WITH u AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE oauth_grant_id = $1 RETURNING id)
     SELECT u.id FROM u CROSS JOIN LATERAL (SELECT pg_notify('${KEY_CHANGES_CHANNEL}', 'key:' || u.id)) n`,
    [grantId, now],
  );
  return rows.map((r) => r.id);
}
