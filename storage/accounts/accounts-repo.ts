import type { Db, Queryable } from "../engine/db.ts";
import { KEY_CHANGES_CHANNEL } from "./auth-repo.ts";
import { revokeGrants } from "./grant-revocation.ts";

export type Scope = "read" | "run" | "write";

export interface PlanRow {
  readonly id: number;
  readonly name: string;
  readonly sites: number;
  readonly checks_per_day: number;
  readonly rechecks_per_day: number;
  readonly webhooks: number;
  readonly api_keys: number;
  /** A crawl's page and depth limits. */
  readonly crawl_pages: number;
  readonly crawl_depth: number;
  /** Minutes between uptime probes of the account's sites. */
  readonly uptime_min: number;
  /** Ceiling of the sum of the hourly limits of the account's usable keys. */
  readonly key_rate_per_hour: number;
}

export interface AccountRow {
  readonly id: number;
  readonly email: string;
  readonly plan_id: number;
  readonly blocked: boolean;
  readonly is_admin: boolean;
  readonly created: number;
}

export interface KeyRow {
  readonly id: number;
  readonly account_id: number;
  readonly name: string;
  readonly kind: "api" | "oauth";
  readonly prefix: string;
  readonly scopes: Scope[];
  readonly allowed_ips: string[];
  readonly rate_limit_per_hour: number;
  readonly created: number;
  readonly expires_at: number | null;
  readonly revoked_at: number | null;
}

/** A key as GET /keys lists it: an OAuth access key with the grant it belongs to. */
export interface ListedKey extends KeyRow {
  readonly oauth: {
    readonly id: number;
    readonly client_id: string;
    readonly client_name: string;
    /** The API key that signed the grant (null for grants older than that rule, all ended). */
    readonly key_id: number | null;
    readonly revoked: number | null;
  } | null;
}

export interface NewKey {
  readonly accountId: number;
  readonly name: string;
  readonly kind: "api" | "oauth";
  readonly prefix: string;
  readonly hash: string;
  readonly scopes: readonly Scope[];
  readonly allowedIps: readonly string[];
  readonly ratePerHour: number;
  readonly expiresAt: number | null;
}

/** A plan's numbers, the columns an operator may change. */
export const PLAN_NUMBERS = ["sites", "checks_per_day", "rechecks_per_day", "webhooks", "api_keys", "crawl_pages", "crawl_depth", "uptime_min", "key_rate_per_hour"] as const;
export type PlanNumbers = { readonly [K in (typeof PLAN_NUMBERS)[number]]: number };

const KEY_COLUMNS =
  "id, account_id, name, kind, prefix, scopes, ARRAY(SELECT abbrev(x) FROM unnest(allowed_ips) x) AS allowed_ips, rate_limit_per_hour, created, expires_at, revoked_at";

/** Accounts, plans and API keys (account data lives in Postgres). */
export class AccountsRepo {
  constructor(private readonly db: Db) {}

  /** Creates or updates a named plan's numbers; returns its id. */
  async upsertPlan(
    name: string,
    p: Omit<PlanRow, "id" | "name" | "crawl_pages" | "crawl_depth" | "uptime_min" | "key_rate_per_hour"> &
      Partial<Pick<PlanRow, "crawl_pages" | "crawl_depth" | "uptime_min" | "key_rate_per_hour">>,
  ): Promise<number> {
    const rows = await this.db.query<{ id: number }>(
      `INSERT INTO plans (name, sites, checks_per_day, rechecks_per_day, webhooks, api_keys, crawl_pages, crawl_depth, uptime_min, key_rate_per_hour)
       VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, 500), COALESCE($8, 10), COALESCE($9, 5), COALESCE($10, 10000))
       ON CONFLICT (name) DO UPDATE SET sites = $2, checks_per_day = $3, rechecks_per_day = $4, webhooks = $5, api_keys = $6,
         crawl_pages = COALESCE($7, plans.crawl_pages), crawl_depth = COALESCE($8, plans.crawl_depth), uptime_min = COALESCE($9, plans.uptime_min),
         key_rate_per_hour = COALESCE($10, plans.key_rate_per_hour)
       RETURNING id`,
      [name, p.sites, p.checks_per_day, p.rechecks_per_day, p.webhooks, p.api_keys, p.crawl_pages ?? null, p.crawl_depth ?? null, p.uptime_min ?? null, p.key_rate_per_hour ?? null],
    );
    return (rows[0] as { id: number }).id;
  }

  /**
   * Creates a named plan with these numbers unless it exists; returns its id. Configuration seeds
   * plans this way, once: a process started with other SVC_PLAN_* values never rewrites a plan
   * (changing one is an explicit `svc admin plan set`).
   */
  async seedPlan(name: string, p: PlanNumbers): Promise<number> {
    return this.db.tx(async (q) => {
      await q.query(
        `INSERT INTO plans (name, sites, checks_per_day, rechecks_per_day, webhooks, api_keys, crawl_pages, crawl_depth, uptime_min, key_rate_per_hour)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (name) DO NOTHING`,
        [name, p.sites, p.checks_per_day, p.rechecks_per_day, p.webhooks, p.api_keys, p.crawl_pages, p.crawl_depth, p.uptime_min, p.key_rate_per_hour],
      );
      const [row] = await q.query<{ id: number }>("SELECT id FROM plans WHERE name = $1", [name]);
      return (row as { id: number }).id;
    });
  }

  /** Changes the given numbers of a named plan (every account on it); the plan after, or null when there is no such plan. */
  async updatePlan(name: string, changes: Partial<PlanNumbers>): Promise<PlanRow | null> {
    const set = PLAN_NUMBERS.filter((k) => changes[k] !== undefined);
    if (set.length === 0) return this.planByName(name);
    const rows = await this.db.query<PlanRow>(
      `UPDATE plans SET ${set.map((k, i) => `${k} = $${i + 2}`).join(", ")} WHERE name = $1 RETURNING *`,
      [name, ...set.map((k) => changes[k] as number)],
    );
    return rows[0] ?? null;
  }

  async planByName(name: string): Promise<PlanRow | null> {
    const rows = await this.db.query<PlanRow>("SELECT * FROM plans WHERE name = $1", [name]);
    return rows[0] ?? null;
  }

  async listPlans(): Promise<PlanRow[]> {
    return this.db.query<PlanRow>("SELECT * FROM plans ORDER BY id");
  }

  async plan(id: number): Promise<PlanRow | null> {
    const rows = await this.db.query<PlanRow>("SELECT * FROM plans WHERE id = $1", [id]);
    return rows[0] ?? null;
  }

  /** The plan of an account (null for an unknown account). */
  async planOfAccount(accountId: number): Promise<PlanRow | null> {
    const rows = await this.db.query<PlanRow>("SELECT p.* FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1", [accountId]);
    return rows[0] ?? null;
  }

  /** The account's usable keys (not revoked, not expired at now) and their hourly limits added up: what the plan's api_keys and key_rate_per_hour bound. */
  async usableKeys(accountId: number, now: number): Promise<{ keys: number; ratePerHour: number }> {
    return usableKeysOf(this.db, accountId, now);
  }

  async countAccounts(): Promise<number> {
    const rows = await this.db.query<{ n: number }>("SELECT count(*) AS n FROM accounts");
    return (rows[0] as { n: number }).n;
  }

  /** Accounts on one plan: whom a change to it reaches. */
  async countAccountsOnPlan(planId: number): Promise<number> {
    const rows = await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM accounts WHERE plan_id = $1", [planId]);
    return Number((rows[0] as { n: number }).n);
  }

  async createAccount(email: string, planId: number, isAdmin: boolean, now: number): Promise<AccountRow> {
    return insertAccount(this.db, email, planId, isAdmin, now);
  }

  /** Creates an account and its first key in one transaction: never an account without a key. */
  async createAccountWithKey(
    account: { readonly email: string; readonly planId: number; readonly isAdmin: boolean },
    key: Omit<NewKey, "accountId">,
    now: number,
  ): Promise<{ account: AccountRow; key: KeyRow }> {
    return this.db.tx(async (q) => {
      const created = await insertAccount(q, account.email, account.planId, account.isAdmin, now);
      return { account: created, key: await insertKey(q, { ...key, accountId: created.id }, now) };
    });
  }

  async accountByEmail(email: string): Promise<AccountRow | null> {
    const rows = await this.db.query<AccountRow>("SELECT * FROM accounts WHERE email = $1", [email]);
    return rows[0] ?? null;
  }

  async listAccounts(): Promise<AccountRow[]> {
    return this.db.query<AccountRow>("SELECT * FROM accounts ORDER BY id");
  }

  /** Blocks or unblocks an account by id or e-mail; false when there is no such account. */
  async setBlocked(idOrEmail: string, blocked: boolean): Promise<boolean> {
    const rows = await this.db.query(
      `WITH u AS (UPDATE accounts SET blocked = $2 WHERE email = $1 OR id::text = $1 RETURNING id)
       SELECT id, pg_notify('${KEY_CHANGES_CHANNEL}', 'account:' || id) FROM u`,
      [idOrEmail, blocked],
    );
    return rows.length > 0;
  }

  async insertKey(k: NewKey, now: number): Promise<KeyRow> {
    return insertKey(this.db, k, now);
  }

  /**
   * Creates a key unless the account already holds its plan's number of usable keys ("limit") or
   * the key's hourly limit would take the sum over the usable keys past the plan's ceiling
   * ("rate", with the figures); the account row is locked so that concurrent creations cannot
   * both pass the checks.
   */
  async insertKeyWithinPlan(k: NewKey, now: number): Promise<KeyRow | PlanRefusal> {
    return this.db.tx(async (q) => {
      const refusal = await planRefusal(q, k.accountId, k.ratePerHour, now);
      return refusal ?? insertKey(q, k, now);
    });
  }

  /** One of the account's keys (revoked or not); null when the account has no such key. */
  async keyOfAccount(accountId: number, keyId: number): Promise<KeyRow | null> {
    const rows = await this.db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 AND id = $2`, [accountId, keyId]);
    return rows[0] ?? null;
  }

  /** The sum of the hourly limits of the account's usable keys. */
  async keyRateInUse(accountId: number, now: number): Promise<number> {
    const [row] = await this.db.query<{ rate: number }>(
      "SELECT COALESCE(sum(rate_limit_per_hour), 0)::bigint AS rate FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)",
      [accountId, now],
    );
    return Number(row?.rate ?? 0);
  }

  /**
   * The account's keys by id. An OAuth grant shows as its newest access key, with the grant: the
   * tokens a refresh replaced are not listed again.
   */
  async listKeys(accountId: number, limit: number, offset: number): Promise<{ rows: ListedKey[]; total: number }> {
    const where = `k.account_id = $1 AND (k.oauth_grant_id IS NULL OR NOT EXISTS (SELECT 1 FROM api_keys n WHERE n.oauth_grant_id = k.oauth_grant_id AND n.id > k.id))`;
    const rows = await this.db.query<ListedKey>(
      `SELECT k.id, k.account_id, k.name, k.kind, k.prefix, k.scopes, ARRAY(SELECT abbrev(x) FROM unnest(k.allowed_ips) x) AS allowed_ips,
              k.rate_limit_per_hour, k.created, k.expires_at, k.revoked_at,
              CASE WHEN g.id IS NULL THEN NULL ELSE json_build_object('id', g.id, 'client_id', g.client_id, 'client_name', c.name, 'key_id', g.key_id, 'revoked', g.revoked_at) END AS oauth
       FROM api_keys k LEFT JOIN oauth_grants g ON g.id = k.oauth_grant_id LEFT JOIN oauth_clients c ON c.id = g.client_id
       WHERE ${where} ORDER BY k.id LIMIT $2 OFFSET $3`,
      [accountId, limit, offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM api_keys k WHERE ${where}`, [accountId]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  /**
   * Revokes one of the account's keys at once, and the OAuth grants it ends: those the key signed,
   * and, for an OAuth access key, its own grant (its refresh token with it). Null when the account
   * has no such key; `alsoRevoked` lists the grants' access keys, for the key caches.
   */
  async revokeKey(accountId: number, keyId: number, now: number): Promise<(KeyRow & { readonly alsoRevoked: readonly number[] }) | null> {
    return this.db.tx(async (q) => {
      const [row] = await q.query<KeyRow & { oauth_grant_id: number | null }>(
        `WITH u AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE account_id = $1 AND id = $2 RETURNING *)
         SELECT ${KEY_COLUMNS}, oauth_grant_id FROM u CROSS JOIN LATERAL (SELECT pg_notify('${KEY_CHANGES_CHANNEL}', 'key:' || u.id)) n`,
        [accountId, keyId, now],
      );
      if (!row) return null;
      const { oauth_grant_id: grantId, ...key } = row;
      const signed = await revokeGrants(q, { keyId }, now);
      const own = grantId === null ? [] : await revokeGrants(q, { grantId }, now);
      return { ...key, alsoRevoked: [...signed, ...own] };
    });
  }
}

/** Why the plan has no room for one more usable key of this hourly limit. */
export type PlanRefusal = "limit" | { readonly rate: { readonly ceiling: number; readonly used: number } };

/**
 * Whether the account's plan has room for one more usable key (OAuth access keys count like any
 * other) with this hourly limit; null when it has. Locks the account row for the caller's
 * transaction, so that concurrent creations cannot both pass.
 */
/** The account's usable keys (not revoked, not expired at now) and their hourly limits added up. */
async function usableKeysOf(q: Queryable, accountId: number, now: number): Promise<{ keys: number; ratePerHour: number }> {
  const [row] = await q.query<{ n: number; rate: number }>(
    `SELECT count(*) AS n, COALESCE(sum(rate_limit_per_hour), 0)::bigint AS rate FROM api_keys
     WHERE account_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
    [accountId, now],
  );
  return { keys: Number(row?.n ?? 0), ratePerHour: Number(row?.rate ?? 0) };
}

export async function planRefusal(q: Queryable, accountId: number, ratePerHour: number, now: number): Promise<PlanRefusal | null> {
  const [row] = await q.query<{ api_keys: number; key_rate_per_hour: number }>(
    "SELECT p.api_keys, p.key_rate_per_hour FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1 FOR UPDATE OF a",
    [accountId],
  );
  const { keys: n, ratePerHour: used } = await usableKeysOf(q, accountId, now);
  if (!row || n >= row.api_keys) return "limit";
  if (used + ratePerHour > row.key_rate_per_hour) return { rate: { ceiling: row.key_rate_per_hour, used } };
  return null;
}

async function insertAccount(q: Queryable, email: string, planId: number, isAdmin: boolean, now: number): Promise<AccountRow> {
  const rows = await q.query<AccountRow>("INSERT INTO accounts (email, plan_id, is_admin, created) VALUES ($1, $2, $3, $4) RETURNING *", [email, planId, isAdmin, now]);
  return rows[0] as AccountRow;
}

async function insertKey(q: Queryable, k: NewKey, now: number): Promise<KeyRow> {
  const rows = await q.query<KeyRow>(
    `INSERT INTO api_keys (account_id, name, kind, prefix, hash, scopes, allowed_ips, rate_limit_per_hour, created, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::inet[], $8, $9, $10) RETURNING ${KEY_COLUMNS}`,
    [k.accountId, k.name, k.kind, k.prefix, k.hash, k.scopes, k.allowedIps, k.ratePerHour, now, k.expiresAt],
  );
  return rows[0] as KeyRow;
}
