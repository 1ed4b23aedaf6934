import type { Scope } from "../../storage/index.ts";
import { ALL_SCOPES, type AdminService } from "./admin-service.ts";

/** One `svc admin` command, parsed; it travels as JSON over the admin channel. */
export type AdminCommand =
  | { readonly op: "status" }
  | { readonly op: "switch"; readonly name: "maintenance" | "closed"; readonly on: boolean }
  | { readonly op: "account-create"; readonly email: string; readonly admin: boolean }
  | { readonly op: "account-block"; readonly account: string; readonly blocked: boolean }
  | { readonly op: "account-list" }
  | { readonly op: "key-create"; readonly account: string; readonly name: string; readonly scopes: Scope[] };

export const ADMIN_USAGE = `usage: svc admin <command>
  status                                   switches and number of accounts
  maintenance on|off                       every API call answers 503 maintenance
  closed on|off                            only administrators' keys are served (503 closed)
  account create <email> [--admin]         new account and its first key (printed once)
  account list
  account block|unblock <id|email>
  key create <id|email> [--name N] [--scopes read,run,write]`;

export class AdminUsageError extends Error {}

function onOff(v: string | undefined): boolean {
  if (v === "on") return true;
  if (v === "off") return false;
  throw new AdminUsageError("expected on or off");
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export function parseAdminArgs(args: string[]): AdminCommand {
  const [a, b, c] = args;
  if (a === "status") return { op: "status" };
  if (a === "maintenance" || a === "closed") return { op: "switch", name: a, on: onOff(b) };
  if (a === "account" && b === "create" && c) return { op: "account-create", email: c, admin: args.includes("--admin") };
  if (a === "account" && b === "list") return { op: "account-list" };
  if (a === "account" && (b === "block" || b === "unblock") && c) return { op: "account-block", account: c, blocked: b === "block" };
  if (a === "key" && b === "create" && c) {
    const scopes = (option(args, "--scopes") ?? ALL_SCOPES.join(",")).split(",");
    if (scopes.some((s) => !ALL_SCOPES.includes(s as Scope))) throw new AdminUsageError("scopes are read, run, write");
    return { op: "key-create", account: c, name: option(args, "--name") ?? "admin-issued", scopes: scopes as Scope[] };
  }
  throw new AdminUsageError(ADMIN_USAGE);
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
      const issued = await admin.createAccount(cmd.email, { admin: cmd.admin });
      return { account: issued.accountId, key_id: issued.keyId, key: issued.key, note: "the key is shown only now" };
    }
    case "account-list":
      return { accounts: await admin.listAccounts() };
    case "account-block": {
      const found = await admin.setBlocked(cmd.account, cmd.blocked);
      if (!found) throw new Error(`no account ${cmd.account}`);
      return { account: cmd.account, blocked: cmd.blocked };
    }
    case "key-create": {
      const issued = await admin.createKey(cmd.account, cmd.name, cmd.scopes);
      if (!issued) throw new Error(`no account ${cmd.account}`);
      return { account: issued.accountId, key_id: issued.keyId, key: issued.key, note: "the key is shown only now" };
    }
  }
}
