import { afterEach, describe, expect, it } from "vitest";
import type { CrawlerKind } from "../../../crawler/kinds/index.ts";
import type { CrawlerNode } from "../../../crawler/node.ts";
import { CrawlerWorker } from "../../../crawler/worker.ts";
import {
  AnalyzeResult,
  AnalyzeTask,
  CompleteResponse,
  HeartbeatResponse,
  LeaseResponse,
  TOPICS,
  WebhookResult,
  WebhookTask,
  WorkItem,
  type CompleteRequest,
  type LeaseRequest,
  type SchedulerServiceClient,
} from "../../../proto/index.ts";
import { createLogger, InProcessBus } from "../../../runtime/index.ts";
import { workMessage } from "../../../scheduler/messages.ts";
import type { JobRow } from "../../../storage/index.ts";

// Webhook deliveries run on crawler slots of their own (SVC_WORKER_WEBHOOK_CONCURRENCY): with the
// only job slot held by an analysis that does not end, deliveries still go out; with every
// delivery slot held by receivers that do not answer, an analysis still runs. Everything here is
// ordered by events (a kind started, a completion arrived), never by elapsed time.

type Kind = "analyze" | "webhook";

/** A promise with its resolve at hand. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A scheduler that grants every lease (with a task of the job's kind) and records the completions. */
function fakeScheduler(kinds: Map<number, Kind>) {
  const completed: number[] = [];
  const waiters = new Map<number, () => void>();
  const done = (jobId: number) => {
    const w = deferred();
    if (completed.includes(jobId)) return Promise.resolve();
    waiters.set(jobId, w.resolve);
    return w.promise;
  };
  type Cb<T> = (err: Error | null, res: T) => void;
  const client = {
    lease(req: LeaseRequest, _md: unknown, _o: unknown, cb: Cb<LeaseResponse>) {
      const kind = kinds.get(req.jobId)!;
      const task = kind === "webhook" ? { $case: "webhook" as const, value: WebhookTask.fromPartial({ delivery: req.jobId }) } : { $case: "analyze" as const, value: AnalyzeTask.fromPartial({}) };
      cb(null, LeaseResponse.fromPartial({ granted: true, attempt: 1, host: "shop.example.com", task }));
    },
    heartbeat(_req: unknown, _md: unknown, _o: unknown, cb: Cb<HeartbeatResponse>) {
      cb(null, HeartbeatResponse.fromPartial({ keepGoing: true }));
    },
    complete(req: CompleteRequest, _md: unknown, _o: unknown, cb: Cb<CompleteResponse>) {
      completed.push(req.jobId);
      waiters.get(req.jobId)?.();
      cb(null, CompleteResponse.fromPartial({ accepted: true }));
    },
  };
  return { client: client as unknown as SchedulerServiceClient, completed, done };
}

/** Kinds whose every run waits for the test to release it, and say when they started. */
function gatedKinds() {
  const started: string[] = [];
  const gates = new Map<number, () => void>();
  const startWaiters = new Map<string, () => void>();
  const run = async (label: string, jobId: number) => {
    started.push(label);
    startWaiters.get(label)?.();
    const gate = deferred();
    gates.set(jobId, gate.resolve);
    await gate.promise;
  };
  const analyze: CrawlerKind<"analyze"> = {
    name: "analyze",
    async run(_task, ctx) {
      await run(`analyze ${ctx.jobId}`, ctx.jobId);
      return AnalyzeResult.fromPartial({});
    },
  };
  const webhook: CrawlerKind<"webhook"> = {
    name: "webhook",
    slots: "webhook",
    async run(_task, ctx) {
      await run(`webhook ${ctx.jobId}`, ctx.jobId);
      return WebhookResult.fromPartial({ code: 204, sentAt: 1, durationMs: 1 });
    },
  };
  const whenStarted = (label: string) => {
    if (started.includes(label)) return Promise.resolve();
    const w = deferred();
    startWaiters.set(label, w.resolve);
    return w.promise;
  };
  const release = (jobId: number) => gates.get(jobId)!();
  return { kinds: { analyze, webhook }, started, whenStarted, release };
}

const workers: CrawlerWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.close();
});

async function setup(webhookConcurrency: number) {
  const bus = new InProcessBus(10);
  const jobKinds = new Map<number, Kind>();
  const scheduler = fakeScheduler(jobKinds);
  const kinds = gatedKinds();
  const worker = new CrawlerWorker({
    bus,
    scheduler: scheduler.client,
    kinds: kinds.kinds,
    node: {} as CrawlerNode,
    logger: createLogger("silent"),
    leaseMs: 60_000,
    concurrency: 1,
    syncConcurrency: 1,
    webhookConcurrency,
  });
  workers.push(worker);
  await worker.start();
  /** Publishes a job of a kind as the scheduler's relay would (its topic from workMessage). */
  const publish = async (jobId: number, kind: Kind, topic?: string) => {
    jobKinds.set(jobId, kind);
    const job = { id: jobId, kind, host: "shop.example.com", target: kind === "webhook" ? `${jobId}/${jobId}@hooks.example.net` : "shop.example.com", sync: false, attempt: 0 } as unknown as JobRow;
    const m = workMessage(job, "");
    await bus.publish([{ ...m, topic: topic ?? m.topic }]);
  };
  return { publish, scheduler, ...kinds };
}

describe("webhook deliveries on crawler slots of their own", () => {
  it("a planned attempt travels on the webhooks topic, an analysis on the work topic", () => {
    const hook = workMessage({ id: 7, kind: "webhook", host: "hooks.example.net", target: "7/3@hooks.example.net", sync: false, attempt: 0 } as unknown as JobRow, "");
    const analysis = workMessage({ id: 8, kind: "analyze", host: "shop.example.com", target: "shop.example.com", sync: false, attempt: 0 } as unknown as JobRow, "");
    expect([hook.topic, hook.key, WorkItem.decode(hook.payload).kind]).toEqual([TOPICS.webhooks, "webhook:3", "webhook"]);
    expect(analysis.topic).toBe(TOPICS.work);
  });

  it("deliver while the only job slot is held by an analysis that has not ended", async () => {
    const t = await setup(2);
    await t.publish(1, "analyze");
    await t.whenStarted("analyze 1");
    await t.publish(2, "webhook");
    await t.publish(3, "webhook");
    // A delivery planned before the webhooks topic existed arrives on the work topic: it too takes a delivery slot.
    await t.publish(4, "webhook", TOPICS.work);
    for (const id of [2, 3, 4]) {
      await t.whenStarted(`webhook ${id}`);
      t.release(id);
      await t.scheduler.done(id);
    }
    expect(t.scheduler.completed).toEqual([2, 3, 4]);
    // The analysis still holds its slot: nothing above waited for it.
    expect(t.started).toEqual(["analyze 1", "webhook 2", "webhook 3", "webhook 4"]);
    t.release(1);
    await t.scheduler.done(1);
  });

  it("run an analysis while every delivery slot is held by a receiver that has not answered, and queue the next delivery", async () => {
    const t = await setup(2);
    await t.publish(1, "webhook");
    await t.publish(2, "webhook");
    await Promise.all([t.whenStarted("webhook 1"), t.whenStarted("webhook 2")]);
    await t.publish(3, "webhook");
    await t.publish(4, "analyze");
    await t.whenStarted("analyze 4");
    t.release(4);
    await t.scheduler.done(4);
    // The analysis started and ended; the third delivery still waits for a delivery slot.
    expect(t.scheduler.completed).toEqual([4]);
    expect(t.started).not.toContain("webhook 3");
    t.release(1);
    await t.whenStarted("webhook 3");
    expect(t.started).toEqual(["webhook 1", "webhook 2", "analyze 4", "webhook 3"]);
    t.release(2);
    t.release(3);
    await Promise.all([t.scheduler.done(2), t.scheduler.done(3)]);
  });
});
