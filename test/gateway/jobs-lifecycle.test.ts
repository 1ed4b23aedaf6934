import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DnsResult } from "../../proto/index.ts";
import { createLogger, ManualClock, type Config } from "../../runtime/index.ts";
import { completeJob, failJob, type KindContext } from "../../scheduler/index.ts";
import { createStore, openPglite, type AttemptFailure, type Db, type JobRow, type OutboxMessage, type Store } from "../../storage/index.ts";
import { readPgliteTemplate } from "../harness/template.ts";

// The job state machine on the embedded store: leases, expiry, attempts, retries, idempotent
// completion (settled as the scheduler settles them, each in its unit of work). (The whole path with real workers is in analysis-path.test.ts.)

let db: Db;
let store: Store;
let account: number;
const LEASE = 5_000;
const T = 1_800_000_000_000;
const msg = (job: JobRow): OutboxMessage => ({ topic: "t", key: job.host, payload: new Uint8Array([job.id]) });

beforeAll(async () => {
  db = await openPglite(null, readPgliteTemplate());
  store = createStore(db);
  const plan = await store.accounts.upsertPlan("default", { sites: 5, checks_per_day: 5, rechecks_per_day: 5, webhooks: 1, api_keys: 2 });
  account = (await store.accounts.createAccount("jobs@example.com", plan, false, 0)).id;
});
afterAll(() => db.close());

/** The scheduler's settlement of a live DNS check's job (a kind whose settle writes nothing but the row). */
const ctx = (): KindContext => ({ config: {} as Config, clock: new ManualClock(T), logger: createLogger("silent"), now: () => T / 1000 });
const complete = (jobId: number, worker: string) => completeJob(ctx(), store, jobId, worker, { $case: "dns", value: DnsResult.fromPartial({}) });
const fail = (jobId: number, worker: string, failure: AttemptFailure) => failJob(ctx(), store, jobId, worker, failure, msg);

const newJob = (maxAttempts = 3) => store.jobs.createQueued({ accountId: account, kind: "dns", host: "jobs.example.com", sync: false, maxAttempts }, T / 1000, msg);
const outboxOf = async (jobId: number) => (await db.query<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE payload = $1", [Buffer.from([jobId])]))[0]?.n;

describe("jobs", () => {
  it("are written with their outbox message in one transaction", async () => {
    const job = await newJob();
    expect(job).toMatchObject({ state: "queued", attempt: 0, progress: 0 });
    expect(await outboxOf(job.id)).toBe(1);
  });

  it("are leased by one worker at a time; a lapsed lease passes to another, as a new attempt", async () => {
    const job = await newJob();
    const a = await store.jobs.lease(job.id, "A", T, LEASE);
    expect(a).toMatchObject({ granted: true, job: { state: "running", worker: "A", attempt: 1, lease_until_ms: T + LEASE } });
    expect(await store.jobs.lease(job.id, "B", T + 1000, LEASE)).toEqual({ granted: false, reason: "held" });
    expect(await store.jobs.heartbeat(job.id, "A", T + 4000, LEASE, 40, "pages")).toBe(true);
    expect(await store.jobs.lease(job.id, "B", T + 6000, LEASE)).toEqual({ granted: false, reason: "held" });
    // A dies: its lease lapses; the sweeper publishes the job again.
    expect(await store.jobs.republishStale(T + 9_001 + LEASE, 3600, msg)).toBeGreaterThanOrEqual(1);
    expect((await store.jobs.get(job.id))?.state).toBe("queued");
    expect(await outboxOf(job.id)).toBe(2);
    const b = await store.jobs.lease(job.id, "B", T + 20_000, LEASE);
    expect(b).toMatchObject({ granted: true, job: { worker: "B", attempt: 2, progress: 40 } });
    // A comes back: it no longer holds the job.
    expect(await store.jobs.heartbeat(job.id, "A", T + 21_000, LEASE, 90, "late")).toBe(false);
    expect(await complete(job.id, "A")).toBe(false);
    expect(await complete(job.id, "B")).toBe(true);
    expect(await store.jobs.get(job.id)).toMatchObject({ state: "done", progress: 100, worker: null });
    // A second completion changes nothing.
    expect(await complete(job.id, "B")).toBe(false);
    expect(await store.jobs.lease(job.id, "C", T + 30_000, LEASE)).toEqual({ granted: false, reason: "finished" });
  });

  it("a crawl's page batch renews the lease in the same statement that answers the attempt held, and is refused once the lease passed on", async () => {
    const job = await newJob();
    await store.jobs.lease(job.id, "A", T, LEASE);
    expect(await store.jobs.renewHolding(job.id, "B", T + 1000, LEASE, 30, "crawling")).toBeNull();
    expect(await store.jobs.renewHolding(job.id, "A", T + 4000, LEASE, 30, "crawling")).toEqual({ jobId: job.id, attempt: 1, created: T / 1000 });
    expect(await store.jobs.get(job.id)).toMatchObject({ lease_until_ms: T + 4000 + LEASE, progress: 30, step: "crawling" });
    // Renewed at T + 4 s: at T + 6 s (past the first lease's end) the job is still A's.
    expect(await store.jobs.lease(job.id, "B", T + 6000, LEASE)).toEqual({ granted: false, reason: "held" });
    // A stalls past its renewed lease; the sweeper hands the job to B: A's next batch is refused, the job untouched.
    await store.jobs.republishStale(T + 10_000 + LEASE, 3600, msg);
    expect(await store.jobs.lease(job.id, "B", T + 20_000, LEASE)).toMatchObject({ granted: true, job: { attempt: 2 } });
    expect(await store.jobs.renewHolding(job.id, "A", T + 21_000, LEASE, 90, "crawling")).toBeNull();
    expect(await store.jobs.get(job.id)).toMatchObject({ worker: "B", progress: 30, lease_until_ms: T + 20_000 + LEASE });
    expect(await store.jobs.renewHolding(job.id, "B", T + 22_000, LEASE, 40, "crawling")).toEqual({ jobId: job.id, attempt: 2, created: T / 1000 });
    expect(await complete(job.id, "B")).toBe(true);
    expect(await store.jobs.renewHolding(job.id, "B", T + 23_000, LEASE, 50, "crawling")).toBeNull();
  });

  it("end in error with attempts_exhausted once their attempts are spent", async () => {
    const job = await newJob(2);
    await store.jobs.lease(job.id, "A", T, LEASE);
    await store.jobs.republishStale(T + 2 * LEASE, 3600, msg);
    await store.jobs.lease(job.id, "B", T + 3 * LEASE, LEASE);
    await store.jobs.republishStale(T + 5 * LEASE, 3600, msg);
    const after = await store.jobs.get(job.id);
    expect(after).toMatchObject({ state: "error", error: "attempts_exhausted", attempt: 2 });
  });

  it("retry a retryable failure, and end at once on one that is not", async () => {
    const job = await newJob(3);
    await store.jobs.lease(job.id, "A", T, LEASE);
    const again = await fail(job.id, "A", { error: "collect_failed", detail: "x", retry: "retryable", delayMs: 0 });
    expect(again).toBe("requeued");
    expect(await store.jobs.get(job.id)).toMatchObject({ state: "queued", worker: null });
    await store.jobs.lease(job.id, "B", T + 1000, LEASE);
    const out = await fail(job.id, "B", { error: "blocked_private_address", detail: "10.0.0.1", retry: "never", delayMs: 0 });
    expect(out).toBe("failed");
    expect(await store.jobs.get(job.id)).toMatchObject({ state: "error", error: "blocked_private_address", error_detail: "10.0.0.1" });
    // The end's event is written in the same unit of work; the retry wrote none.
    const events = (await store.events.list({ accountId: account, limit: 100, offset: 0 })).rows.filter((e) => (e.payload as { job?: number }).job === job.id);
    expect(events.map((e) => [e.kind, e.level])).toEqual([["check.error", "bad"]]);
  });

  it("queued jobs whose message was lost are published again after SVC_STALE_JOB_S", async () => {
    const job = await newJob();
    expect(await store.jobs.republishStale(T + 10_000, 120, msg)).toBe(0);
    expect(await outboxOf(job.id)).toBe(1);
    await store.jobs.republishStale(T + 121_000, 120, msg);
    expect(await outboxOf(job.id)).toBe(2);
  });

  it("queue a throttled attempt again after its delay without counting it, and publish it only then", async () => {
    const job = await newJob(1);
    await store.jobs.lease(job.id, "A", T, LEASE);
    const published: number[] = [];
    const relay = (at: number) =>
      store.tx(async (t) => {
        const rows = await t.outbox.lockDue(100, at);
        published.push(...rows.filter((r) => r.payload[0] === job.id).map((r) => r.id));
        await t.outbox.markPublished(rows.map((r) => r.id), at);
      });
    await relay(T / 1000); // the job's first message
    published.length = 0;
    const out = await fail(job.id, "A", { error: "throttled", detail: "429", retry: "throttled", delayMs: 30_000 });
    expect(out).toBe("requeued");
    expect(await store.jobs.get(job.id)).toMatchObject({ state: "queued", attempt: 0, worker: null });
    await relay(T / 1000 + 29);
    expect(published).toHaveLength(0);
    // Nor does the sweeper hand it out early.
    expect(await store.jobs.republishStale(T + 29_000, 0, msg)).toBe(0);
    await relay(T / 1000 + 30);
    expect(published).toHaveLength(1);
    // Its one attempt is still there to use.
    expect(await store.jobs.lease(job.id, "B", T + 31_000, LEASE)).toMatchObject({ granted: true, job: { attempt: 1 } });
  });

  it("end at once on a fatal failure, whatever attempts remain", async () => {
    const job = await newJob(5);
    await store.jobs.lease(job.id, "A", T, LEASE);
    const out = await fail(job.id, "A", { error: "token_revoked", detail: "401", retry: "fatal", delayMs: 0 });
    expect(out).toBe("failed");
    expect(await store.jobs.get(job.id)).toMatchObject({ state: "error", error: "token_revoked" });
  });
});

// After the others: these leave queued jobs behind, which the sweeps above would count.
describe("jobs of one site, and a scheduler restart", () => {
  it("a job posted while another of the same site is queued or running says it waits for it", async () => {
    const crawl = await store.jobs.createQueued({ accountId: account, kind: "crawl", host: "order.example.com", sync: false, maxAttempts: 3 }, T / 1000, msg);
    expect(crawl.step).toBeNull();
    const analysis = await store.jobs.createQueued({ accountId: account, kind: "analyze", host: "order.example.com", sync: false, maxAttempts: 3 }, T / 1000, msg);
    expect(analysis.step).toBe(`waiting for crawl job ${crawl.id} of this site (a site's work runs in order)`);
    expect((await store.jobs.get(analysis.id))?.step).toBe(analysis.step);
    // Another site, or the synchronous lane, waits for nothing.
    const other = await store.jobs.createQueued({ accountId: account, kind: "analyze", host: "other-order.example.com", sync: false, maxAttempts: 3 }, T / 1000, msg);
    const sync = await store.jobs.createQueued({ accountId: account, kind: "analyze", host: "order.example.com", sync: true, maxAttempts: 3 }, T / 1000, msg);
    expect([other.step, sync.step]).toEqual([null, null]);
  });

  it("a starting scheduler grants running leases one lease length, so a restart is no failover; a lapse is reported", async () => {
    const job = await store.jobs.createQueued({ accountId: account, kind: "crawl", host: "restart.example.com", sync: false, maxAttempts: 3 }, T / 1000, msg);
    await store.jobs.lease(job.id, "A", T, LEASE);
    // The scheduler was away past the lease's end; the one starting extends it before sweeping.
    expect(await store.jobs.extendRunningLeases(T + 2 * LEASE, LEASE)).toBeGreaterThanOrEqual(1);
    const seen: [number, string][] = [];
    await store.jobs.republishStale(T + 2 * LEASE, 3600, msg, (j, why) => seen.push([j.id, why]));
    expect(seen.filter(([id]) => id === job.id)).toEqual([]);
    expect(await store.jobs.heartbeat(job.id, "A", T + 2 * LEASE + 1000, LEASE, 50, "pages")).toBe(true);
    // A worker that never comes back: the lease lapses one lease after the restart, and the sweep says so.
    await store.jobs.republishStale(T + 4 * LEASE, 3600, msg, (j, why) => seen.push([j.id, why]));
    expect(seen.filter(([id]) => id === job.id)).toEqual([[job.id, "lease_lapsed"]]);
    expect(await store.jobs.get(job.id)).toMatchObject({ state: "queued", attempt: 1 });
  });
});
