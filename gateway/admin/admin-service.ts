import type { Clock, Config } from "../../runtime/index.ts";
import { unixSeconds } from "../../runtime/index.ts";
import type { OperatorView, PlanNumbers, PlanRow, Repositories, Scope, Switch } from "../../storage/index.ts";
import { generateKey, hashKey, keyPrefix, type RandomBytes } from "../keys/api-key.ts";

export const ALL_SCOPES: readonly Scope[] = ["read", "run", "write"];

export interface IssuedKey {
  readonly accountId: number;
  readonly keyId: number;
  readonly key: string;
  readonly prefix: string;
}

/**
 * What an operator may do (`svc admin …`): accounts, keys, blocking, the maintenance and closed
 * switches. The same service answers the admin socket of a running process and, when no process
 * holds the store, the CLI opening the store itself.
 */
export class AdminService {
  constructor(
    private readonly store: Pick<Repositories, "accounts" | "serviceState" | "jobs">,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly random: RandomBytes,
    /** Told of key and account changes made here, so this process's key cache drops them at once. */
    private readonly keysChanged: (change: string) => void = () => undefined,
  ) {}

  /**
   * The default plan's id. Configuration (SVC_PLAN_*) seeds the plan when it does not exist yet;
   * afterwards the plan is data, changed only by `svc admin plan set` — an admin command run from
   * a shell with other (or no) SVC_PLAN_* values never rewrites it.
   */
  async defaultPlanId(): Promise<number> {
    const p = this.config.plan;
    return this.store.accounts.seedPlan("default", {
      sites: p.sites,
      checks_per_day: p.checksPerDay,
      rechecks_per_day: p.rechecksPerDay,
      webhooks: p.webhooks,
      api_keys: p.apiKeys,
      crawl_pages: p.crawlPages,
      crawl_depth: p.crawlDepth,
      uptime_min: p.uptimeMin,
      key_rate_per_hour: p.keyRatePerHour,
    });
  }

  /** Creates an account with a first key holding the given scopes; the key is returned once. */
  async createAccount(email: string, options: { admin?: boolean; key?: string; scopes?: readonly Scope[] } = {}): Promise<IssuedKey> {
    const now = unixSeconds(this.clock);
    const planId = await this.defaultPlanId();
    const key = options.key ?? generateKey(this.random);
    const created = await this.store.accounts.createAccountWithKey(
      { email, planId, isAdmin: options.admin ?? false },
      {
        name: "first key",
        kind: "api",
        prefix: keyPrefix(key),
        hash: hashKey(key),
        scopes: options.scopes ?? ALL_SCOPES,
        allowedIps: [],
        ratePerHour: this.config.ratePerHourDefault,
        expiresAt: null,
      },
      now,
    );
    return { accountId: created.account.id, keyId: created.key.id, key, prefix: created.key.prefix };
  }

  /**
   * A new key for an existing account (by id or e-mail); null when there is no such account. Its
   * hourly limit is ratePerHour, else the service's default: the operator's way to raise an
   * owner's limit without a restart. The plan's key_rate_per_hour ceiling binds the keys an
   * account creates itself (POST /keys), not the operator.
   */
  async createKey(idOrEmail: string, name: string, scopes: readonly Scope[], ratePerHour = this.config.ratePerHourDefault): Promise<(IssuedKey & { readonly ratePerHour: number }) | null> {
    const accounts = await this.store.accounts.listAccounts();
    const account = accounts.find((a) => a.email === idOrEmail || String(a.id) === idOrEmail);
    if (!account) return null;
    const key = generateKey(this.random);
    const row = await this.store.accounts.insertKey(
      { accountId: account.id, name, kind: "api", prefix: keyPrefix(key), hash: hashKey(key), scopes, allowedIps: [], ratePerHour, expiresAt: null },
      unixSeconds(this.clock),
    );
    return { accountId: account.id, keyId: row.id, key, prefix: row.prefix, ratePerHour: row.rate_limit_per_hour };
  }

  async setBlocked(idOrEmail: string, blocked: boolean): Promise<boolean> {
    const found = await this.store.accounts.setBlocked(idOrEmail, blocked);
    this.keysChanged("all");
    return found;
  }

  setSwitch(name: Switch, on: boolean): Promise<void> {
    return this.store.serviceState.set(name, on, unixSeconds(this.clock));
  }

  async listAccounts(): Promise<{ id: number; email: string; blocked: boolean; admin: boolean }[]> {
    return (await this.store.accounts.listAccounts()).map((a) => ({ id: a.id, email: a.email, blocked: a.blocked, admin: a.is_admin }));
  }

  /** Every plan, or one by name (null when there is none). */
  async plans(name?: string): Promise<PlanRow[] | null> {
    if (name === undefined) return this.store.accounts.listPlans();
    const plan = await this.store.accounts.planByName(name);
    return plan ? [plan] : null;
  }

  /** One plan by name and how many accounts are on it; null when there is no such plan. */
  async showPlan(name: string): Promise<{ plan: PlanRow; accounts: number } | null> {
    if (name === "default") await this.defaultPlanId();
    const plan = await this.store.accounts.planByName(name);
    return plan ? { plan, accounts: await this.store.accounts.countAccountsOnPlan(plan.id) } : null;
  }

  /** Changes a plan's numbers for every account on it; the plan after, or null when there is no such plan. */
  async setPlan(name: string, changes: Partial<PlanNumbers>): Promise<PlanRow | null> {
    if (name === "default") await this.defaultPlanId();
    const plan = await this.store.accounts.updatePlan(name, changes);
    // Key rates are capped by the plan: caches of keys drop what they hold.
    if (plan) this.keysChanged("all");
    return plan;
  }

  /** The switches, the accounts, and the work: nodes, leases, work in flight, the last failovers. */
  async status(): Promise<{ maintenance: boolean; closed: boolean; accounts: number; work: OperatorView }> {
    const state = await this.store.serviceState.read();
    return { ...state, accounts: await this.store.accounts.countAccounts(), work: await this.store.jobs.operatorView(this.clock.nowMs()) };
  }
}

/**
 * First start: with no account, creates the owner (an administrator) and a key with every scope.
 * The key is SVC_BOOTSTRAP_KEY when set; otherwise a new one is returned for printing once.
 * Returns null when accounts already exist.
 */
export async function bootstrapOwner(admin: AdminService, store: Pick<Repositories, "accounts">, config: Config): Promise<{ key: string; generated: boolean } | null> {
  await admin.defaultPlanId();
  if ((await store.accounts.countAccounts()) > 0) return null;
  const issued = await admin.createAccount(config.bootstrapEmail, { admin: true, ...(config.bootstrapKey ? { key: config.bootstrapKey } : {}) });
  return { key: issued.key, generated: config.bootstrapKey === null };
}
