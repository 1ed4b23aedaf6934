import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompleteRequest, LeaseRequest, RunCheckRequest, UtilityResult, UtilityTask, type CompleteResponse, type LeaseResponse, type RunCheckResponse } from "../../proto/index.ts";
import { createLogger, InProcessBus, loadConfig, ManualClock } from "../../runtime/index.ts";
import { OutboxRelay } from "../../scheduler/relay.ts";
import { schedulerHandlers } from "../../scheduler/scheduler-service.ts";
import { createStore, listMigrations, migrate, openPglite, type Db, type Store } from "../../storage/index.ts";

// Jobs queued before the task column (migration 049) keep their task in `target`, in their kind's
// older text form. A scheduler upgraded while they wait leases them with the same task a new row
// would carry, and a utility run's input is still cleared at its end.

const T = 1_800_000_000_000;
let db: Db;
let store: Store;
let account: number;
let handlers: ReturnType<typeof schedulerHandlers>;
const older: Record<string, number> = {};

type Unary<Req, Res> = (call: { request: Req }, cb: (err: Error | null, res?: Res | null) => void) => void;
const call = <Req, Res>(fn: unknown, request: Req) =>
  new Promise<Res>((resolve, reject) => (fn as Unary<Req, Res>)({ request }, (err, res) => (err ? reject(err) : resolve(res as Res))));
const lease = (jobId: number) => call<LeaseRequest, LeaseResponse>(handlers.lease, LeaseRequest.fromPartial({ jobId, worker: "w1" }));

const utilityTask = UtilityTask.fromPartial({ utility: "http_headers", inputJson: '{"url":"https://private.example/secret"}', nowMs: 1_780_000_000_000, seed: Buffer.from([7, 8]) });

beforeAll(async () => {
  db = await openPglite(null);
  await migrate(db, 0, listMigrations().filter((m) => m.version < 49));
  store = createStore(db);
  const plan = await store.accounts.upsertPlan("default", { sites: 5, checks_per_day: 50, rechecks_per_day: 5, webhooks: 1, api_keys: 2 });
  account = (await store.accounts.createAccount("upgrade@example.com", plan, false, 0)).id;
  const rows: [string, string, string | null][] = [
    ["page", "shop.example.com", "https://shop.example.com/about?x=1"],
    ["tls", "shop.example.com", null],
    ["recheck", "shop.example.com", JSON.stringify({ origin: "https://shop.example.com", robots: true, urls: ["https://shop.example.com/a"] })],
    ["utility", "utilities.invalid", JSON.stringify(UtilityTask.toJSON(utilityTask))],
    ["webhook", "hooks.example.net", "5@hooks.example.net"],
  ];
  for (const [kind, host, target] of rows) {
    const [row] = await db.query<{ id: number }>(
      "INSERT INTO jobs (account_id, kind, host, state, sync, max_attempts, created, updated, target) VALUES ($1, $2, $3, 'queued', true, 3, $4, $4, $5) RETURNING id",
      [account, kind, host, T / 1000, target],
    );
    older[kind] = row!.id;
  }
  await migrate(db, 0);
  const clock = new ManualClock(T);
  const config = loadConfig({ SVC_LOG_LEVEL: "silent" }, "serve");
  const relay = new OutboxRelay(store, new InProcessBus(10), clock);
  handlers = schedulerHandlers({ store, config, clock, logger: createLogger("silent"), relay, replica: "scheduler-test" });
});
afterAll(() => db.close());

describe("jobs queued before the task column, after the upgrade", () => {
  it("keep their older target and no task", async () => {
    expect(await store.jobs.get(older.page!)).toMatchObject({ task: null, target: "https://shop.example.com/about?x=1" });
  });

  it("are leased with the task their older target names, as a new row's would be", async () => {
    expect((await lease(older.page!)).task).toEqual({ $case: "page", value: { url: "https://shop.example.com/about?x=1" } });
    expect((await lease(older.tls!)).task).toEqual({ $case: "tls", value: { host: "shop.example.com" } });
    expect((await lease(older.recheck!)).task).toEqual({ $case: "recheck", value: { origin: "https://shop.example.com", robots: true, urls: ["https://shop.example.com/a"] } });
    expect((await lease(older.utility!)).task).toEqual({ $case: "utility", value: utilityTask });
    // The delivery is gone (no webhooks here): an attempt with its id and no address, which the crawler refuses.
    expect((await lease(older.webhook!)).task).toMatchObject({ $case: "webhook", value: { delivery: 5, url: "" } });
  });

  it("a utility run queued before it has its input cleared at its end, in either form", async () => {
    const done = await call<CompleteRequest, CompleteResponse>(handlers.complete, CompleteRequest.fromPartial({ jobId: older.utility!, worker: "w1", result: { $case: "utility", value: UtilityResult.fromPartial({ outputJson: "{}" }) } }));
    expect(done.accepted).toBe(true);
    expect(await store.jobs.get(older.utility!)).toMatchObject({ state: "done", target: null, task: null });
  });

  it("a new row keeps the caller's task, encoded, and no target", async () => {
    const answer = call<RunCheckRequest, RunCheckResponse>(handlers.runCheck, RunCheckRequest.fromPartial({ accountId: account, waitMs: 100, task: { $case: "page", value: { url: "https://shop.example.com/new" } } }));
    await answer;
    const [row] = await db.query<{ id: number }>("SELECT id FROM jobs WHERE kind = 'page' ORDER BY id DESC LIMIT 1");
    const job = await store.jobs.get(row!.id);
    expect(job).toMatchObject({ host: "shop.example.com", target: null });
    expect((await lease(job!.id)).task).toEqual({ $case: "page", value: { url: "https://shop.example.com/new" } });
  });
});
