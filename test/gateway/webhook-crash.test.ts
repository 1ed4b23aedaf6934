import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, InProcessBus, loadConfig, ManualClock, unixSeconds } from "../../runtime/index.ts";
import { crawlerStreamKinds, type CrawlerNode } from "../../crawler/index.ts";
import { StreamItem, TOPICS, type WebhookBatch } from "../../proto/index.ts";
import { SCHEDULER_STREAM_KINDS, webhooksPlanner, WEBHOOK_EVENTS_CURSOR, type PlannerContext } from "../../scheduler/index.ts";
import { createStore, openPglite, type Db, type JobRow, type Repositories, type Store, type WebhooksRepo } from "../../storage/index.ts";
import { createTestCa, type TestCa } from "../harness/fixture-web/ca.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { readPgliteTemplate } from "../harness/template.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../harness/webhook-receiver.ts";

// Crashes at each step between an event and its delivery, caused for real by a store that fails at
// that step (a transaction that throws is a process that died before its commit), with the
// planner run by hand: nothing is lost, no attempt is handed out twice, and an attempt's result is
// recorded once, while its delivery waits for it.

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
  store.events.add([{ eventKey: key, accountId, host: "shop.example.com", type: "rank", kind: "rank.changed", level: "bad", text: "Rank of shop.example.com fell from 60 to 50", payload: { from: 60, to: 50 } }], unixSeconds(clock));
const log = async () => (await store.webhooks.deliveries(accountId, hookId, 100, 0)).rows;
/** The webhook batches written to the outbox so far (what the relay publishes). */
const batches = async (): Promise<WebhookBatch[]> =>
  (await db.query<{ payload: Uint8Array }>("SELECT payload FROM outbox WHERE topic = $1 ORDER BY id", [TOPICS.webhooks])).map((r) => {
    const task = StreamItem.decode(r.payload).task;
    if (task?.$case !== "webhook") throw new Error("not a webhook batch");
    return task.value;
  });
/**
 * The store whose units of work see the webhooks repository's `method` replaced by `by` (given
 * the bound repository's own): a fault caused inside the transaction, before its commit.
 */
function replacing<M extends keyof WebhooksRepo>(base: Store, method: M, by: (own: WebhooksRepo[M]) => WebhooksRepo[M]): Store {
  const bind = (t: Repositories): Repositories => ({ ...t, webhooks: Object.create(t.webhooks, { [method]: { value: by(t.webhooks[method].bind(t.webhooks) as WebhooksRepo[M]) } }) as WebhooksRepo });
  return { ...base, tx: (work) => base.tx((t) => work(bind(t))) };
}

/** The store whose units of work die right after the webhooks repository's `method` ran (a process that died before its commit). */
function dyingAfter(method: "addDeliveries" | "takeDueBatches", message: string): Store {
  return replacing(store, method, (own) => (async (...a: Parameters<typeof own>) => {
    await (own as (...x: Parameters<typeof own>) => Promise<unknown>)(...a);
    throw new Error(message);
  }));
}

const settleCtx = () => ({ config, clock, logger: createLogger("silent"), now: () => unixSeconds(clock) });

describe("webhook deliveries across crashes", () => {
  it("an event stored before a crash of the planner is delivered once the planner runs again", async () => {
    await emit("crash:1");
    // The planner dies while it writes the deliveries: the transaction rolls back with the cursor.
    await expect(webhooksPlanner.run(ctx(dyingAfter("addDeliveries", "crash mid-plan")))).rejects.toThrow("crash mid-plan");
    expect(await log()).toEqual([]);
    // It dies again after planning, while it hands the attempt out: the delivery waits.
    await expect(webhooksPlanner.run(ctx(dyingAfter("takeDueBatches", "crash in dispatch")))).rejects.toThrow("crash in dispatch");
    expect((await log()).map((d) => [d.state, d.job_id])).toEqual([["pending", null]]);
    expect(await batches()).toEqual([]);
    // A planner that lives: one delivery, one batch with its one attempt, no job.
    await webhooksPlanner.run(ctx());
    const [d] = await log();
    expect(d).toMatchObject({ state: "sending", attempts: 0, job_id: null });
    expect((await batches()).map((b) => [b.webhook, b.secret, b.attempts.map((x) => [x.delivery, x.n])])).toEqual([[hookId, "whsec_x", [[d!.id, 1]]]]);
    // More passes (of this or another scheduler) plan nothing more.
    await webhooksPlanner.run(ctx());
    await webhooksPlanner.run(ctx());
    expect(await batches()).toHaveLength(1);
    expect(await log()).toHaveLength(1);
    expect(published).toEqual([]);
  });

  it("an attempt is sent within its window only: a batch a crawler takes after its latest start sends nothing", async () => {
    const [batch] = await batches();
    const attempt = batch!.attempts[0]!;
    // The window: the lease's length to start, the timeout to answer, 5 s for the result to come back.
    expect(attempt.notAfterMs).toBe(clock.nowMs() + 30_000);
    const late = new ManualClock(attempt.notAfterMs + 1);
    const requests: string[] = [];
    const node = { clock: late, settings: { userAgent: "svc-test" }, egress: { resolve: async () => ({ address: "93.184.215.14", family: 4 }), request: async (url: URL) => (requests.push(String(url)), Promise.reject(new Error("sent"))) } } as unknown as CrawlerNode;
    const result = await crawlerStreamKinds().webhook.run(batch!, { node, plannedMs: 0 });
    expect(result.outcomes.map((o) => [o.delivery, o.n, o.code, o.error])).toEqual([[attempt.delivery, 1, 0, "not_sent"]]);
    expect(requests).toEqual([]);
  });

  it("the attempt whose crawler died counts as failed (no_answer) when its window closes, the next follows the schedule, and a late result records nothing", async () => {
    // The crawler took the batch and died: no result. The window is open for 43 s (30 + 8 + 5).
    clock.advance(43_000);
    await webhooksPlanner.run(ctx());
    expect((await log())[0]).toMatchObject({ state: "sending", attempts: 0 });
    clock.advance(1000);
    await webhooksPlanner.run(ctx());
    const t = unixSeconds(clock);
    const [d] = await log();
    expect(d).toMatchObject({ state: "failing", attempts: 1, failures: 1, last_error: "no_answer", next_attempt_at: t + 60 });
    // The result of that attempt, should it come late (a crawler that lost the bus a while), is not recorded.
    await SCHEDULER_STREAM_KINDS.webhook.settle(settleCtx(), store, { webhook: hookId, outcomes: [{ delivery: d!.id, n: 1, code: 204, error: "", durationMs: 5, sentAt: t - 40 }] }, "crawler-a");
    expect((await log())[0]).toMatchObject({ state: "failing", attempts: 1 });
    expect(await batches()).toHaveLength(1);
    clock.advance(59_000);
    await webhooksPlanner.run(ctx());
    expect(await batches()).toHaveLength(1);
    clock.advance(1000);
    await webhooksPlanner.run(ctx());
    const all = await batches();
    expect(all.map((b) => b.attempts.map((x) => [x.delivery, x.n]))).toEqual([[[d!.id, 1]], [[d!.id, 2]]]);
    expect((await store.webhooks.attemptsOf([d!.id])).map((a) => [a.n, a.error])).toEqual([[1, "no_answer"]]);
    // Its result, recorded twice (the results topic handed it out again), counts once.
    const result = { webhook: hookId, outcomes: [{ delivery: d!.id, n: 2, code: 204, error: "", durationMs: 5, sentAt: unixSeconds(clock) }] };
    await SCHEDULER_STREAM_KINDS.webhook.settle(settleCtx(), store, result, "crawler-a");
    await SCHEDULER_STREAM_KINDS.webhook.settle(settleCtx(), store, result, "crawler-b");
    expect((await log())[0]).toMatchObject({ state: "delivered", attempts: 2, failures: 1 });
    expect((await store.webhooks.attemptsOf([d!.id])).map((a) => [a.n, a.error])).toEqual([[1, "no_answer"], [2, null]]);
    const cursor = await store.runs.cursor(WEBHOOK_EVENTS_CURSOR);
    expect(cursor).toBeGreaterThan(0);
  });
});

// The one duplicate docs/webhooks.md warns receivers of, end to end: the receiver answered 2xx but
// the batch's result never reached the record (here the scheduler drops it, as when a crawler
// dies before its result is on the bus). The window closes, the attempt counts as failed
// (no_answer), and the next attempt, a minute later on the injected clock, sends the same delivery
// again.
describe("a receiver counting deliveries across a lost completion", () => {
  let gw: TestGateway;
  let ca: TestCa;
  let rx: WebhookReceiver;
  let dropNextWebhookResult = true;

  beforeAll(async () => {
    ca = await createTestCa();
    gw = await startTestGateway({
      env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_EXTRA_CA_FILE: ca.caFile, SVC_WEBHOOK_PLAN_MS: "100", SVC_LEASE_MS: "1000" },
      // A crawler's result is dropped before it is recorded (the planner's no_answer has no code).
      storeOverrides: (base) =>
        replacing(base, "recordBatch", (own) => async (settled, now) => {
          if (dropNextWebhookResult && settled.some((s) => s.outcome.code !== 0)) {
            dropNextWebhookResult = false;
            return;
          }
          await own(settled, now);
        }),
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
    await gw.store.events.add([{ eventKey: "dup:1", accountId, host: "shop.example.com", type: "rank", kind: "rank.changed", level: "bad", text: "Rank of shop.example.com fell from 60 to 50", payload: { from: 60, to: 50 } }], t0);
    await rx.until("/dup", 1);
    const list = async () => (await gw.call("GET", `/api/v1/webhooks/${hook.id}/deliveries`, { key })).json<{ deliveries: Record<string, any>[] }>().deliveries; // eslint-disable-line @typescript-eslint/no-explicit-any
    // The result was dropped: the attempt is still "sending" until its window closes on the clock
    // (SVC_LEASE_MS 1 s to start, 8 s to answer, 5 s for the result: 14 s).
    expect((await list())[0]).toMatchObject({ status: "sending", attempts: 0 });
    gw.clock.advance(15_000);
    for (let i = 0; (await list())[0]?.status !== "failing"; i++) {
      if (i > 300) throw new Error(`not failing: ${JSON.stringify(await list())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const failing = (await list())[0]!;
    expect(failing).toMatchObject({ status: "failing", attempts: 1, error: "no_answer", next_attempt_at: t0 + 15 + 60 });
    gw.clock.advance(60_000);
    const got = await rx.until("/dup", 2);
    for (let i = 0; (await list())[0]?.status !== "delivered"; i++) {
      if (i > 300) throw new Error(`not delivered: ${JSON.stringify(await list())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Both requests verify, carry the same delivery id, and each its own timestamp.
    expect(got.map((r) => [r.verifiedWith, r.headers["x-svc-delivery"], Number(r.headers["x-svc-timestamp"])])).toEqual([
      [hook.secret, String(failing.id), t0],
      [hook.secret, String(failing.id), t0 + 75],
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
