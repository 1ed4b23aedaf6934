import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CrawlerKind, WorkContext } from "../../../crawler/kinds/index.ts";
import type { CrawlerNode } from "../../../crawler/node.ts";
import { CrawlerWorker } from "../../../crawler/worker.ts";
import {
  AnalyzeResult,
  AnalyzeTask,
  CompleteResponse,
  CrawledPage,
  HeartbeatResponse,
  LeaseResponse,
  PutPagesResponse,
  type CompleteRequest,
  type HeartbeatRequest,
  type PutPagesRequest,
  type SchedulerServiceClient,
} from "../../../proto/index.ts";
import { createLogger, InProcessBus } from "../../../runtime/index.ts";
import { workMessage } from "../../../scheduler/messages.ts";
import type { JobRow } from "../../../storage/index.ts";

// A stored batch of pages carries the attempt's progress and renews its lease (the scheduler does
// both in one statement): the worker counts it as a heartbeat, so progress reported just after it
// sends none of its own; a batch answered "no longer yours" stops the attempt. The time is the
// test's (fake timers); the kind moves through its steps when the test says.

type Cb<T> = (err: Error | null, res: T) => void;

function fakeScheduler(keepGoing: { put: boolean }) {
  const calls: string[] = [];
  let completed: (req: CompleteRequest) => void = () => undefined;
  const done = new Promise<CompleteRequest>((resolve) => (completed = resolve));
  const client = {
    lease(_req: unknown, _md: unknown, _o: unknown, cb: Cb<LeaseResponse>) {
      cb(null, LeaseResponse.fromPartial({ granted: true, attempt: 1, host: "shop.example.com", task: { $case: "analyze", value: AnalyzeTask.fromPartial({}) } }));
    },
    heartbeat(req: HeartbeatRequest, _md: unknown, _o: unknown, cb: Cb<HeartbeatResponse>) {
      calls.push(`heartbeat ${req.progress}`);
      cb(null, HeartbeatResponse.fromPartial({ keepGoing: true }));
    },
    putPages(req: PutPagesRequest, _md: unknown, _o: unknown, cb: Cb<PutPagesResponse>) {
      calls.push(`put ${req.pages.length} at ${req.progress}`);
      cb(null, PutPagesResponse.fromPartial({ keepGoing: keepGoing.put }));
    },
    complete(req: CompleteRequest, _md: unknown, _o: unknown, cb: Cb<CompleteResponse>) {
      calls.push(req.error ? `complete failed` : "complete");
      completed(req);
      cb(null, CompleteResponse.fromPartial({ accepted: true }));
    },
  };
  return { client: client as unknown as SchedulerServiceClient, calls, done };
}

/** A kind whose steps run when the test calls next(): each step gets the attempt's context. */
function steppedKind(steps: ((ctx: WorkContext) => Promise<void> | void)[]) {
  let advance: () => void = () => undefined;
  const kind: CrawlerKind<"analyze"> = {
    name: "analyze",
    async run(_task, ctx) {
      for (const step of steps) {
        await new Promise<void>((resolve) => (advance = resolve));
        await step(ctx);
      }
      return AnalyzeResult.fromPartial({});
    },
  };
  return { kind, next: () => advance() };
}

const workers: CrawlerWorker[] = [];
beforeEach(() => void vi.useFakeTimers({ now: 1_800_000_000_000 }));
afterEach(async () => {
  for (const w of workers.splice(0)) await w.close();
  vi.useRealTimers();
});

async function run(keepGoing: { put: boolean }, steps: ((ctx: WorkContext) => Promise<void> | void)[]) {
  const bus = new InProcessBus(10);
  const scheduler = fakeScheduler(keepGoing);
  const stepped = steppedKind(steps);
  const worker = new CrawlerWorker({ bus, scheduler: scheduler.client, kinds: { analyze: stepped.kind }, node: {} as CrawlerNode, logger: createLogger("silent"), leaseMs: 60_000, concurrency: 1, syncConcurrency: 1 });
  workers.push(worker);
  await worker.start();
  await bus.publish([workMessage({ id: 1, kind: "analyze", host: "shop.example.com", target: "shop.example.com", sync: false, attempt: 0 } as unknown as JobRow, "")]);
  await vi.advanceTimersByTimeAsync(0);
  return { ...scheduler, next: async (ms = 0) => {
    await vi.advanceTimersByTimeAsync(ms);
    stepped.next();
    await vi.advanceTimersByTimeAsync(0);
  } };
}

const pages = [CrawledPage.fromPartial({ url: "https://shop.example.com/", status: 200 })];

describe("a crawl's stored batches and the attempt's heartbeats", () => {
  it("progress right after a stored batch sends no heartbeat; a second later it does", async () => {
    const r = await run({ put: true }, [(ctx) => ctx.progress(10, "crawling"), (ctx) => ctx.pages.put(pages, { done: 1, known: 5 }), (ctx) => ctx.progress(30, "crawling"), (ctx) => ctx.progress(40, "crawling")]);
    await r.next(1500); // 1.5 s since the lease: a heartbeat with the progress
    await r.next(500); // the batch: it carries progress 10 and renews the lease
    await r.next(600); // 0.6 s after the batch: no heartbeat
    await r.next(400); // 1 s after the batch: a heartbeat
    await vi.advanceTimersByTimeAsync(0);
    await r.done;
    expect(r.calls).toEqual(["heartbeat 10", "put 1 at 10", "heartbeat 40", "complete"]);
  });

  it("a batch answered 'not yours any more' aborts the attempt: nothing is completed", async () => {
    const aborted: boolean[] = [];
    const r = await run({ put: false }, [(ctx) => ctx.pages.put(pages, { done: 1, known: 5 }), (ctx) => void aborted.push(ctx.signal.aborted)]);
    await r.next(100);
    await r.next(100);
    await vi.advanceTimersByTimeAsync(100);
    expect(aborted).toEqual([true]);
    expect(r.calls).toEqual(["put 1 at 0"]);
  });
});
