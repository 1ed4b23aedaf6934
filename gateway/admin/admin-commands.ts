import { parseArgs } from "node:util";
import { isUniqueViolation, PLAN_NUMBERS, type PlanNumbers, type Scope } from "../../storage/index.ts";
import { ALL_SCOPES, type AdminService } from "./admin-service.ts";

/** One `svc admin` command, parsed; it travels as JSON over the admin channel. */
export type AdminCommand =
  | { readonly op: "status" }
  | { readonly op: "switch"; readonly name: "maintenance" | "closed"; readonly on: boolean }
  | { readonly op: "account-create"; readonly email: string; readonly admin: boolean }
  | { readonly op: "account-block"; readonly account: string; readonly blocked: boolean }
  | { readonly op: "account-list" }
  | { readonly op: "key-create"; readonly account: string; readonly name: string; readonly scopes: Scope[]; readonly ratePerHour?: number }
  | { readonly op: "plan-list" }
  | { readonly op: "plan-show"; readonly plan: string }
  | { readonly op: "plan-set"; readonly plan: string; readonly changes: Partial<PlanNumbers> };

export const ADMIN_USAGE = `usage: svc admin <command>
  help                                     this text
  status                                   switches, accounts, the work (nodes holding it, leases,
                                           jobs running and queued, the last failovers) and
                                           each engine's state
  maintenance on|off                       every API call answers 503 maintenance
  closed on|off                            only administrators' keys are served (503 closed)
  account create <email> [--admin]         new account and its first key (printed once)
  account list
  account block|unblock <id|email>
  key create <id|email> [--name N] [--scopes read,run,write] [--rate-per-hour N]
                                           a new key; its hourly limit is N (default
                                           SVC_RATE_PER_HOUR), raised without a restart
  plan list                                every plan and its numbers
  plan show <name>                         one plan's numbers and how many accounts are on it
  plan set <name> [--sites N] [--checks-per-day N] [--rechecks-per-day N] [--webhooks N]
      [--api-keys N] [--crawl-pages N] [--crawl-depth N] [--uptime-min N] [--key-rate-per-hour N]
                                           change a plan for every account on it, at once (the
                                           plans table is the one truth: SVC_PLAN_* only seed
                                           the default plan, once, when the first account is made)`;

/** A command line that is not one of ADMIN_USAGE's (exit 2). */
export class AdminUsageError extends Error {}

/** A well-formed command that cannot be done: no such account, the account exists (exit 1). */
export class AdminCommandError extends Error {}

type Options = Record<string, { type: "string" | "boolean" }>;

/**
 * Parses with node's util.parseArgs in strict mode: an unknown flag (--scope for --scopes), a
 * missing or extra argument is refused with the usage, never ignored.
 */
function strict(args: string[], positionals: number, options: Options = {}): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new AdminUsageError(`${(err as Error).message}\n\n${ADMIN_USAGE}`);
  }
  if (parsed.positionals.length !== positionals) {
    const what = parsed.positionals.length > positionals ? `unexpected argument "${parsed.positionals[positionals]}"` : "an argument is missing";
    throw new AdminUsageError(`${what}\n\n${ADMIN_USAGE}`);
  }
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

function onOff(v: string | undefined): boolean {
  if (v === "on") return true;
  if (v === "off") return false;
  throw new AdminUsageError(`expected on or off, got "${v ?? ""}"\n\n${ADMIN_USAGE}`);
}

// Deliberately loose (owner@localhost is the default owner): one @, something on each side, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+$/;

function email(v: string): string {
  if (!EMAIL.test(v) || v.length > 254) throw new AdminUsageError(`"${v}" is not an e-mail address`);
  return v;
}

/** `svc admin …` arguments as a command; "help" for help. */
export function parseAdminArgs(args: string[]): AdminCommand | { readonly op: "help" } {
  const [a, b, ...rest] = args;
  const after = (n: number) => args.slice(n);
  if (a === "help" || a === "--help" || a === "-h") {
    strict(after(1), 0);
    return { op: "help" };
  }
  if (a === "status") {
    strict(after(1), 0);
    return { op: "status" };
  }
  if (a === "maintenance" || a === "closed") return { op: "switch", name: a, on: onOff(strict(after(1), 1).positionals[0]) };
  if (a === "account" && b === "create") {
    const p = strict(rest, 1, { admin: { type: "boolean" } });
    return { op: "account-create", email: email(p.positionals[0] as string), admin: p.values.admin === true };
  }
  if (a === "account" && b === "list") {
    strict(rest, 0);
    return { op: "account-list" };
  }
  if (a === "account" && (b === "block" || b === "unblock")) return { op: "account-block", account: strict(rest, 1).positionals[0] as string, blocked: b === "block" };
  if (a === "key" && b === "create") {
    const p = strict(rest, 1, { name: { type: "string" }, scopes: { type: "string" }, "rate-per-hour": { type: "string" } });
    const scopes = ((p.values.scopes as string | undefined) ?? ALL_SCOPES.join(",")).split(",");
    if (scopes.some((s) => !ALL_SCOPES.includes(s as Scope))) throw new AdminUsageError("scopes are read, run, write (comma-separated)");
    const rate = p.values["rate-per-hour"] as string | undefined;
    // The API's own bound on a key's hourly limit (POST /keys): 1-1,000,000.
    if (rate !== undefined && (!/^\d{1,7}$/.test(rate) || Number(rate) < 1 || Number(rate) > 1_000_000)) {
      throw new AdminUsageError(`--rate-per-hour takes a whole number from 1 to 1000000, got "${rate}"`);
    }
    return {
      op: "key-create",
      account: p.positionals[0] as string,
      name: (p.values.name as string | undefined) ?? "admin-issued",
      scopes: scopes as Scope[],
      ...(rate !== undefined ? { ratePerHour: Number(rate) } : {}),
    };
  }
  if (a === "plan" && b === "list") {
    strict(rest, 0);
    return { op: "plan-list" };
  }
  if (a === "plan" && b === "show") {
    const p = strict(rest, 1);
    return { op: "plan-show", plan: p.positionals[0] as string };
  }
  if (a === "plan" && b === "set") return parsePlanSet(rest);
  throw new AdminUsageError(a === undefined ? ADMIN_USAGE : `unknown command "${args.join(" ")}"\n\n${ADMIN_USAGE}`);
}

const PLAN_FLAGS = Object.fromEntries(PLAN_NUMBERS.map((k) => [k.replaceAll("_", "-"), k])) as Record<string, (typeof PLAN_NUMBERS)[number]>;

function parsePlanSet(args: string[]): AdminCommand {
  const p = strict(args, 1, Object.fromEntries(Object.keys(PLAN_FLAGS).map((f) => [f, { type: "string" as const }])));
  const changes: Record<string, number> = {};
  for (const [flag, column] of Object.entries(PLAN_FLAGS)) {
    const v = p.values[flag];
    if (v === undefined) continue;
    if (typeof v !== "string" || !/^\d{1,9}$/.test(v)) throw new AdminUsageError(`--${flag} takes a whole number, got "${String(v)}"`);
    changes[column] = Number(v);
  }
  if (Object.keys(changes).length === 0) throw new AdminUsageError(`plan set changes at least one number\n\n${ADMIN_USAGE}`);
  return { op: "plan-set", plan: p.positionals[0] as string, changes };
}

/** Runs a command; the result is plain JSON for printing. */
export async function executeAdmin(admin: AdminService, cmd: AdminCommand): Promise<Record<string, unknown>> {
  switch (cmd.op) {
    case "status":
      return await admin.status();
    case "switch":
      await admin.setSwitch(cmd.name, cmd.on);
      return { [cmd.name]: cmd.on };
    case "account-create": {
      const issued = await admin.createAccount(cmd.email, { admin: cmd.admin }).catch((err: unknown) => {
        throw isUniqueViolation(err) ? new AdminCommandError(`an account ${cmd.email} already exists`) : err;
      });
      return { account: issued.accountId, key_id: issued.keyId, key: issued.key, note: "the key is shown only now" };
    }
    case "account-list":
      return { accounts: await admin.listAccounts() };
    case "account-block": {
      const found = await admin.setBlocked(cmd.account, cmd.blocked);
      if (!found) throw new AdminCommandError(`no account ${cmd.account}`);
      return { account: cmd.account, blocked: cmd.blocked };
    }
    case "key-create": {
      const issued = await admin.createKey(cmd.account, cmd.name, cmd.scopes, cmd.ratePerHour);
      if (!issued) throw new AdminCommandError(`no account ${cmd.account}`);
      return { account: issued.accountId, key_id: issued.keyId, key: issued.key, rate_limit_per_hour: issued.ratePerHour, note: "the key is shown only now" };
    }
    case "plan-list":
      return { plans: await admin.plans() };
    case "plan-show": {
      const shown = await admin.showPlan(cmd.plan);
      if (!shown) throw new AdminCommandError(`no plan ${cmd.plan}`);
      return shown;
    }
    case "plan-set": {
      const plan = await admin.setPlan(cmd.plan, cmd.changes);
      if (!plan) throw new AdminCommandError(`no plan ${cmd.plan}`);
      return { plan };
    }
  }
}
