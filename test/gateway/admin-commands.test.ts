import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminCommandError, AdminService, AdminUsageError, executeAdmin, parseAdminArgs, planSeedDrift } from "../../gateway/index.ts";
import { loadConfig } from "../../runtime/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe("svc admin commands on a real store", () => {
  it("a duplicate account is refused with a sentence, not a database error", async () => {
    const admin = new AdminService(gw.store, gw.deps.config, gw.clock, randomBytes);
    await executeAdmin(admin, { op: "account-create", email: "twice@example.com", admin: false });
    const again = executeAdmin(admin, { op: "account-create", email: "twice@example.com", admin: false });
    await expect(again).rejects.toThrow(new AdminCommandError("an account twice@example.com already exists"));
    await expect(executeAdmin(admin, { op: "key-create", account: "nobody@example.com", name: "k", scopes: ["read"] })).rejects.toThrow(AdminCommandError);
  });

  it("key create --rate-per-hour gives the owner a key with a higher limit, without a restart (new-user 6)", async () => {
    const admin = new AdminService(gw.store, gw.deps.config, gw.clock, randomBytes);
    const made = (await executeAdmin(admin, parseAdminArgs(["key", "create", "owner@example.com", "--name", "work", "--rate-per-hour", "5000"]) as Parameters<typeof executeAdmin>[1])) as { key: string; rate_limit_per_hour: number };
    expect(made.rate_limit_per_hour).toBe(5000);
    const me = await gw.call("GET", "/api/v1/me", { key: made.key });
    expect(me.json<{ key: { name: string }; rate: { limit_per_hour: number } }>()).toMatchObject({ key: { name: "work" }, rate: { limit_per_hour: 5000 } });
    expect(me.headers["x-ratelimit-limit"]).toBe("5000");
  });

  it("plans are data: an admin command from a shell without SVC_PLAN_* leaves the default plan as the operator set it", async () => {
    const running = new AdminService(gw.store, gw.deps.config, gw.clock, randomBytes);
    const run = (args: string[], admin = running) => executeAdmin(admin, parseAdminArgs(args) as Parameters<typeof executeAdmin>[1]);
    const set = (await run(["plan", "set", "default", "--crawl-pages", "5000", "--crawl-depth", "12"])) as { plan: { name: string; crawl_pages: number; crawl_depth: number } };
    expect(set.plan).toMatchObject({ name: "default", crawl_pages: 5000, crawl_depth: 12 });

    // The operator's shell: no SVC_PLAN_* at all (the configuration's defaults are 500 pages, depth 10).
    const shell = new AdminService(gw.store, loadConfig({ SVC_LOG_LEVEL: "silent" }, "serve"), gw.clock, randomBytes);
    expect(loadConfig({}, "serve").plan.crawlPages).toBe(500);
    const created = (await run(["account", "create", "plans-are-data@example.com"], shell)) as { account: number };
    const plan = await gw.store.accounts.planOfAccount(created.account);
    expect(plan).toMatchObject({ name: "default", crawl_pages: 5000, crawl_depth: 12 });
    // Every account on the plan keeps it, and listing shows it.
    const { plans } = (await run(["plan", "list"], shell)) as { plans: { name: string; crawl_pages: number }[] };
    expect(plans.find((p) => p.name === "default")?.crawl_pages).toBe(5000);
    await expect(run(["plan", "set", "gold", "--sites", "3"])).rejects.toThrow(new AdminCommandError("no plan gold"));
  });

  it("plan show names the plan's numbers and whom a change reaches; a process with other SVC_PLAN_* is told they are ignored, with the command", async () => {
    const admin = new AdminService(gw.store, gw.deps.config, gw.clock, randomBytes);
    const run = (args: string[]) => executeAdmin(admin, parseAdminArgs(args) as Parameters<typeof executeAdmin>[1]);
    await run(["plan", "set", "default", "--uptime-min", "3"]);
    const shown = (await run(["plan", "show", "default"])) as { plan: { name: string; uptime_min: number }; accounts: number };
    expect(shown.plan).toMatchObject({ name: "default", uptime_min: 3 });
    expect(shown.accounts).toBe(await gw.store.accounts.countAccounts());
    await expect(run(["plan", "show", "gold"])).rejects.toThrow(new AdminCommandError("no plan gold"));
    expect(() => parseAdminArgs(["plan", "show"])).toThrow(AdminUsageError);

    // A gateway restarted with SVC_PLAN_UPTIME_MIN=1 (and SVC_PLAN_SITES as stored): the plan stays,
    // and the one variable that disagrees is named with the command that would apply it.
    const plan = (await gw.store.accounts.planByName("default"))!;
    const env = { SVC_PLAN_UPTIME_MIN: "1", SVC_PLAN_SITES: String(plan.sites) };
    expect(planSeedDrift(plan, loadConfig(env, "gateway"), Object.keys(env))).toEqual([
      'SVC_PLAN_UPTIME_MIN=1 is ignored: it only seeds the plan "default", which has uptime_min 3; to change it for every account on it: svc admin plan set default --uptime-min 1',
    ]);
    expect((await gw.store.accounts.planByName("default"))?.uptime_min).toBe(3);
  });
});
