import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountsRepo,
  AuthRepo,
  createStore,
  IdempotencyRepo,
  isUniqueViolation,
  KEY_CHANGES_CHANNEL,
  listMigrations,
  migrate,
  PostgresUsageSeries,
  ServiceStateRepo,
  SitesRepo,
  TasksRepo,
  type ClaimOutcome,
  type TaskDraftRow,
  type Db,
  type NewKey,
  type OverviewFilter,
  type PlanRow,
  type Reservation,
} from "../../storage/index.ts";

/** One implementation of the Db port the repositories must behave identically on. */
export interface StorageTarget {
  readonly name: string;
  /** A new, empty database (not migrated: the contract migrates it). */
  open(): Promise<Db>;
  /**
   * Two handles with pools of their own (two processes) on one new, empty database, connections
   * already open. Absent for single-connection stores, where migrations cannot race.
   */
  openPair?(): Promise<readonly [Db, Db]>;
}

/** Polls until check() is true, failing after a bounded wait. */
async function waitFor(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

const PLAN: Omit<PlanRow, "id" | "name"> = { sites: 10, checks_per_day: 100, rechecks_per_day: 10, webhooks: 2, api_keys: 5, crawl_pages: 500, crawl_depth: 10, uptime_min: 5, key_rate_per_hour: 10_000 };

/**
 * The repository contract: the same expectations, with exact values, on every target. Each target
 * gets one database for the whole block; tests keep to their own accounts, subjects, keys and
 * time ranges so that they do not depend on one another.
 */
export function storageContract(targets: readonly StorageTarget[]): void {
  describe.each(targets)("storage contract on $name", (target) => {
    let db: Db;
    let firstMigration: number[];
    let accounts: AccountsRepo;
    let auth: AuthRepo;
    let idem: IdempotencyRepo;
    let sites: SitesRepo;
    let tasks: TasksRepo;
    let state: ServiceStateRepo;
    let usage: PostgresUsageSeries;

    beforeAll(async () => {
      db = await target.open();
      firstMigration = await migrate(db, 0);
      accounts = new AccountsRepo(db);
      auth = new AuthRepo(db);
      idem = new IdempotencyRepo(db);
      sites = new SitesRepo(db);
      tasks = new TasksRepo(db);
      state = new ServiceStateRepo(db);
      usage = new PostgresUsageSeries(db);
    });

    afterAll(async () => {
      await db?.close();
    });

    let seq = 0;
    const uniq = (prefix: string) => `${prefix}${++seq}`;

    async function newPlan(p: Partial<Omit<PlanRow, "id" | "name">> = {}): Promise<number> {
      return accounts.upsertPlan(uniq("plan-"), { ...PLAN, ...p });
    }

    async function newAccount(p: Partial<Omit<PlanRow, "id" | "name">> = {}, isAdmin = false) {
      return accounts.createAccount(`${uniq("user")}@example.test`, await newPlan(p), isAdmin, 1_000);
    }

    function newKey(accountId: number, k: Partial<NewKey> = {}): NewKey {
      return {
        accountId,
        name: "key",
        kind: "api",
        prefix: "svc_test",
        hash: uniq("hash-"),
        scopes: ["read"],
        allowedIps: [],
        ratePerHour: 100,
        expiresAt: null,
        ...k,
      };
    }

    describe("migrate", () => {
      it("applies every migration on a fresh database, then [] the second time", async () => {
        const all = listMigrations();
        expect(all.slice(0, 2).map((m) => [m.version, m.name])).toEqual([[1, "platform"], [2, "analysis"]]);
        expect(firstMigration).toEqual(all.map((m) => m.version));
        expect(await migrate(db, 99)).toEqual([]);
        expect(await db.query("SELECT version, name, applied FROM schema_migrations ORDER BY version")).toEqual(
          all.map((m) => ({ version: m.version, name: m.name, applied: 0 })),
        );
      });

      it.skipIf(!target.openPair)("two concurrent migrate() calls on a fresh database apply it exactly once (5 rounds)", async () => {
        for (let round = 0; round < 5; round++) {
          const [a, b] = await target.openPair!();
          try {
            const settled = await Promise.allSettled([migrate(a, 0), migrate(b, 0)]);
            const rejected = settled.filter((s) => s.status === "rejected").map((s) => String((s).reason));
            expect(rejected, `round ${round}`).toEqual([]);
            // Each migration applied by exactly one of the two.
            const applied = settled.flatMap((s) => (s.status === "fulfilled" ? s.value : []));
            expect(applied.sort((x, y) => x - y), `round ${round}`).toEqual(listMigrations().map((m) => m.version));
            expect(await a.query("SELECT version FROM schema_migrations ORDER BY version")).toEqual(listMigrations().map((m) => ({ version: m.version })));
          } finally {
            await Promise.all([a.close(), b.close()]);
          }
        }
      });
    });

    describe("the Db port", () => {
      it("returns int8, bigint, count(*) and numeric as JS numbers", async () => {
        const [row] = await db.query(
          "SELECT count(*) AS n, 9007199254740991::bigint AS big, (-5)::int8 AS neg, 12.5::numeric AS num, 7::int4 AS i FROM schema_migrations WHERE version = 1",
        );
        expect(row).toEqual({ n: 1, big: 9007199254740991, neg: -5, num: 12.5, i: 7 });
        for (const v of Object.values(row as object)) expect(typeof v).toBe("number");
        const account = await newAccount();
        expect(typeof account.id).toBe("number");
        expect(typeof account.created).toBe("number");
        expect(typeof (await accounts.countAccounts())).toBe("number");
      });

      it("tx commits when the function resolves and returns its value", async () => {
        const name = uniq("tx-commit-");
        const id = await db.tx(async (q) => {
          const [row] = await q.query<{ id: number }>(
            "INSERT INTO plans (name, sites, checks_per_day, rechecks_per_day, webhooks, api_keys) VALUES ($1, 1, 1, 1, 1, 1) RETURNING id",
            [name],
          );
          return (row as { id: number }).id;
        });
        expect(await db.query("SELECT id, name FROM plans WHERE name = $1", [name])).toEqual([{ id, name }]);
      });

      it("tx rolls back when the function throws, and rethrows", async () => {
        const name = uniq("tx-throw-");
        await expect(
          db.tx(async (q) => {
            await q.query("INSERT INTO plans (name, sites, checks_per_day, rechecks_per_day, webhooks, api_keys) VALUES ($1, 1, 1, 1, 1, 1)", [name]);
            expect(await q.query("SELECT name FROM plans WHERE name = $1", [name])).toEqual([{ name }]);
            throw new Error("boom");
          }),
        ).rejects.toThrow("boom");
        expect(await db.query("SELECT name FROM plans WHERE name = $1", [name])).toEqual([]);
      });

      it("tx rolls back after a failing statement; the database stays usable", async () => {
        const name = uniq("tx-dup-");
        const insert = "INSERT INTO plans (name, sites, checks_per_day, rechecks_per_day, webhooks, api_keys) VALUES ($1, 1, 1, 1, 1, 1)";
        const err = await db
          .tx(async (q) => {
            await q.query(insert, [name]);
            await q.query(insert, [name]);
          })
          .catch((e: unknown) => e);
        expect(isUniqueViolation(err)).toBe(true);
        expect(await db.query("SELECT name FROM plans WHERE name = $1", [name])).toEqual([]);
        expect(await db.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
      });

      it("isUniqueViolation is true for a duplicate e-mail and false otherwise", async () => {
        const a = await newAccount();
        const dup = await accounts.createAccount(a.email, a.plan_id, false, 1_000).catch((e: unknown) => e);
        expect(dup).toBeInstanceOf(Error);
        expect(isUniqueViolation(dup)).toBe(true);
        const fk = await accounts.createAccount(`${uniq("nofk")}@example.test`, 987_654, false, 1_000).catch((e: unknown) => e);
        expect(fk).toBeInstanceOf(Error);
        expect(isUniqueViolation(fk)).toBe(false);
        expect(isUniqueViolation(new Error("x"))).toBe(false);
        expect(isUniqueViolation(null)).toBe(false);
        expect(isUniqueViolation("23505")).toBe(false);
      });

      it("listen() delivers the repositories' notifications (key:<id>, account:<id>), and nothing after close()", async () => {
        const got: string[] = [];
        let lost = 0;
        const sub = await db.listen(KEY_CHANGES_CHANNEL, (p) => got.push(p), () => lost++);
        try {
          const a = await newAccount();
          const other = await newAccount();
          const key = await accounts.insertKey(newKey(a.id), 1_000);

          expect(await accounts.revokeKey(a.id, key.id, 2_000)).not.toBeNull();
          await waitFor(`key:${key.id}`, () => got.includes(`key:${key.id}`));

          got.length = 0;
          expect(await accounts.revokeKey(other.id, key.id, 2_000)).toBeNull(); // not its key: no notification
          expect(await accounts.setBlocked(`${uniq("nobody")}@example.test`, true)).toBe(false);
          expect(await accounts.setBlocked(a.email, true)).toBe(true);
          await waitFor(`account:${a.id}`, () => got.includes(`account:${a.id}`));
          expect(await accounts.setBlocked(String(a.id), false)).toBe(true);
          await waitFor(`second account:${a.id}`, () => got.length >= 2);
          expect(got).toEqual([`account:${a.id}`, `account:${a.id}`]);
        } finally {
          await sub.close();
        }
        const before = got.length;
        const b = await newAccount();
        await accounts.setBlocked(b.email, true);
        await sleep(150);
        expect(got.length).toBe(before);
        expect(lost).toBe(0);
      });
    });

    describe("the unit of work (store.tx)", () => {
      it("commits the writes of every repository together, and rolls all of them back when the work throws", async () => {
        const store = createStore(db);
        const a = await newAccount();
        const event = (key: string) => ({ eventKey: key, accountId: a.id, host: "unit.example", type: "events" as const, kind: "analysis.done", level: "info" as const, text: "done", payload: {} });
        const hostsOf = async () => (await store.sites.list(a.id, 10, 0)).rows.map((r) => r.host);
        const keysOf = async () => (await store.events.list({ accountId: a.id, limit: 10, offset: 0 })).rows.map((r) => r.text + ":" + r.host);
        const failed = await store
          .tx(async (t) => {
            await t.sites.add(a.id, "unit.example", 24, 5_000);
            await t.events.add([event(uniq("unit-"))], 5_000);
            throw new Error("decided against it");
          })
          .catch((e: unknown) => (e as Error).message);
        expect(failed).toBe("decided against it");
        expect(await hostsOf()).toEqual([]);
        expect(await keysOf()).toEqual([]);
        expect(
          await store.tx(async (t) => {
            await t.sites.add(a.id, "unit.example", 24, 5_000);
            await t.events.add([event(uniq("unit-"))], 5_000);
            return t.sites.monitors("unit.example");
          }),
        ).toEqual([a.id]);
        expect(await hostsOf()).toEqual(["unit.example"]);
        expect(await keysOf()).toEqual(["done:unit.example"]);
      });

      it("a repository's own transaction inside a unit is a savepoint: its failure, caught, leaves the unit's other writes to commit", async () => {
        const store = createStore(db);
        const a = await newAccount();
        const taken = await newAccount();
        const refused = await store.tx(async (t) => {
          const dup = await t.accounts.createAccountWithKey({ email: taken.email, planId: taken.plan_id, isAdmin: false }, { ...newKey(0), hash: uniq("hash-") }, 1_000).catch((e: unknown) => e);
          await t.sites.add(a.id, "after-savepoint.example", 24, 5_000);
          return isUniqueViolation(dup);
        });
        expect(refused).toBe(true);
        expect((await store.sites.list(a.id, 10, 0)).rows.map((r) => r.host)).toEqual(["after-savepoint.example"]);
        expect((await store.accounts.listAccounts()).filter((x) => x.email === taken.email).map((x) => x.id)).toEqual([taken.id]);
      });
    });

    describe("a job's settlement and the outbox relay, each a unit of work", () => {
      const message = (job: { id: number; host: string }) => ({ topic: "contract.work", key: job.host, payload: new Uint8Array([job.id % 256, 7]) });
      async function leased(store: ReturnType<typeof createStore>, worker: string, maxAttempts = 3) {
        const a = await newAccount();
        const job = await store.jobs.createQueued({ accountId: a.id, kind: "dns", host: `${uniq("settle")}.example`, sync: false, maxAttempts }, 6_000, message);
        const out = await store.jobs.lease(job.id, worker, 6_000_000, 60_000);
        if (!out.granted) throw new Error("not leased");
        return out.job;
      }

      it("lockHeld answers the job only to the worker holding it: a stale worker's settlement writes nothing", async () => {
        const store = createStore(db);
        const job = await leased(store, "w1");
        expect(await store.tx(async (t) => (await t.jobs.lockHeld(job.id, "w0")) ?? "not held")).toBe("not held");
        expect(await store.tx(async (t) => (await t.jobs.lockHeld(987_654_321, "w1")) ?? "not held")).toBe("not held");
        const settled = await store.tx(async (t) => {
          const held = await t.jobs.lockHeld(job.id, "w1");
          if (!held) return null;
          await t.jobs.markDone(held.id, { runId: null, result: { answer: 42 } }, 6_010);
          return held.id;
        });
        expect(settled).toBe(job.id);
        expect(await store.jobs.get(job.id)).toMatchObject({ state: "done", progress: 100, step: "done", worker: null, lease_until_ms: null, finished: 6_010 });
        expect(await store.jobs.result(job.account_id, job.id)).toEqual({ answer: 42 });
        // A second completion by the same worker finds the job done: not held.
        expect(await store.tx(async (t) => (await t.jobs.lockHeld(job.id, "w1")) ?? "not held")).toBe("not held");
      });

      it("a job keeps its task bytes as written, and forgetTask clears them with any older target", async () => {
        const store = createStore(db);
        const a = await newAccount();
        const task = new Uint8Array([0xba, 0x01, 0x03, 0x0a, 0x01, 0x78, 0x00, 0xff]);
        const job = await store.jobs.createQueued({ accountId: a.id, kind: "utility", host: "utilities.invalid", sync: true, maxAttempts: 1, task }, 6_000, message);
        expect(job.target).toBeNull();
        expect([...(job.task ?? [])]).toEqual([...task]);
        expect([...((await store.jobs.get(job.id))?.task ?? [])]).toEqual([...task]);
        await store.jobs.forgetTask(job.id);
        expect(await store.jobs.get(job.id)).toMatchObject({ task: null, target: null });
      });

      it("requeue gives a throttled attempt back and holds it until notBefore; a retry keeps the count; markFailed ends it", async () => {
        const store = createStore(db);
        const job = await leased(store, "w1");
        await store.tx((t) => t.jobs.requeue(job.id, { step: "throttled (429); again after 30 s", notBefore: 6_030, giveBack: true }, 6_000));
        expect(await store.jobs.get(job.id)).toMatchObject({ state: "queued", attempt: 0, worker: null, lease_until_ms: null, step: "throttled (429); again after 30 s" });
        // Held back: not stale for the sweeper before notBefore.
        const swept: number[] = [];
        await store.jobs.republishStale(6_029_000, 0, message, (j) => swept.push(j.id));
        expect(swept).not.toContain(job.id);
        await store.jobs.lease(job.id, "w2", 6_031_000, 60_000);
        await store.tx((t) => t.jobs.requeue(job.id, { step: "retrying after reset", notBefore: null, giveBack: false }, 6_040));
        expect(await store.jobs.get(job.id)).toMatchObject({ state: "queued", attempt: 1, step: "retrying after reset" });
        await store.jobs.lease(job.id, "w3", 6_050_000, 60_000);
        await store.tx((t) => t.jobs.markFailed(job.id, "unreachable", "no route", 6_060));
        expect(await store.jobs.get(job.id)).toMatchObject({ state: "error", error: "unreachable", error_detail: "no route", attempt: 2, worker: null, finished: 6_060 });
      });

      it("the relay's rows stay unpublished when its publish throws, and are taken again; markPublished ends them", async () => {
        const store = createStore(db);
        await store.tx((t) => t.outbox.enqueue({ topic: "contract.relay", key: "k", payload: new Uint8Array([1, 2, 3]) }, 7_000));
        const mine = async (t: { outbox: { lockDue(limit: number, now: number): Promise<{ id: number; topic: string; payload: Uint8Array }[]> } }) =>
          (await t.outbox.lockDue(1000, 7_000)).filter((r) => r.topic === "contract.relay");
        const failed = await store
          .tx(async (t) => {
            expect((await mine(t)).map((r) => [...r.payload])).toEqual([[1, 2, 3]]);
            throw new Error("bus down");
          })
          .catch((e: unknown) => (e as Error).message);
        expect(failed).toBe("bus down");
        const ids = await store.tx(async (t) => {
          const rows = await mine(t);
          await t.outbox.markPublished(rows.map((r) => r.id), 7_001);
          return rows.map((r) => r.id);
        });
        expect(ids).toHaveLength(1);
        expect(await store.tx(async (t) => (await mine(t)).length)).toBe(0);
      });

      it("a message not before a time is not due until then", async () => {
        const store = createStore(db);
        await store.tx((t) => t.outbox.enqueue({ topic: "contract.later", key: "k", payload: new Uint8Array([9]) }, 8_000, 8_100));
        const later = async (now: number) => store.tx(async (t) => (await t.outbox.lockDue(1000, now)).filter((r) => r.topic === "contract.later").length);
        expect(await later(8_099)).toBe(0);
        expect(await later(8_100)).toBe(1);
      });
    });

    describe("IncidentsRepo and the uptime targets", () => {
      it("open is one incident per host and kind while it is open; revise retitles it; close ends it, never before it began", async () => {
        const store = createStore(db);
        const host = `${uniq("inc")}.example`;
        const id = await store.tx((t) => t.incidents.open({ host, kind: "down", title: `${host} is down`, cause: "http 503", at: 10_000 }));
        expect(await store.tx((t) => t.incidents.open({ host, kind: "down", title: "again", cause: "timeout", at: 10_060 }))).toBe(id);
        expect(await store.tx((t) => t.incidents.openOf(host, ["down", "certificate"]))).toEqual([{ id, kind: "down", cause: "http 503" }]);
        expect(await store.incidents.revise({ host, kind: "down", title: `${host} is down hard`, cause: "refused" })).toBe(id);
        expect(await store.incidents.revise({ host, kind: "robots", title: "x", cause: "y" })).toBeNull();
        // A close dated before the incident began (a late probe) ends it where it began.
        expect(await store.incidents.close(host, "down", 9_000)).toBe(id);
        expect(await store.incidents.close(host, "down", 12_000)).toBeNull();
        const again = await store.incidents.open({ host, kind: "down", title: `${host} is down`, cause: "timeout", at: 20_000 });
        expect(again).not.toBe(id);
        expect(await store.incidents.close(host, "down", 20_600)).toBe(again);
        expect(await store.incidents.latest(host, 10)).toEqual([
          { id: again, host, kind: "down", title: `${host} is down`, cause: "timeout", status: "closed", first_seen: 20_000, resolved_at: 20_600 },
          { id, host, kind: "down", title: `${host} is down hard`, cause: "refused", status: "closed", first_seen: 10_000, resolved_at: 10_000 },
        ]);
        expect((await store.incidents.since(host, 15_000)).map((i) => i.id)).toEqual([again]);
        expect(await store.incidents.downSeconds(host, 20_300, 30_000)).toBe(300);
      });

      it("takeDue hands a host's latest missed slot once and moves it on; a probe result is applied once, in slot order", async () => {
        const store = createStore(db);
        const a = await newAccount({ uptime_min: 5 });
        const host = `${uniq("up")}.example`;
        await store.sites.add(a.id, host, 24, 5_000);
        await store.uptime.syncTargets(100_000);
        const first = (await store.uptime.target(host))!;
        expect(first).toMatchObject({ url: `https://${host}/`, url_known: false, interval_s: 300, state: "unknown" });
        const now = first.next_slot + 1_000; // three slots missed, a fourth begun
        const slot = first.next_slot + 900;
        const taken = await store.tx((t) => t.uptime.takeDue(now, 1_000_000));
        expect(taken.filter((d) => d.host === host)).toEqual([{ host, url: `https://${host}/`, keyword: "", schemeUnknown: true, slot }]);
        expect((await store.tx((t) => t.uptime.takeDue(now, 1_000_000))).filter((d) => d.host === host)).toEqual([]);
        expect((await store.uptime.target(host))!.next_slot).toBe(slot + 300);
        const probe = { host, slot, confirm: false, at: slot + 1, ok: false, status: 503, cause: "http 503", dnsMs: 1, connectMs: 1, tlsMs: 1, ttfbMs: 1, totalMs: 5, lateMs: 1000, node: "n1", held: false, url: `http://${host}/` };
        const state = { state: "suspect" as const, since: null, suspect_at: slot + 1, fails: 1, successes: 0, slow: 0, recovering_at: null };
        await store.tx(async (t) => {
          expect(await t.uptime.lockForProbe(probe)).toMatchObject({ host, state: "unknown" });
          await t.uptime.recordProbe(probe, state, probe.url);
        });
        expect(await store.uptime.target(host)).toMatchObject({ ...state, url: `http://${host}/`, last_check: slot + 1, last_status: 503, last_cause: "http 503", first_probe: slot + 1 });
        expect(await store.tx((t) => t.uptime.lockForProbe(probe))).toBeNull();
        expect(await store.tx((t) => t.uptime.lockForProbe({ host, slot: slot - 300, confirm: true }))).toBeNull();
        expect(await store.tx((t) => t.uptime.lockForProbe({ ...probe, confirm: true }))).toMatchObject({ host, state: "suspect" });
      });
    });

    describe("AccountsRepo", () => {
      it("plans are data: a plan is seeded once, a later seed with other numbers leaves it, a change reaches every account on it", async () => {
        const name = uniq("seeded-");
        const id = await accounts.seedPlan(name, { ...PLAN, crawl_pages: 700 });
        // A second process with other seed values (another SVC_PLAN_CRAWL_PAGES): nothing changes.
        expect(await accounts.seedPlan(name, { ...PLAN, crawl_pages: 900, sites: 1 })).toBe(id);
        expect(await accounts.planByName(name)).toMatchObject({ id, crawl_pages: 700, sites: PLAN.sites });
        const a = await accounts.createAccount(`${uniq("on-plan")}@example.test`, id, false, 1_000);
        const b = await accounts.createAccount(`${uniq("on-plan")}@example.test`, id, false, 1_000);
        expect(await accounts.countAccountsOnPlan(id)).toBe(2);
        expect(await accounts.updatePlan(name, { crawl_pages: 5000 })).toMatchObject({ id, crawl_pages: 5000, crawl_depth: PLAN.crawl_depth });
        expect((await accounts.planOfAccount(a.id))?.crawl_pages).toBe(5000);
        expect((await accounts.planOfAccount(b.id))?.crawl_pages).toBe(5000);
        expect(await accounts.updatePlan(uniq("no-such-plan-"), { crawl_pages: 1 })).toBeNull();
      });

      it("upsertPlan returns the same id when called again and updates the numbers", async () => {
        const name = uniq("plan-up-");
        const id = await accounts.upsertPlan(name, PLAN);
        const again = await accounts.upsertPlan(name, { sites: 1, checks_per_day: 2, rechecks_per_day: 3, webhooks: 4, api_keys: 5 });
        expect(again).toBe(id);
        // Crawl limits left out keep their values; given, they change.
        expect(await accounts.plan(id)).toEqual({ id, name, sites: 1, checks_per_day: 2, rechecks_per_day: 3, webhooks: 4, api_keys: 5, crawl_pages: 500, crawl_depth: 10, uptime_min: 5, key_rate_per_hour: 10000 });
        await accounts.upsertPlan(name, { sites: 1, checks_per_day: 2, rechecks_per_day: 3, webhooks: 4, api_keys: 5, crawl_pages: 40, crawl_depth: 3 });
        expect(await accounts.plan(id)).toMatchObject({ crawl_pages: 40, crawl_depth: 3 });
        expect(await accounts.plan(987_654)).toBeNull();
      });

      it("createAccount, accountByEmail and listAccounts", async () => {
        const planId = await newPlan();
        const email1 = `${uniq("list")}@example.test`;
        const email2 = `${uniq("list")}@example.test`;
        const a = await accounts.createAccount(email1, planId, true, 1_234);
        const b = await accounts.createAccount(email2, planId, false, 1_235);
        expect(a).toEqual({ id: expect.any(Number), email: email1, plan_id: planId, blocked: false, is_admin: true, created: 1_234 });
        expect(b).toEqual({ id: expect.any(Number), email: email2, plan_id: planId, blocked: false, is_admin: false, created: 1_235 });
        expect(b.id).toBeGreaterThan(a.id);
        expect(await accounts.accountByEmail(email1)).toEqual(a);
        expect(await accounts.accountByEmail(`${uniq("none")}@example.test`)).toBeNull();
        const all = await accounts.listAccounts();
        expect(all.filter((r) => r.email === email1 || r.email === email2)).toEqual([a, b]);
        const ids = all.map((r) => r.id);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        expect(await accounts.countAccounts()).toBe(all.length);
      });

      it("insertKey returns allowed_ips normalised by abbrev, scopes and the other columns", async () => {
        const a = await newAccount();
        const k = await accounts.insertKey(
          newKey(a.id, {
            name: "ci",
            kind: "oauth",
            prefix: "svc_ab",
            scopes: ["read", "write"],
            allowedIps: ["10.0.0.0/8", "2001:0db8:0000:0000:0000:0000:0000:0001", "192.168.1.1/32"],
            ratePerHour: 250,
            expiresAt: 9_000,
          }),
          1_500,
        );
        expect(k).toEqual({
          id: expect.any(Number),
          account_id: a.id,
          name: "ci",
          kind: "oauth",
          prefix: "svc_ab",
          scopes: ["read", "write"],
          allowed_ips: ["10.0.0.0/8", "2001:db8::1", "192.168.1.1"],
          rate_limit_per_hour: 250,
          created: 1_500,
          expires_at: 9_000,
          revoked_at: null,
        });
        const plain = await accounts.insertKey(newKey(a.id), 1_600);
        expect(plain).toMatchObject({ kind: "api", scopes: ["read"], allowed_ips: [], expires_at: null, revoked_at: null });
      });

      it("insertKeyWithinPlan returns 'limit' once the plan's usable keys exist; revoked or expired keys do not count", async () => {
        const a = await newAccount({ api_keys: 2 });
        const now = 10_000;
        const revoked = await accounts.insertKey(newKey(a.id), now - 100);
        await accounts.revokeKey(a.id, revoked.id, now - 50);
        await accounts.insertKey(newKey(a.id, { expiresAt: now - 1 }), now - 100);
        await accounts.insertKey(newKey(a.id, { expiresAt: now }), now - 100); // expires_at = now: no longer usable
        const first = await accounts.insertKeyWithinPlan(newKey(a.id, { name: "first" }), now);
        const second = await accounts.insertKeyWithinPlan(newKey(a.id, { name: "second", expiresAt: now + 1 }), now);
        expect(first).toMatchObject({ account_id: a.id, name: "first", created: now });
        expect(second).toMatchObject({ account_id: a.id, name: "second", expires_at: now + 1 });
        expect(await accounts.insertKeyWithinPlan(newKey(a.id, { name: "third" }), now)).toBe("limit");
        expect((await accounts.listKeys(a.id, 100, 0)).total).toBe(5);
        // Revoking one frees its place.
        await accounts.revokeKey(a.id, (first as { id: number }).id, now);
        expect(await accounts.insertKeyWithinPlan(newKey(a.id, { name: "fourth" }), now)).toMatchObject({ name: "fourth" });
        expect(await accounts.insertKeyWithinPlan(newKey(a.id, { name: "fifth" }), now)).toBe("limit");
        // Later, "second" has expired and frees its place too.
        expect(await accounts.insertKeyWithinPlan(newKey(a.id, { name: "sixth" }), now + 1)).toMatchObject({ name: "sixth" });
        expect(await accounts.insertKeyWithinPlan(newKey(a.id), now + 2)).toBe("limit"); // "fourth" and "sixth"
        expect(await accounts.insertKeyWithinPlan(newKey(987_654), now)).toBe("limit"); // no such account
      });

      it("insertKeyWithinPlan refuses a key whose hourly limit takes the usable keys' sum past the plan's ceiling", async () => {
        const a = await newAccount({ key_rate_per_hour: 1_000 });
        const now = 10_000;
        const gone = await accounts.insertKey(newKey(a.id, { ratePerHour: 900 }), now - 100);
        await accounts.revokeKey(a.id, gone.id, now - 50); // revoked keys do not count
        expect(await accounts.insertKeyWithinPlan(newKey(a.id, { ratePerHour: 600 }), now)).toMatchObject({ rate_limit_per_hour: 600 });
        expect(await accounts.insertKeyWithinPlan(newKey(a.id, { ratePerHour: 401 }), now)).toEqual({ rate: { ceiling: 1_000, used: 600 } });
        expect(await accounts.insertKeyWithinPlan(newKey(a.id, { ratePerHour: 400 }), now)).toMatchObject({ rate_limit_per_hour: 400 });
        expect(await accounts.keyRateInUse(a.id, now)).toBe(1_000);
      });

      it("listKeys pages in id order with the total", async () => {
        const a = await newAccount();
        const ids: number[] = [];
        for (let i = 0; i < 5; i++) ids.push((await accounts.insertKey(newKey(a.id, { name: `k${i}` }), 1_000 + i)).id);
        const page = async (limit: number, offset: number) => {
          const r = await accounts.listKeys(a.id, limit, offset);
          return { ids: r.rows.map((k) => k.id), total: r.total };
        };
        expect(await page(2, 0)).toEqual({ ids: ids.slice(0, 2), total: 5 });
        expect(await page(2, 2)).toEqual({ ids: ids.slice(2, 4), total: 5 });
        expect(await page(2, 4)).toEqual({ ids: ids.slice(4), total: 5 });
        expect(await page(2, 10)).toEqual({ ids: [], total: 5 });
        expect(await page(10, 0)).toEqual({ ids, total: 5 });
        expect((await accounts.listKeys(a.id, 1, 0)).rows[0]).toMatchObject({ name: "k0", created: 1_000, allowed_ips: [] });
        expect(await accounts.listKeys((await newAccount()).id, 10, 0)).toEqual({ rows: [], total: 0 });
      });

      it("revokeKey sets revoked_at once, and returns null for another account's key", async () => {
        const a = await newAccount();
        const other = await newAccount();
        const k = await accounts.insertKey(newKey(a.id), 1_000);
        expect(await accounts.revokeKey(other.id, k.id, 1_500)).toBeNull();
        expect((await accounts.listKeys(a.id, 10, 0)).rows[0]?.revoked_at).toBeNull();
        expect(await accounts.revokeKey(a.id, k.id, 2_000)).toMatchObject({ id: k.id, account_id: a.id, revoked_at: 2_000 });
        expect(await accounts.revokeKey(a.id, k.id, 3_000)).toMatchObject({ id: k.id, revoked_at: 2_000 });
        expect((await accounts.listKeys(a.id, 10, 0)).rows[0]?.revoked_at).toBe(2_000);
        expect(await accounts.revokeKey(a.id, 987_654, 2_000)).toBeNull();
      });

      it("setBlocked by id and by e-mail; false for an unknown account", async () => {
        const a = await newAccount();
        const b = await newAccount();
        expect(await accounts.setBlocked(String(a.id), true)).toBe(true);
        expect((await accounts.accountByEmail(a.email))?.blocked).toBe(true);
        expect((await accounts.accountByEmail(b.email))?.blocked).toBe(false);
        expect(await accounts.setBlocked(a.email, false)).toBe(true);
        expect((await accounts.accountByEmail(a.email))?.blocked).toBe(false);
        expect(await accounts.setBlocked(b.email, true)).toBe(true);
        expect((await accounts.accountByEmail(b.email))?.blocked).toBe(true);
        expect(await accounts.setBlocked(`${uniq("ghost")}@example.test`, true)).toBe(false);
        expect(await accounts.setBlocked("987654", true)).toBe(false);
      });
    });

    describe("AuthRepo", () => {
      it("findKey by hash returns the joined record, or null", async () => {
        const a = await newAccount({}, true);
        const k = await accounts.insertKey(
          newKey(a.id, { name: "gw", prefix: "svc_gw", hash: uniq("find-"), scopes: ["read", "run"], allowedIps: ["10.0.0.0/8"], ratePerHour: 60 }),
          1_100,
        );
        const hash = (await db.query<{ hash: string }>("SELECT hash FROM api_keys WHERE id = $1", [k.id]))[0]?.hash as string;
        expect(await auth.findKey(hash)).toEqual({
          key_id: k.id,
          account_id: a.id,
          email: a.email,
          name: "gw",
          kind: "api",
          prefix: "svc_gw",
          scopes: ["read", "run"],
          allowed_ips: ["10.0.0.0/8"],
          rate_limit_per_hour: 60,
          created: 1_100,
          expires_at: null,
          revoked_at: null,
          blocked: false,
          is_admin: true,
          // An API key belongs to no OAuth grant (an access key of a grant names it).
          oauth_grant_id: null,
        });
        await accounts.setBlocked(a.email, true);
        await accounts.revokeKey(a.id, k.id, 1_200);
        expect(await auth.findKey(hash)).toMatchObject({ key_id: k.id, blocked: true, revoked_at: 1_200 });
        expect(await auth.findKey(uniq("no-such-hash-"))).toBeNull();
      });

      it("reserve grants min(want, cap) first, then up to the remaining, then null; n never exceeds cap", async () => {
        const s = uniq("k:");
        const hour = 500_000;
        expect(await auth.reserve(s, hour, 5, 10)).toEqual({ granted: 5, n: 5 });
        expect(await auth.reserve(s, hour, 4, 10)).toEqual({ granted: 4, n: 9 });
        expect(await auth.reserve(s, hour, 5, 10)).toEqual({ granted: 1, n: 10 });
        expect(await auth.reserve(s, hour, 1, 10)).toBeNull();
        expect(await auth.reserve(s, hour, 3, 12)).toEqual({ granted: 2, n: 12 }); // a raised cap
        expect(await auth.reserve(s, hour, 1, 5)).toBeNull(); // a lowered cap: n stays
        expect(await auth.used(s, hour)).toBe(12);
        // Another hour, another window; a first call above the cap gets the cap.
        expect(await auth.reserve(s, hour + 1, 15, 10)).toEqual({ granted: 10, n: 10 });
        expect(await auth.reserve(s, hour + 1, 1, 10)).toBeNull();
        // A cap of 0 reserves nothing and stores nothing.
        const empty = uniq("a:");
        expect(await auth.reserve(empty, hour, 1, 0)).toBeNull();
        expect(await auth.used(empty, hour)).toBe(0);
        expect(await db.query("SELECT n FROM rate_counters WHERE subject = $1", [empty])).toEqual([]);
      });

      it("30 concurrent reserve(want 1, cap 10) calls grant exactly 10", async () => {
        const s = uniq("k:race");
        const hour = 500_100;
        const results = await Promise.all(Array.from({ length: 30 }, () => auth.reserve(s, hour, 1, 10)));
        const granted = results.filter((r): r is Reservation => r !== null);
        expect(granted.reduce((sum, r) => sum + r.granted, 0)).toBe(10);
        expect(granted.map((r) => r.n).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(results.filter((r) => r === null)).toHaveLength(20);
        expect(await auth.used(s, hour)).toBe(10);
      });

      it("purgeCounters removes older hours only", async () => {
        const s = uniq("k:purge");
        for (const h of [100, 101, 102, 103]) await auth.reserve(s, h, 1, 5);
        await auth.purgeCounters(102);
        expect(await db.query("SELECT hour, n FROM rate_counters WHERE subject = $1 ORDER BY hour", [s])).toEqual([
          { hour: 102, n: 1 },
          { hour: 103, n: 1 },
        ]);
      });
    });

    describe("IdempotencyRepo", () => {
      // Every test has an account of its own (the table has no foreign key) and times from T on.
      const T = 1_000_000;
      let nextAccount = 70_000;
      const acct = () => ++nextAccount;
      const answer = { status: 201, body: '{"id":7}', headers: { "content-type": "application/json", location: "/api/v1/keys/7" } };

      it("claim → claimed; while running: busy, or conflict for another fingerprint; after complete(): replay", async () => {
        const a = acct();
        expect(await idem.claim(a, "k", "fp-a", T, 60, 86_400)).toEqual({ kind: "claimed" });
        expect(await idem.claim(a, "k", "fp-a", T + 1, 60, 86_400)).toEqual({ kind: "busy" });
        expect(await idem.claim(a, "k", "fp-b", T + 1, 60, 86_400)).toEqual({ kind: "conflict" });
        expect(await idem.claim(a + 1_000, "k", "fp-b", T + 1, 60, 86_400)).toEqual({ kind: "claimed" }); // keys are per account
        await idem.complete(a, "k", answer);
        expect(await idem.claim(a, "k", "fp-a", T + 2, 60, 86_400)).toEqual({ kind: "replay", answer });
        expect(await idem.claim(a, "k", "fp-a", T + 500, 60, 86_400)).toEqual({ kind: "replay", answer }); // lock expiry is irrelevant once done
        expect(await idem.claim(a, "k", "fp-b", T + 3, 60, 86_400)).toEqual({ kind: "conflict" });
      });

      it("release() deletes a running claim so that the next claim succeeds, and leaves a done one", async () => {
        const a = acct();
        expect(await idem.claim(a, "k", "fp", T, 60, 86_400)).toEqual({ kind: "claimed" });
        await idem.release(a, "k");
        expect(await idem.claim(a, "k", "fp", T + 1, 60, 86_400)).toEqual({ kind: "claimed" });
        await idem.complete(a, "k", { status: 200, body: "", headers: {} });
        await idem.release(a, "k");
        expect(await idem.claim(a, "k", "fp", T + 2, 60, 86_400)).toEqual({ kind: "replay", answer: { status: 200, body: "", headers: {} } });
      });

      it("an expired row (expires_at <= now) is claimed anew, whatever its fingerprint", async () => {
        const a = acct();
        expect(await idem.claim(a, "k", "fp-a", T, 60, 100)).toEqual({ kind: "claimed" });
        await idem.complete(a, "k", answer);
        expect(await idem.claim(a, "k", "fp-b", T + 99, 60, 100)).toEqual({ kind: "conflict" });
        expect(await idem.claim(a, "k", "fp-b", T + 100, 60, 100)).toEqual({ kind: "claimed" });
        expect(await idem.claim(a, "k", "fp-b", T + 101, 60, 100)).toEqual({ kind: "busy" });
        expect(await idem.claim(a, "k", "fp-a", T + 101, 60, 100)).toEqual({ kind: "conflict" });
      });

      it("a running claim whose lock expired is taken over by the same fingerprint, not by another", async () => {
        const a = acct();
        expect(await idem.claim(a, "k", "fp-a", T, 30, 86_400)).toEqual({ kind: "claimed" });
        expect(await idem.claim(a, "k", "fp-a", T + 29, 30, 86_400)).toEqual({ kind: "busy" });
        expect(await idem.claim(a, "k", "fp-b", T + 30, 30, 86_400)).toEqual({ kind: "conflict" });
        expect(await idem.claim(a, "k", "fp-a", T + 30, 30, 86_400)).toEqual({ kind: "claimed" }); // locked until T + 60 now
        expect(await idem.claim(a, "k", "fp-a", T + 59, 30, 86_400)).toEqual({ kind: "busy" });
        expect(await idem.claim(a, "k", "fp-b", T + 100, 30, 86_400)).toEqual({ kind: "conflict" });
      });

      it("purgeExpired returns the number of rows removed", async () => {
        // Times far below T: only these rows can have expired.
        const a = acct();
        await idem.claim(a, "k1", "fp", 100, 60, 400); // expires 500
        await idem.claim(a, "k2", "fp", 100, 60, 500); // expires 600
        await idem.claim(a, "k3", "fp", 100, 60, 600); // expires 700
        await idem.complete(a, "k1", answer);
        expect(await idem.purgeExpired(600)).toBe(2);
        expect(await idem.purgeExpired(600)).toBe(0);
        expect(await db.query("SELECT key FROM idempotency_keys WHERE account_id = $1", [a])).toEqual([{ key: "k3" }]);
        expect(await idem.purgeExpired(700)).toBe(1);
      });

      it("20 concurrent claims of one key yield exactly one 'claimed'", async () => {
        const a = acct();
        const outcomes = await Promise.all(Array.from({ length: 20 }, () => idem.claim(a, "race", "fp", T, 60, 86_400)));
        const count = (kind: ClaimOutcome["kind"]) => outcomes.filter((o) => o.kind === kind).length;
        expect({ claimed: count("claimed"), busy: count("busy"), other: count("conflict") + count("replay") }).toEqual({ claimed: 1, busy: 19, other: 0 });
      });
    });

    describe("SitesRepo", () => {
      const host = (h: string) => ({ host: h, interval_h: 24, importance: "normal", project_id: null, project: null });

      it("add → added, again → exists, beyond the plan → limit", async () => {
        const a = await newAccount({ sites: 2 });
        const added = await sites.add(a.id, "a.example", 24, 5_000);
        expect(added).toEqual({ kind: "added", site: { id: expect.any(Number), added: 5_000, ...host("a.example") } });
        const site = (added as { site: { id: number } }).site;
        expect(await sites.add(a.id, "a.example", 6, 6_000)).toEqual({ kind: "exists", site: { id: site.id, added: 5_000, ...host("a.example") } });
        expect((await sites.add(a.id, "b.example", 24, 5_000)).kind).toBe("added");
        expect(await sites.add(a.id, "c.example", 24, 5_000)).toEqual({ kind: "limit", max: 2 });
        expect((await sites.add(a.id, "b.example", 24, 5_000)).kind).toBe("exists"); // present: not a limit
        expect(await sites.count(a.id)).toBe(2);
        // Another account may monitor the same host.
        expect((await sites.add((await newAccount()).id, "a.example", 24, 5_000)).kind).toBe("added");
        expect(await sites.get(a.id, "a.example")).toEqual({ id: site.id, added: 5_000, ...host("a.example") });
        expect(await sites.get(a.id, "c.example")).toBeNull();
        expect(await sites.remove(a.id, "a.example")).toBe(true);
        expect(await sites.remove(a.id, "a.example")).toBe(false);
        expect((await sites.add(a.id, "c.example", 24, 5_000)).kind).toBe("added");
      });

      it("10 concurrent adds of distinct hosts with a plan of 5 sites end with exactly 5 sites", async () => {
        const a = await newAccount({ sites: 5 });
        const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => sites.add(a.id, `h${i}.example`, 24, 5_000)));
        expect(outcomes.filter((o) => o.kind === "added")).toHaveLength(5);
        expect(outcomes.filter((o) => o.kind === "limit")).toEqual(Array.from({ length: 5 }, () => ({ kind: "limit", max: 5 })));
        expect(await sites.count(a.id)).toBe(5);
      });

      it("list pages by host with the right total for a full page, a partial page and a page past the end", async () => {
        const a = await newAccount();
        for (const h of ["e.example", "c.example", "a.example", "d.example", "b.example"]) await sites.add(a.id, h, 24, 5_000);
        const page = async (limit: number, offset: number) => {
          const r = await sites.list(a.id, limit, offset);
          return { hosts: r.rows.map((s) => s.host), total: r.total };
        };
        expect(await page(2, 0)).toEqual({ hosts: ["a.example", "b.example"], total: 5 });
        expect(await page(2, 2)).toEqual({ hosts: ["c.example", "d.example"], total: 5 });
        expect(await page(2, 4)).toEqual({ hosts: ["e.example"], total: 5 });
        expect(await page(5, 0)).toEqual({ hosts: ["a.example", "b.example", "c.example", "d.example", "e.example"], total: 5 });
        expect(await page(10, 3)).toEqual({ hosts: ["d.example", "e.example"], total: 5 });
        expect(await page(2, 5)).toEqual({ hosts: [], total: 5 });
        expect(await page(2, 50)).toEqual({ hosts: [], total: 5 });
        expect(await sites.list((await newAccount()).id, 10, 0)).toEqual({ rows: [], total: 0 });
      });

      it("update: a project name creates the project, another site joining shares its id, the last site leaving deletes it", async () => {
        const a = await newAccount();
        const projects = () => db.query<{ id: number; name: string }>("SELECT id, name FROM projects WHERE account_id = $1 ORDER BY id", [a.id]);
        for (const h of ["a.example", "b.example"]) await sites.add(a.id, h, 24, 5_000);
        const first = await sites.update(a.id, "a.example", { project: "Shop" });
        expect(first).toMatchObject({ host: "a.example", project: "Shop", project_id: expect.any(Number) });
        const shopId = first?.project_id as number;
        expect(await projects()).toEqual([{ id: shopId, name: "Shop" }]);
        expect(await sites.update(a.id, "b.example", { project: "Shop", intervalH: 6, importance: "high" })).toEqual({
          id: expect.any(Number),
          host: "b.example",
          added: 5_000,
          interval_h: 6,
          importance: "high",
          project_id: shopId,
          project: "Shop",
        });
        expect(await sites.update(a.id, "a.example", { project: null })).toMatchObject({ project: null, project_id: null });
        expect(await projects()).toEqual([{ id: shopId, name: "Shop" }]); // b still in it
        // Moving the last site to another project deletes the old one.
        const moved = await sites.update(a.id, "b.example", { project: "Blog" });
        expect(moved).toMatchObject({ project: "Blog", interval_h: 6, importance: "high" });
        expect(await projects()).toEqual([{ id: moved?.project_id, name: "Blog" }]);
        expect(await sites.update(a.id, "b.example", { project: null })).toMatchObject({ project: null, project_id: null });
        expect(await projects()).toEqual([]);
        // Changes without a project leave the project alone; an unknown host gives null.
        expect(await sites.update(a.id, "a.example", { importance: "low" })).toMatchObject({ importance: "low", project: null });
        expect(await sites.update(a.id, "zzz.example", { importance: "low" })).toBeNull();
        expect(await sites.get(a.id, "b.example")).toMatchObject({ project: null, interval_h: 6, importance: "high" });
      });

      it("a site joining a project while the project's last site leaves it keeps the project (concurrent updates, 20 rounds)", async () => {
        const a = await newAccount({ sites: 100 });
        const lost: string[] = [];
        for (let i = 0; i < 20; i++) {
          const leaving = `leave${i}.example`;
          const joining = `join${i}.example`;
          await sites.add(a.id, leaving, 24, 5_000);
          await sites.add(a.id, joining, 24, 5_000);
          await sites.update(a.id, leaving, { project: `P${i}` });
          const [, joined] = await Promise.all([sites.update(a.id, leaving, { project: null }), sites.update(a.id, joining, { project: `P${i}` })]);
          const stored = await sites.get(a.id, joining);
          if (stored?.project !== `P${i}` || stored.project_id !== joined?.project_id) {
            lost.push(`round ${i}: update returned ${joined?.project}/${joined?.project_id}, stored ${stored?.project}/${stored?.project_id}`);
          }
        }
        expect(lost).toEqual([]);
      });

      describe("candidates (the overview's stored-data filters)", () => {
        let a: number;
        let redId: number;
        let allHosts: string[];
        const ov = async (o: OverviewFilter) => {
          const r = await sites.candidates(a, o);
          return { hosts: r.rows.map((s) => s.host), n: r.n };
        };

        beforeAll(async () => {
          a = (await newAccount({ sites: 20 })).id;
          const setup: Array<[string, string | null]> = [
            ["alpha.example", "Red Team"],
            ["beta.example", "Blue_Team"],
            ["gamma.example", null],
            ["delta.example", "100% Green"],
            ["under_score.example", null],
            ["epsilon.example", "Red Team"],
            ["zeta.example", "Ärzte Süd"],
          ];
          for (const [h, project] of setup) {
            await sites.add(a, h, 24, 5_000);
            if (project) await sites.update(a, h, { project });
          }
          await sites.update(a, "gamma.example", { importance: "high" });
          await sites.update(a, "epsilon.example", { importance: "high" });
          redId = (await sites.get(a, "alpha.example"))?.project_id as number;
          allHosts = setup.map(([h]) => h).sort();
        });

        it("without filters: every site by host", async () => {
          expect(await ov({})).toEqual({ hosts: allHosts, n: 7 });
          expect(await sites.candidates((await newAccount()).id, {})).toEqual({ rows: [], n: 0 });
        });

        it("q matches host and project name, case-insensitively", async () => {
          expect(await ov({ q: "ALPHA" })).toEqual({ hosts: ["alpha.example"], n: 7 });
          expect(await ov({ q: "red team" })).toEqual({ hosts: ["alpha.example", "epsilon.example"], n: 7 });
          expect(await ov({ q: "TEAM" })).toEqual({ hosts: ["alpha.example", "beta.example", "epsilon.example"], n: 7 });
          expect(await ov({ q: "nothing-like-this" })).toEqual({ hosts: [], n: 7 });
        });

        it("q takes % and _ (and \\) literally", async () => {
          expect(await ov({ q: "_" })).toEqual({ hosts: ["beta.example", "under_score.example"], n: 7 });
          expect(await ov({ q: "%" })).toEqual({ hosts: ["delta.example"], n: 7 });
          expect(await ov({ q: "a_e" })).toEqual({ hosts: [], n: 7 }); // a wildcard would match "alpha.example"
          expect(await ov({ q: "0% G" })).toEqual({ hosts: ["delta.example"], n: 7 });
          expect(await ov({ q: "a%e" })).toEqual({ hosts: [], n: 7 });
          expect(await ov({ q: "\\" })).toEqual({ hosts: [], n: 7 });
        });

        it("q finds a project by its exact non-ASCII name", async () => {
          expect(await ov({ q: "Ärzte Süd" })).toEqual({ hosts: ["zeta.example"], n: 7 });
          expect(await ov({ q: "süd" })).toEqual({ hosts: ["zeta.example"], n: 7 });
        });

        it("projectId and importance filters", async () => {
          expect(await ov({ projectId: redId })).toEqual({ hosts: ["alpha.example", "epsilon.example"], n: 7 });
          expect(await ov({ projectId: 987_654 })).toEqual({ hosts: [], n: 7 });
          expect(await ov({ importance: "high" })).toEqual({ hosts: ["epsilon.example", "gamma.example"], n: 7 });
          expect(await ov({ importance: "high", projectId: redId })).toEqual({ hosts: ["epsilon.example"], n: 7 });
          expect(await ov({ importance: "critical" })).toEqual({ hosts: [], n: 7 });
        });
      });
    });

    describe("TasksRepo", () => {
      const draft = (code: string, d: Partial<TaskDraftRow> = {}): TaskDraftRow => ({
        code,
        title: `fix ${code}`,
        level: "warn",
        group: "content",
        impact: 1.5,
        hint: "hint",
        detail: "detail",
        source: "analysis",
        recheck: true,
        effort: 2,
        ...d,
      });
      const byCode = async (accountId: number) =>
        Object.fromEntries((await tasks.forHost(accountId, "t.example")).map((t) => [t.code, { status: t.status, title: t.title, impact: t.impact, impact_uncapped: t.impact_uncapped, level: t.level, last_seen: t.last_seen, updated: t.updated, done_at: t.done_at }]));

      it("applyRun opens the failing checks' tasks in one go, updates them on the next run, marks the passing ones done and reopens them when they fail again", async () => {
        const a = await newAccount();
        const first = await tasks.applyRun(a.id, "t.example", 100, [draft("title"), draft("h1", { level: "bad", impact: 4, impactUncapped: 6 }), draft("alt")], new Set());
        expect(first.map((t) => [t.code, t.kind])).toEqual([["title", "new"], ["h1", "new"], ["alt", "new"]]);
        const ids = Object.fromEntries(first.map((t) => [t.code, t.taskId]));
        expect(new Set(Object.values(ids)).size).toBe(3);
        expect(await byCode(a.id)).toEqual({
          title: { status: "open", title: "fix title", impact: 1.5, impact_uncapped: 1.5, level: "warn", last_seen: 100, updated: 100, done_at: null },
          h1: { status: "open", title: "fix h1", impact: 4, impact_uncapped: 6, level: "bad", last_seen: 100, updated: 100, done_at: null },
          alt: { status: "open", title: "fix alt", impact: 1.5, impact_uncapped: 1.5, level: "warn", last_seen: 100, updated: 100, done_at: null },
        });
        // The next run: title still fails (new figures), h1 passes, alt is not judged, a new one fails.
        const second = await tasks.applyRun(a.id, "t.example", 200, [draft("title", { impact: 2, title: "fix the title" }), draft("lang")], new Set(["h1"]));
        expect(second.map((t) => [t.code, t.kind, t.taskId])).toEqual([["lang", "new", expect.any(Number)], ["h1", "fixed", ids.h1]]);
        const after = await byCode(a.id);
        expect(after.title).toEqual({ status: "open", title: "fix the title", impact: 2, impact_uncapped: 2, level: "warn", last_seen: 200, updated: 100, done_at: null });
        expect(after.h1).toMatchObject({ status: "done", updated: 200, done_at: 200, last_seen: 100 });
        expect(after.alt).toMatchObject({ status: "open", last_seen: 100 });
        // h1 fails again: the same task, reopened; a code twice in one run is one task.
        const third = await tasks.applyRun(a.id, "t.example", 300, [draft("h1", { impact: 3 }), draft("h1", { impact: 5 })], new Set());
        expect(third).toEqual([{ taskId: ids.h1, code: "h1", title: "fix h1", kind: "returned" }]);
        expect((await byCode(a.id)).h1).toMatchObject({ status: "open", impact: 5, updated: 300, last_seen: 300 });
        // Nothing failing and nothing passing writes nothing.
        expect(await tasks.applyRun(a.id, "t.example", 400, [], new Set())).toEqual([]);
        expect((await byCode(a.id)).title).toMatchObject({ last_seen: 200 });
      });

      it("an ignored task stays ignored when its check fails again, and another account's tasks are its own", async () => {
        const a = await newAccount();
        const b = await newAccount();
        const [t] = await tasks.applyRun(a.id, "t.example", 100, [draft("title")], new Set());
        await tasks.setStatus(a.id, t!.taskId, "ignored", 150);
        expect(await tasks.applyRun(a.id, "t.example", 200, [draft("title")], new Set(["other"]))).toEqual([]);
        expect((await byCode(a.id)).title).toMatchObject({ status: "ignored", last_seen: 200 });
        const [u] = await tasks.applyRun(b.id, "t.example", 200, [draft("title")], new Set());
        expect(u).toMatchObject({ code: "title", kind: "new" });
        expect(u!.taskId).not.toBe(t!.taskId);
      });
    });

    describe("ServiceStateRepo", () => {
      it("reads false/false by default and sets switches on and off", async () => {
        expect(await state.read()).toEqual({ maintenance: false, closed: false });
        await state.set("maintenance", true, 1_000);
        expect(await state.read()).toEqual({ maintenance: true, closed: false });
        await state.set("closed", true, 1_001);
        expect(await state.read()).toEqual({ maintenance: true, closed: true });
        await state.set("maintenance", false, 1_002);
        expect(await state.read()).toEqual({ maintenance: false, closed: true });
        expect(await db.query("SELECT name, value, updated FROM service_state ORDER BY name")).toEqual([
          { name: "closed", value: "on", updated: 1_001 },
          { name: "maintenance", value: "off", updated: 1_002 },
        ]);
        await state.set("closed", false, 1_003);
        expect(await state.read()).toEqual({ maintenance: false, closed: false });
      });
    });

    describe("PostgresUsageSeries", () => {
      it("add is additive per (key, day); read sums over keys per day, from..to inclusive, oldest first", async () => {
        const [k1, k2, k3] = [910_001, 910_002, 910_003];
        await usage.add([]);
        await usage.add([
          { keyId: k1, day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
          { keyId: k1, day: "2024-02-28", calls: 1, errors: 0, limited: 0 },
          { keyId: k2, day: "2024-02-28", calls: 2, errors: 1, limited: 0 },
          { keyId: k1, day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
          { keyId: k3, day: "2024-02-29", calls: 100, errors: 100, limited: 100 },
        ]);
        await usage.add([
          { keyId: k1, day: "2024-02-28", calls: 3, errors: 1, limited: 1 },
          { keyId: k2, day: "2024-03-02", calls: 7, errors: 0, limited: 0 },
        ]);
        expect(await usage.read([k1], "2024-02-28", "2024-03-01")).toEqual([
          { day: "2024-02-28", calls: 4, errors: 1, limited: 1 },
          { day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
          { day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
        ]);
        expect(await usage.read([k1, k2], "2024-02-28", "2024-03-02")).toEqual([
          { day: "2024-02-28", calls: 6, errors: 2, limited: 1 },
          { day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
          { day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
          { day: "2024-03-02", calls: 7, errors: 0, limited: 0 },
        ]);
        expect(await usage.read([k1, k2], "2024-02-29", "2024-03-01")).toEqual([
          { day: "2024-02-29", calls: 5_000_000_000, errors: 0, limited: 1 },
          { day: "2024-03-01", calls: 1, errors: 1, limited: 1 },
        ]);
        expect(await usage.read([k1], "2024-03-02", "2024-02-28")).toEqual([]);
        expect(await usage.read([], "2024-01-01", "2024-12-31")).toEqual([]);
        expect(await usage.read([987_654], "2024-01-01", "2024-12-31")).toEqual([]);
      });
    });
  });
}
