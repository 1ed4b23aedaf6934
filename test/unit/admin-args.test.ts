import { describe, expect, it } from "vitest";
import { ADMIN_USAGE, AdminUsageError, parseAdminArgs } from "../../gateway/index.ts";

describe("svc admin arguments", () => {
  it.each([
    [["help"], { op: "help" }],
    [["--help"], { op: "help" }],
    [["status"], { op: "status" }],
    [["maintenance", "on"], { op: "switch", name: "maintenance", on: true }],
    [["account", "create", "ops@example.com", "--admin"], { op: "account-create", email: "ops@example.com", admin: true }],
    [["account", "create", "owner@localhost"], { op: "account-create", email: "owner@localhost", admin: false }],
    [["account", "block", "7"], { op: "account-block", account: "7", blocked: true }],
    [["key", "create", "ops@example.com", "--scopes", "read"], { op: "key-create", account: "ops@example.com", name: "admin-issued", scopes: ["read"] }],
    [["key", "create", "ops@example.com", "--scopes=read,run", "--name=ci"], { op: "key-create", account: "ops@example.com", name: "ci", scopes: ["read", "run"] }],
    [["key", "create", "owner@localhost", "--name", "work", "--rate-per-hour", "5000"], { op: "key-create", account: "owner@localhost", name: "work", scopes: ["read", "run", "write"], ratePerHour: 5000 }],
    [["plan", "list"], { op: "plan-list" }],
    [["plan", "set", "default", "--crawl-pages", "5000", "--key-rate-per-hour=20000"], { op: "plan-set", plan: "default", changes: { crawl_pages: 5000, key_rate_per_hour: 20000 } }],
  ])("%j", (args, cmd) => {
    expect(parseAdminArgs(args)).toEqual(cmd);
  });

  it.each([
    [["key", "create", "x", "--scope", "read"], "Unknown option '--scope'"],
    [["key", "create", "x", "--scopes", "read,admin"], "scopes are read, run, write"],
    [["account", "create", "not an email"], '"not an email" is not an e-mail address'],
    [["account", "create", "a@b.c", "d@e.f"], 'unexpected argument "d@e.f"'],
    [["account", "create"], "an argument is missing"],
    [["account", "list", "--all"], "Unknown option '--all'"],
    [["maintenance", "maybe"], 'expected on or off, got "maybe"'],
    [["status", "now"], 'unexpected argument "now"'],
    [["frobnicate"], 'unknown command "frobnicate"'],
    [["key", "create", "x", "--rate-per-hour", "0"], '--rate-per-hour takes a whole number from 1 to 1000000, got "0"'],
    [["key", "create", "x", "--rate-per-hour", "lots"], '--rate-per-hour takes a whole number from 1 to 1000000, got "lots"'],
    [["plan", "set", "default"], "plan set changes at least one number"],
    [["plan", "set", "default", "--crawl-pages", "lots"], '--crawl-pages takes a whole number, got "lots"'],
    [["plan", "set", "default", "--pages", "5"], "Unknown option '--pages'"],
  ])("refuses %j", (args, message) => {
    const err = (() => {
      try {
        parseAdminArgs(args);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(AdminUsageError);
    expect((err as Error).message).toContain(message);
  });

  it("with no command, refuses with the usage", () => {
    expect(() => parseAdminArgs([])).toThrow(ADMIN_USAGE);
  });
});
