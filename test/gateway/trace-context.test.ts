import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, InProcessBus, ManualClock, parseTraceparent, startSpan, type BusMessage, type Config } from "../../runtime/index.ts";
import { failJob } from "../../scheduler/index.ts";
import { OutboxRelay } from "../../scheduler/relay.ts";
import { createStore, openPglite, type Db, type JobRow, type OutboxMessage, type Store } from "../../storage/index.ts";
import { readPgliteTemplate } from "../harness/template.ts";

// A job belongs to the trace of the request that created it, whenever its messages go out: the
// first one, a retry, a republish after a lapsed lease (migration 033; the embedded store).

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const INCOMING = `00-${TRACE}-b7ad6b7169203331-01`;
const T = 1_800_000_000_000;
const LEASE = 5_000;

let db: Db;
let store: Store;
let account: number;
const msg = (job: JobRow): OutboxMessage => ({ topic: "svc.work.v1", key: job.host, payload: new Uint8Array([job.id]) });

beforeAll(async () => {
  db = await openPglite(null, readPgliteTemplate());
  store = createStore(db);
  const plan = await store.accounts.upsertPlan("default", { sites: 5, checks_per_day: 5, rechecks_per_day: 5, webhooks: 1, api_keys: 2 });
  account = (await store.accounts.createAccount("trace@example.com", plan, false, 0)).id;
});
afterAll(() => db.close());

/** The traceparents of a job's outbox rows, oldest first. */
async function outboxTraces(jobId: number): Promise<(string | null)[]> {
  const rows = await db.query<{ traceparent: string | null }>("SELECT traceparent FROM outbox WHERE payload = $1 ORDER BY id", [Buffer.from([jobId])]);
  return rows.map((r) => r.traceparent);
}

/** Everything the relay publishes now, with its headers. */
async function relayed(): Promise<BusMessage[]> {
  const bus = new InProcessBus(10);
  const got: BusMessage[] = [];
  await bus.subscribe("svc.work.v1", "crawler", async (m) => void got.push(m));
  const relay = new OutboxRelay(store, bus, new ManualClock(T));
  relay.kick();
  await relay.close();
  await bus.close();
  return got;
}

describe("trace context on jobs and the outbox", () => {
  it("a job created in a request's trace keeps it, and each of its messages carries it, retries and republishes too", async () => {
    const span = startSpan("grpc StartCrawl", { kind: "server", parent: parseTraceparent(INCOMING) });
    const job = await span.run(() => store.jobs.createQueued({ accountId: account, kind: "crawl", host: "traced.example.com", sync: false, maxAttempts: 3 }, T / 1000, msg));
    const created = `00-${TRACE}-${span.scope.spanId}-01`;
    expect(job.traceparent).toBe(created);

    const first = await relayed();
    expect(first.map((m) => [m.payload[0], parseTraceparent(m.headers?.traceparent)?.traceId])).toEqual([[job.id, TRACE]]);
    // The relay's publish is a span of its own in that trace: the message names it, not the job's creator.
    expect(first[0]!.headers?.traceparent).not.toBe(created);

    // Outside any trace (the sweeper, a completion): a lapsed lease and a retry still publish in the job's trace.
    await store.jobs.lease(job.id, "A", T, LEASE);
    await store.jobs.republishStale(T + 2 * LEASE, 3600, msg);
    await store.jobs.lease(job.id, "B", T + 3 * LEASE, LEASE);
    const failure = { error: "fetch_failed", detail: "reset", retry: "retryable" as const, delayMs: 0 };
    const ctx = { config: {} as Config, clock: new ManualClock(T), logger: createLogger("silent"), now: () => T / 1000 };
    expect(await failJob(ctx, store, job.id, "B", failure, msg)).toBe("requeued");
    expect(await outboxTraces(job.id)).toEqual([created, created, created]);
  });

  it("work no request caused carries no context", async () => {
    const job = await store.jobs.createQueued({ accountId: account, kind: "analyze", host: "untraced.example.com", sync: false, maxAttempts: 3 }, T / 1000, msg);
    expect(job.traceparent).toBeNull();
    expect(await outboxTraces(job.id)).toEqual([null]);
    expect((await relayed()).filter((m) => m.payload[0] === job.id).map((m) => [m.payload[0], m.headers])).toEqual([[job.id, undefined]]);
  });
});
