import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, InProcessBus, loadConfig, ManualClock, unixSeconds } from "../../runtime/index.ts";
import { webhooksPlanner, WEBHOOK_EVENTS_CURSOR, type PlannerContext } from "../../scheduler/index.ts";
import { createStore, openPglite, type Db, type JobRow, type Store } from "../../storage/index.ts";
import { createTestCa, type TestCa } from "../harness/fixture-web/ca.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { readPgliteTemplate } from "../harness/template.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../harness/webhook-receiver.ts";

// Crashes at each step between an event and its delivery, caused for real by a store that fails at
// that step (a transaction that throws is a process that died before its commit), with the
// planner run by hand: nothing is lost, and no attempt is handed out twice.

let db: Db;
let store: Store;
const clock = new ManualClock(1_800_000_000_000);
const config = loadConfig({ SVC_LEASE_MS: "30000" }, "serve");
const published: JobRow[] = [];
let accountId: number;
let hookId: number;

function ctx(s: Store = store): PlannerContext {
  return {
    store: s,
    config,
    clock,
    logger: createLogger("silent"),
    bus: new InProcessBus(),
    message: (job) => (published.push(job), { topic: "svc.work.v1", key: job.host, payload: new Uint8Array() }),
    kick: () => {},
  };
}

beforeAll(async () => {
  db = await openPglite(null, readPgliteTemplate());
  store = createStore(db);
  const plan = await store.accounts.upsertPlan("crash", { sites: 1, checks_per_day: 1, rechecks_per_day: 1, webhooks: 5, api_keys: 1 });
  accountId = (await store.accounts.createAccount("crash@example.com", plan, false, unixSeconds(clock))).id;
  const hook = await store.webhooks.createWithinPlan({ accountId, name: "r", url: "https://hooks.example.net/in", events: ["rank"], hosts: [], secret: "whsec_x" }, unixSeconds(clock));
  if (hook === "limit") throw new Error("plan");
  hookId = hook.id;
});
afterAll(() => db.close());

const emit = (key: string) =>
  store.events.appendAlone([{ eventKey: key, accountId, host: "shop.example.com", type: "rank", kind: "rank.changed", level: "bad", text: "Rank of shop.example.com fell from 60 to 50", payload: { from: 60, to: 50 } }], unixSeconds(clock));
const log = async () => (await store.webhooks.deliveries(accountId, hookId, 100, 0)).rows;
const crashing = <K extends keyof Store>(name: K, method: string): Store =>
  ({ ...store, [name]: new Proxy(store[name], { get: (t, p): unknown => (p === method ? () => Promise.reject(new Error(`crash in ${method}`)) : Reflect.get(t, p)) }) });

describe("webhook deliveries across crashes", () => {
  it("an event stored before a crash of the planner is delivered once the planner runs again", async () => {
    await emit("crash:1");
    // The planner dies while it writes the deliveries: the transaction rolls back with the cursor.
    const dying = { ...store, webhooks: Object.create(store.webhooks, { planFromEvents: { value: (...a: Parameters<Store["webhooks"]["planFromEvents"]>) => store.webhooks.planFromEvents(a[0], a[1], a[2], (e, h) => { a[3](e, h); throw new Error("crash mid-plan"); }) } }) } as Store;
    await expect(webhooksPlanner.run(ctx(dying))).rejects.toThrow("crash mid-plan");
    expect(await log()).toEqual([]);
    // It dies again after planning, while it hands the attempt out: the delivery waits.
    await expect(webhooksPlanner.run(ctx(crashing("jobs", "insertQueuedMany")))).rejects.toThrow("crash in insertQueuedMany");
    expect((await log()).map((d) => [d.state, d.job_id])).toEqual([["pending", null]]);
    expect(published).toEqual([]);
    // A planner that lives: one delivery, one job, one message.
    await webhooksPlanner.run(ctx());
    const [d] = await log();
    expect(d).toMatchObject({ state: "sending", attempts: 0 });
    expect(published.map((j) => [j.kind, j.target, j.max_attempts])).toEqual([["webhook", `${d!.id}/${hookId}@hooks.example.net`, 1]]);
    // More passes (of this or another scheduler) plan nothing more.
    await webhooksPlanner.run(ctx());
    await webhooksPlanner.run(ctx());
    expect(published).toHaveLength(1);
    expect(await log()).toHaveLength(1);
  });

  it("an attempt is leased once: a message handed out twice, or after its lease lapsed, runs nothing", async () => {
    const job = published[0]!;
    const now = clock.nowMs();
    expect((await store.jobs.lease(job.id, "crawler-a", now, 30_000)).granted).toBe(true);
    expect(await store.jobs.lease(job.id, "crawler-b", now, 30_000)).toEqual({ granted: false, reason: "held" });
    // crawler-a dies mid-send: its lease lapses, and the attempt is not handed out again.
    clock.advance(31_000);
    expect(await store.jobs.lease(job.id, "crawler-b", clock.nowMs(), 30_000)).toEqual({ granted: false, reason: "exhausted" });
    // Its completion, should it come late, is refused.
    expect(await store.jobs.complete(job.id, "crawler-a", unixSeconds(clock), async () => ({ runId: null }))).toBe(false);
  });

  it("the attempt whose crawler died counts as failed (no_answer), and the next follows the schedule", async () => {
    await webhooksPlanner.run(ctx());
    const t = unixSeconds(clock);
    const [d] = await log();
    expect(d).toMatchObject({ state: "failing", attempts: 1, failures: 1, last_error: "no_answer", next_attempt_at: t + 60 });
    expect(published).toHaveLength(1);
    clock.advance(59_000);
    await webhooksPlanner.run(ctx());
    expect(published).toHaveLength(1);
    clock.advance(1000);
    await webhooksPlanner.run(ctx());
    expect(published).toHaveLength(2);
    expect(published[1]!.target).toBe(`${d!.id}/${hookId}@hooks.example.net`);
    expect((await store.webhooks.attemptsOf([d!.id])).map((a) => [a.n, a.error])).toEqual([[1, "no_answer"]]);
    const cursor = await store.runs.cursor(WEBHOOK_EVENTS_CURSOR);
    expect(cursor).toBeGreaterThan(0);
  });
});

// The one duplicate docs/webhooks.md warns receivers of, end to end: the receiver answered 2xx but
// the completion never reached the record (here the scheduler refuses it, as it does a crawler's
// that lost the scheduler). The lease lapses, the attempt counts as failed (no_answer), and the
// next attempt, a minute later on the injected clock, sends the same delivery again.
describe("a receiver counting deliveries across a lost completion", () => {
  let gw: TestGateway;
  let ca: TestCa;
  let rx: WebhookReceiver;
  let dropNextWebhookCompletion = true;

  beforeAll(async () => {
    ca = await createTestCa();
    gw = await startTestGateway({
      env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_EXTRA_CA_FILE: ca.caFile, SVC_WEBHOOK_PLAN_MS: "100", SVC_LEASE_MS: "1000" },
      storeOverrides: (base, database) => {
        const jobs = Object.create(base.jobs, {
          complete: {
            value: async (...a: Parameters<Store["jobs"]["complete"]>) => {
              const [row] = await database.query<{ kind: string }>("SELECT kind FROM jobs WHERE id = $1", [a[0]]);
              if (dropNextWebhookCompletion && row?.kind === "webhook") {
                dropNextWebhookCompletion = false;
                return false;
              }
              return base.jobs.complete(...a);
            },
          },
        }) as Store["jobs"];
        return { ...base, jobs };
      },
    });
    rx = await startWebhookReceiver(ca, () => Math.floor(gw.clock.nowMs() / 1000));
  });
  afterAll(async () => {
    await gw?.close();
    await rx?.close();
    await ca?.close();
  });

  it("gets the delivery twice under one X-Svc-Delivery, and nothing is lost", async () => {
    const { key, accountId } = await gw.newAccount("dup@example.com");
    const created = await gw.call("POST", "/api/v1/webhooks", { key, body: { url: `${rx.origin}/dup`, events: ["rank"] } });
    expect(created.statusCode, created.body).toBe(201);
    const hook = created.json<{ id: number; secret: string }>();
    rx.secrets.add(hook.secret);
    const t0 = Math.floor(gw.clock.nowMs() / 1000);
    await gw.store.events.appendAlone([{ eventKey: "dup:1", accountId, host: "shop.example.com", type: "rank", kind: "rank.changed", level: "bad", text: "Rank of shop.example.com fell from 60 to 50", payload: { from: 60, to: 50 } }], t0);
    await rx.until("/dup", 1);
    const list = async () => (await gw.call("GET", `/api/v1/webhooks/${hook.id}/deliveries`, { key })).json<{ deliveries: Record<string, any>[] }>().deliveries; // eslint-disable-line @typescript-eslint/no-explicit-any
    // The completion was refused: the attempt is still "sending" until its lease lapses on the clock.
    expect((await list())[0]).toMatchObject({ status: "sending", attempts: 0 });
    gw.clock.advance(2000);
    for (let i = 0; (await list())[0]?.status !== "failing"; i++) {
      if (i > 300) throw new Error(`not failing: ${JSON.stringify(await list())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const failing = (await list())[0]!;
    expect(failing).toMatchObject({ status: "failing", attempts: 1, error: "no_answer", next_attempt_at: t0 + 2 + 60 });
    gw.clock.advance(60_000);
    const got = await rx.until("/dup", 2);
    for (let i = 0; (await list())[0]?.status !== "delivered"; i++) {
      if (i > 300) throw new Error(`not delivered: ${JSON.stringify(await list())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Both requests verify, carry the same delivery id, and each its own timestamp.
    expect(got.map((r) => [r.verifiedWith, r.headers["x-svc-delivery"], Number(r.headers["x-svc-timestamp"])])).toEqual([
      [hook.secret, String(failing.id), t0],
      [hook.secret, String(failing.id), t0 + 62],
    ]);
    const [delivered] = await list();
    expect(delivered).toMatchObject({ id: failing.id, status: "delivered", attempts: 2, code: 200 });
    expect((delivered!.attempt_log as { n: number; error: string | null }[]).map((a) => [a.n, a.error])).toEqual([
      [1, "no_answer"],
      [2, null],
    ]);
    // A receiver that deduplicates by X-Svc-Delivery handles the event once.
    expect(new Set(got.map((r) => r.headers["x-svc-delivery"])).size).toBe(1);
  }, 30_000);
});
