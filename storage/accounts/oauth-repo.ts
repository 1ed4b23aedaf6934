import type { Db, Queryable } from "../engine/db.ts";
import { KEY_CHANGES_CHANNEL } from "./auth-repo.ts";
import { planRefusal, type NewKey, type Scope } from "./accounts-repo.ts";
import { revokeAccessKeys, revokeGrants } from "./grant-revocation.ts";

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
  /** The API key the owner signed in with: the grant is never stronger than it. */
  readonly keyId: number;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly resource: string;
  readonly scopes: readonly Scope[];
  readonly expiresAt: number;
}

export interface CodeRow {
  readonly client_id: string;
  readonly account_id: number;
  readonly key_id: number | null;
  readonly redirect_uri: string;
  readonly code_challenge: string;
  readonly resource: string;
  readonly scopes: Scope[];
  readonly expires_at: number;
  readonly used_at: number | null;
  readonly grant_id: number | null;
}

/**
 * What a grant hands out at once: an access key (an api_keys row) and a refresh token. The hourly
 * limit and both expiries are the service's bounds; the consenting key's own narrow them, and the
 * access key takes that key's allowed addresses.
 */
export interface TokenIssue {
  readonly accessKey: Omit<NewKey, "accountId" | "scopes" | "kind" | "allowedIps" | "expiresAt"> & { readonly expiresAt: number };
  readonly refreshHash: string;
  readonly refreshExpiresAt: number;
}

export interface IssuedTokens {
  readonly grantId: number;
  readonly keyId: number;
  readonly scopes: Scope[];
  readonly accessExpiresAt: number;
  /** Access keys this issue revoked (the one a refresh replaced), for the key caches. */
  readonly revokedKeys: readonly number[];
}

/**
 * Why a code or refresh token was refused; reuse also revoked what it had produced. "revoked"
 * also covers a consenting key that was revoked or expired; "plan" is the plan's key number or
 * hourly ceiling.
 */
export type TokenRefusal = "unknown" | "expired" | "reused" | "revoked" | "client" | "plan";

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
      `INSERT INTO oauth_codes (hash, client_id, account_id, key_id, redirect_uri, code_challenge, resource, scopes, created, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [c.hash, c.clientId, c.accountId, c.keyId, c.redirectUri, c.codeChallenge, c.resource, c.scopes, now, c.expiresAt],
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
        "SELECT client_id, account_id, key_id, redirect_uri, code_challenge, resource, scopes, expires_at, used_at, grant_id FROM oauth_codes WHERE hash = $1 FOR UPDATE",
        [hash],
      );
      if (!code) return refused("unknown");
      if (code.client_id !== clientId) return refused("client");
      if (code.used_at !== null) return refused("reused", code.grant_id !== null ? await revokeGrants(q, { grantId: code.grant_id }, now) : []);
      // A code is single-use whatever the outcome: a wrong verifier spends it too.
      await q.query("UPDATE oauth_codes SET used_at = $2 WHERE hash = $1", [hash, now]);
      if (code.expires_at <= now) return refused("expired");
      const reason = check(code);
      if (reason !== null) return { refusal: "unknown", reason, revokedKeys: [] };
      if (code.key_id === null) return refused("revoked");
      const [grant] = await q.query<{ id: number }>(
        "INSERT INTO oauth_grants (client_id, account_id, key_id, scopes, resource, created) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        [clientId, code.account_id, code.key_id, code.scopes, code.resource, now],
      );
      const grantId = (grant as { id: number }).id;
      await q.query("UPDATE oauth_codes SET grant_id = $2 WHERE hash = $1", [hash, grantId]);
      await q.query("UPDATE oauth_clients SET last_used = $2 WHERE id = $1", [clientId, now]);
      const issued = await issueTokens(q, { id: grantId, accountId: code.account_id, keyId: code.key_id, scopes: code.scopes }, issue, now);
      // A refused first issue leaves no grant behind (the transaction keeps the spent code).
      if ("refusal" in issued) await revokeGrants(q, { grantId }, now);
      return issued;
    });
  }

  /**
   * Rotates a refresh token: the presented one is spent and a new pair is issued under the same
   * grant. A spent token presented again revokes the whole grant (a stolen token was used).
   */
  async rotateRefresh(hash: string, clientId: string, now: number, issue: TokenIssue): Promise<IssuedTokens | Refused> {
    return this.db.tx(async (q) => {
      const [row] = await q.query<{ grant_id: number; expires_at: number; used_at: number | null; client_id: string; account_id: number; key_id: number | null; scopes: Scope[]; revoked_at: number | null }>(
        `SELECT t.grant_id, t.expires_at, t.used_at, g.client_id, g.account_id, g.key_id, g.scopes, g.revoked_at
         FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = $1 FOR UPDATE OF t`,
        [hash],
      );
      if (!row) return refused("unknown");
      if (row.client_id !== clientId) return refused("client");
      if (row.revoked_at !== null) return refused("revoked");
      if (row.used_at !== null) return refused("reused", await revokeGrants(q, { grantId: row.grant_id }, now));
      if (row.expires_at <= now) return refused("expired");
      if (row.key_id === null) return refused("revoked", await revokeGrants(q, { grantId: row.grant_id }, now));
      await q.query("UPDATE oauth_refresh_tokens SET used_at = $2 WHERE hash = $1", [hash, now]);
      return issueTokens(q, { id: row.grant_id, accountId: row.account_id, keyId: row.key_id, scopes: row.scopes }, issue, now);
    });
  }

  /**
   * RFC 7009: revokes a refresh token's grant (with every access token of it), or one OAuth access
   * token. Unknown tokens are not an error. Returns the key ids revoked, for the key caches.
   */
  async revokeToken(hash: string, now: number): Promise<number[]> {
    return this.db.tx(async (q) => {
      const [refresh] = await q.query<{ grant_id: number }>("SELECT grant_id FROM oauth_refresh_tokens WHERE hash = $1", [hash]);
      if (refresh) return revokeGrants(q, { grantId: refresh.grant_id }, now);
      const rows = await q.query<{ id: number }>(
        `WITH u AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE hash = $1 AND kind = 'oauth' RETURNING id)
         SELECT u.id FROM u CROSS JOIN LATERAL (SELECT pg_notify('${KEY_CHANGES_CHANNEL}', 'key:' || u.id)) n`,
        [hash, now],
      );
      return rows.map((r) => r.id);
    });
  }
}

/** The consenting key's bounds on a grant, read in the issuing transaction. */
interface ConsentingKey {
  readonly scopes: Scope[];
  readonly allowed_ips: string[];
  readonly rate_limit_per_hour: number;
  readonly expires_at: number | null;
  readonly revoked_at: number | null;
}

const earlier = (a: number, b: number | null): number => (b === null ? a : Math.min(a, b));

/**
 * Issues a grant's next access key and refresh token, never stronger than the key that consented:
 * its scopes, its allowed addresses, an hourly limit and expiries no later than its own. A revoked
 * or expired consenting key ends the grant; the grant's earlier access keys end (a refresh
 * replaces its token); the new key counts against the plan like any other.
 */
async function issueTokens(
  q: Queryable,
  grant: { readonly id: number; readonly accountId: number; readonly keyId: number; readonly scopes: Scope[] },
  issue: TokenIssue,
  now: number,
): Promise<IssuedTokens | Refused> {
  const [key] = await q.query<ConsentingKey>(
    `SELECT k.scopes, ARRAY(SELECT abbrev(x) FROM unnest(k.allowed_ips) x) AS allowed_ips, k.rate_limit_per_hour, k.expires_at, k.revoked_at
     FROM api_keys k WHERE k.id = $1`,
    [grant.keyId],
  );
  if (!key || key.revoked_at !== null || (key.expires_at !== null && key.expires_at <= now)) {
    return { refusal: "revoked", reason: "the API key that signed this grant was revoked or has expired; sign in again", revokedKeys: await revokeGrants(q, { grantId: grant.id }, now) };
  }
  const replaced = await revokeAccessKeys(q, [grant.id], now);
  const k = issue.accessKey;
  const scopes = grant.scopes.filter((s) => key.scopes.includes(s));
  const ratePerHour = Math.min(k.ratePerHour, key.rate_limit_per_hour);
  const plan = await planRefusal(q, grant.accountId, ratePerHour, now);
  if (plan !== null) {
    const reason = plan === "limit" ? "your plan's number of API keys is reached (an application's access counts as a key); revoke one first" : `your plan allows keys totalling ${plan.rate.ceiling} requests per hour; ${plan.rate.used} are taken by usable keys`;
    return { refusal: "plan", reason, revokedKeys: replaced };
  }
  const accessExpiresAt = earlier(k.expiresAt, key.expires_at);
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO api_keys (account_id, name, kind, prefix, hash, scopes, allowed_ips, rate_limit_per_hour, created, expires_at, oauth_grant_id)
     VALUES ($1, $2, 'oauth', $3, $4, $5, $6::inet[], $7, $8, $9, $10) RETURNING id`,
    [grant.accountId, k.name, k.prefix, k.hash, scopes, key.allowed_ips, ratePerHour, now, accessExpiresAt, grant.id],
  );
  await q.query("INSERT INTO oauth_refresh_tokens (hash, grant_id, created, expires_at) VALUES ($1, $2, $3, $4)", [
    issue.refreshHash,
    grant.id,
    now,
    earlier(issue.refreshExpiresAt, key.expires_at),
  ]);
  return { grantId: grant.id, keyId: (row as { id: number }).id, scopes, accessExpiresAt, revokedKeys: replaced };
}
