import { randomUUID } from "node:crypto";
import {
  CheckpointRequest,
  CompleteRequest,
  CrawlPagesRequest,
  HeartbeatRequest,
  LeaseRequest,
  type PutPagesRequest,
  Retry,
  StreamItem,
  StreamResult,
  TOPICS,
  WorkItem,
  type CrawledPage,
  type LeaseResponse,
  type LeaseTask,
  type SchedulerServiceClient,
  type StreamKind,
  type WorkKind,
  type WorkResult,
} from "../proto/index.ts";
import { callUnary, withSpan, type Bus, type BusMessage, type Logger } from "../runtime/index.ts";
import type { CrawlerKind, PageStore, WorkContext } from "./kinds/index.ts";
import type { CrawlerNode } from "./node.ts";
import type { CrawlerStreamKind } from "./stream/index.ts";
import { failureOf, UndecodableWorkItemError, WorkerClosingError } from "./work-errors.ts";
import { NO_WORKER_METRICS, type JobOutcome, type WorkerMetrics } from "./worker-metrics.ts";
import { Slots } from "./slots.ts";
import { collectGarbage, TRIM_AFTER_CRAWL_OF } from "./heap-trim.ts";

export interface WorkerDeps {
  readonly bus: Bus;
  readonly scheduler: SchedulerServiceClient;
  /** The kinds this node does, by name (CRAWLER_KINDS in production). */
  readonly kinds: { readonly [K in WorkKind]?: CrawlerKind<K> };
  readonly node: CrawlerNode;
  readonly logger: Logger;
  readonly leaseMs: number;
  /** Jobs of the job lane (analyses, crawls) run at once. */
  readonly concurrency: number;
  /** Jobs of the synchronous lane run at once, on slots of their own: a waiting caller never queues behind a crawl. */
  readonly syncConcurrency: number;
  readonly worker?: string;
  readonly metrics?: WorkerMetrics;
  /** The stream-lane kinds this node runs (uptime probes); none: the node takes no stream work. */
  readonly streams?: { readonly [K in StreamKind]?: CrawlerStreamKind<K> };
  /** Stream batches run at once, on slots of their own. */
  readonly streamConcurrency?: number;
  /**
   * Job-lane jobs of the kinds that say so (webhook deliveries) run at once, on slots of their
   * own: slow receivers never fill the job slots, nor analyses and crawls the delivery slots.
   */
  readonly webhookConcurrency?: number;
}

const CALL = { deadlineMs: 10_000, retries: 3 };
const COMPLETE = { deadlineMs: 60_000, retries: 5 };
/** Handing a lease back is one short call (twice at most): a closing node has a grace period to keep. */
const HAND_BACK = { deadlineMs: 1000, retries: 1 };
/** How long a closing worker waits for its abandoned attempts to hand their leases back. */
export const HAND_BACK_WAIT_MS = 1500;
const PROGRESS_EVERY_MS = 1000;
export { TRIM_AFTER_CRAWL_OF };
/** A stream item meant for another node is passed on at most this many times (then run here). */
export const STREAM_MAX_HOPS = 10;
/** How long past its lease an attempt waits for a scheduler that is away: a restart (a rollout, a rescheduled pod) fits. */
const RESTART_ALLOWANCE_MS = 30_000;

/**
 * A crawler node's work loop: takes work items from the bus, leases each job from the scheduler
 * (gRPC), runs the lease's task through its kind while heartbeating, and hands the result back
 * with Complete. It holds no database credentials; a node that dies simply lets its lease lapse.
 * It never looks at what a kind is: lease, heartbeat, completion and slots only.
 */
export class CrawlerWorker {
  readonly name: string;
  private readonly jobSlots: Slots;
  private readonly syncSlots: Slots;
  private readonly streamSlots: Slots;
  private readonly streamSlotCount: number;
  private readonly webhookSlots: Slots;
  private readonly webhookSlotCount: number;
  private readonly running = new Set<AbortController>();
  /** Attempts under way (from the lease on), for close() to wait for. */
  private readonly jobs = new Set<Promise<void>>();
  private readonly metrics: WorkerMetrics;
  private closed = false;

  constructor(private readonly deps: WorkerDeps) {
    this.name = deps.worker ?? `crawler-${randomUUID().slice(0, 8)}`;
    this.metrics = deps.metrics ?? NO_WORKER_METRICS;
    this.jobSlots = new Slots(deps.concurrency);
    this.syncSlots = new Slots(deps.syncConcurrency);
    this.streamSlotCount = deps.streamConcurrency ?? 128;
    this.streamSlots = new Slots(this.streamSlotCount);
    this.webhookSlotCount = deps.webhookConcurrency ?? 32;
    this.webhookSlots = new Slots(this.webhookSlotCount);
  }

  async start(): Promise<void> {
    await this.deps.bus.subscribe(TOPICS.work, "crawler", (m) => this.handle(m, this.jobSlots));
    await this.deps.bus.subscribe(TOPICS.sync, "crawler", (m) => this.handle(m, this.syncSlots));
    // Deliveries wait on receivers: a bound of their own on messages in flight too, as many as their slots.
    await this.deps.bus.subscribe(TOPICS.webhooks, "crawler", (m) => this.handleWebhooks(m), { maxInFlight: this.webhookSlotCount });
    // Stream batches are many and short (a probe each, mostly): a bound of their own, as many as the stream slots.
    if (this.deps.streams) await this.deps.bus.subscribe(TOPICS.stream, "crawler", (m) => this.handleStream(m, this.streamSlots), { maxInFlight: this.streamSlotCount });
  }

  /**
   * The webhooks topic carries batches of planned attempts (stream items) on the webhook slots; an
   * attempt an older scheduler planned as a job (a work item, which decodes as a stream item
   * without a task) still takes the job path, on the same slots.
   */
  private async handleWebhooks(message: BusMessage): Promise<void> {
    let item: StreamItem | null = null;
    try {
      item = StreamItem.decode(message.payload);
    } catch {
      // Not a stream item: a work item's path says what it is.
    }
    if (item?.task && this.deps.streams) return this.handleStream(message, this.webhookSlots, item);
    return this.handle(message, this.webhookSlots);
  }

  /**
   * A stream batch: run by its kind, answered with one result on the results topic under the same
   * key. No lease: a batch lost with a node is planned again at its next slot.
   */
  private async handleStream(message: BusMessage, slots: Slots, decoded?: StreamItem): Promise<void> {
    if (this.closed) throw new WorkerClosingError();
    const item = decoded ?? decodeStreamItem(message.payload);
    const task = item.task;
    if (!task) throw new UndecodableWorkItemError(new Error("a stream item without a task"));
    // The one place that dispatches on a stream item's arm.
    const kind = this.deps.streams?.[task.$case] as CrawlerStreamKind<StreamKind> | undefined;
    if (!kind) throw new Error(`this node does not do ${task.$case} work`);
    if (item.avoidNode === this.name && item.hops < STREAM_MAX_HOPS) {
      // Another node should run it (the confirmation of this node's own failure): passed on under
      // another key, which lands on another partition and, with several nodes, most likely another
      // node; alone (or unlucky STREAM_MAX_HOPS times), this node runs it.
      const hops = item.hops + 1;
      const payload = StreamItem.encode({ ...item, hops }).finish();
      await this.deps.bus.publish([{ topic: TOPICS.stream, key: `${message.key}#${hops}`, payload }]);
      this.metrics.streamPassedOn(task.$case);
      return;
    }
    await slots.take(() => new WorkerClosingError());
    this.metrics.streamStarted(task.$case);
    try {
      const value = await kind.run(task.value, { node: this.deps.node, plannedMs: item.plannedMs });
      const result = StreamResult.fromPartial({ node: this.name, result: { $case: task.$case, value } as StreamResult["result"] });
      await this.deps.bus.publish([{ topic: TOPICS.results, key: message.key, payload: StreamResult.encode(result).finish() }]);
    } finally {
      this.metrics.streamFinished(task.$case);
      slots.release();
    }
  }

  private async handle(message: BusMessage, lane: Slots): Promise<void> {
    if (this.closed) throw new WorkerClosingError();
    const item = decodeWorkItem(message.payload);
    // A kind with slots of its own takes them wherever its message came from (a delivery planned
    // before its topic existed still arrives on the work topic).
    const slots = !item.sync && this.deps.kinds[item.kind as WorkKind]?.slots === "webhook" ? this.webhookSlots : lane;
    // Rejects with WorkerClosingError should the worker close while this waits.
    await slots.take(() => new WorkerClosingError());
    if (this.closed) {
      slots.release();
      throw new WorkerClosingError();
    }
    // The attempt is a span of the message's trace (a new trace for work no request caused), and
    // every log line and call of it names the job.
    const job = withSpan("job attempt", { jobId: item.jobId, attributes: { "svc.job_id": item.jobId } }, () => this.attempt(item));
    this.jobs.add(job);
    try {
      await job;
    } finally {
      this.jobs.delete(job);
      slots.release();
    }
  }

  /** One attempt of a job: lease, run its kind, complete (with the result or what the failure is worth). */
  private async attempt(item: WorkItem): Promise<void> {
    const s = this.deps.scheduler;
    const lease = await callUnary(s.lease.bind(s), LeaseRequest.fromPartial({ jobId: item.jobId, worker: this.name }), CALL);
    if (!lease.granted) return; // done, failed, or another worker holds it: nothing to do
    if (this.closed) {
      // Granted as the worker closed: not started, handed back.
      await this.handBack(item.jobId, new WorkerClosingError());
      return;
    }
    const abort = new AbortController();
    this.running.add(abort);
    const label = lease.task?.$case ?? "unknown";
    const startedAt = Date.now();
    let outcome: JobOutcome = "abandoned";
    let pages = 0;
    this.metrics.started(label);
    const beat = this.heartbeats(item.jobId, abort);
    const complete = { ...COMPLETE, retryUntilMs: beat.retryUntilMs };
    try {
      const result = await this.runTask(lease, item, beat, abort);
      if (result.$case === "crawl") pages = result.value.pageStats.length;
      if (abort.signal.aborted) {
        outcome = await this.handBack(item.jobId, abort.signal.reason);
        return;
      }
      // A literal, not fromPartial: that deep-copies the result (a crawl's is megabytes) before encoding it.
      const request: CompleteRequest = { jobId: item.jobId, worker: this.name, error: "", errorDetail: "", retry: Retry.RETRY_UNSPECIFIED, retryAfterMs: 0, result };
      const done = await callUnary(s.complete.bind(s), request, complete);
      if (done.accepted) outcome = "done";
    } catch (err) {
      if (abort.signal.aborted) {
        outcome = await this.handBack(item.jobId, abort.signal.reason);
        return;
      }
      const failure = failureOf(err);
      this.deps.logger.warn({ job: item.jobId, kind: label, error: failure.error, retry: Retry[failure.retry] }, "job attempt failed");
      await callUnary(s.complete.bind(s), CompleteRequest.fromPartial({ jobId: item.jobId, worker: this.name, ...failure, errorDetail: failure.detail }), complete);
      outcome = "failed";
    } finally {
      beat.stop();
      this.running.delete(abort);
      this.metrics.finished(label, outcome, (Date.now() - startedAt) / 1000);
      this.deps.logger.info({ job: item.jobId, kind: label, attempt: lease.attempt, outcome, ms: Date.now() - startedAt }, "job attempt finished");
      // A large crawl grew the heap to its peak (its result, the store's batches; in `svc serve` the
      // settling too, done once complete answered): one full collection gives it back, rather than
      // the process keeping it committed while it idles.
      if (pages >= TRIM_AFTER_CRAWL_OF) collectGarbage();
    }
  }

  /**
   * An attempt given up while it may still hold its lease (its work could not be stored until the
   * lease's end, or the node is closing): the lease is handed back at once (a retryable failure),
   * so that the next attempt starts now, on any node, from the last checkpoint, rather than after
   * the lease lapses. A lease already lost is nobody's to hand back. One short call: a scheduler
   * that does not answer lets the lease lapse as before.
   */
  private async handBack(jobId: number, reason: unknown): Promise<JobOutcome> {
    if (reason instanceof LeaseLostError) return "abandoned";
    const s = this.deps.scheduler;
    const error = reason instanceof WorkerClosingError ? "node_closing" : "store_unavailable";
    const detail = (reason as Error)?.message ?? String(reason);
    try {
      await callUnary(s.complete.bind(s), CompleteRequest.fromPartial({ jobId, worker: this.name, error, errorDetail: detail, retry: Retry.RETRY_RETRYABLE }), HAND_BACK);
      this.deps.logger.info({ job: jobId, reason: error }, "lease handed back; the next attempt starts now");
    } catch {
      // The lease lapses instead.
    }
    return "abandoned";
  }

  /** Runs the lease's task through its kind: the one place that dispatches on the task's arm. */
  private async runTask(lease: LeaseResponse, item: WorkItem, beat: Heartbeats, abort: AbortController): Promise<WorkResult> {
    const task: LeaseTask | undefined = lease.task;
    if (!task) throw new UndecodableWorkItemError(new Error("a lease without a task"));
    const kind = this.deps.kinds[task.$case] as CrawlerKind<WorkKind> | undefined;
    // A node of an older release meets a newer kind: another node may know it.
    if (!kind) throw new Error(`this node does not do ${task.$case} work`);
    const ctx: WorkContext = {
      jobId: item.jobId,
      host: lease.host,
      attempt: lease.attempt,
      sync: item.sync,
      signal: abort.signal,
      progress: beat.progress,
      checkpoint: beat.checkpoint,
      pages: this.pageStore(item.jobId, beat, abort),
      node: this.deps.node,
    };
    const value = await kind.run(task.value, ctx);
    return { $case: task.$case, value } as WorkResult;
  }

  /**
   * The lease renewed every third of its length, and progress reported at most once a second. The
   * lease's end is tracked here (renewed by every answer that says keep going): calls that store
   * the attempt's work ride out a scheduler away (a restart) until then plus RESTART_ALLOWANCE_MS.
   * While no scheduler runs nobody can take the job, and a scheduler that starts grants running
   * jobs one lease length back; a scheduler that does answer meanwhile says whether the lease still
   * holds (keepGoing), so riding out longer wastes at most this attempt's work, never stores twice.
   */
  private heartbeats(jobId: number, abort: AbortController): Heartbeats {
    const s = this.deps.scheduler;
    const leaseMs = this.deps.leaseMs;
    let progress = 0;
    let step = "starting";
    let lastBeat = Date.now();
    let leaseUntil = Date.now() + leaseMs;
    const answered = (keepGoing: boolean) => {
      if (!keepGoing) abort.abort(new LeaseLostError());
      else leaseUntil = Math.max(leaseUntil, Date.now() + leaseMs);
    };
    /** A stored batch carried the progress and renewed the lease: it counts as a heartbeat. */
    const stored = (keepGoing: boolean) => {
      if (keepGoing) lastBeat = Date.now();
      answered(keepGoing);
    };
    const retryUntilMs = () => leaseUntil + Math.max(leaseMs, RESTART_ALLOWANCE_MS);
    const call = { ...CALL, retryUntilMs };
    const heartbeat = () => {
      lastBeat = Date.now();
      void callUnary(s.heartbeat.bind(s), HeartbeatRequest.fromPartial({ jobId, worker: this.name, progress, step }), CALL)
        .then((r) => answered(r.keepGoing))
        .catch(() => undefined);
    };
    const timer = setInterval(heartbeat, Math.max(200, Math.floor(this.deps.leaseMs / 3)));
    timer.unref();
    return {
      progress: (p, st) => {
        progress = Math.max(progress, p);
        step = st;
        if (Date.now() - lastBeat >= PROGRESS_EVERY_MS) heartbeat();
      },
      checkpoint: async (p, st) => {
        progress = Math.max(progress, p);
        step = st;
        const r = await callUnary(s.checkpoint.bind(s), CheckpointRequest.fromPartial({ jobId, worker: this.name, progress, step }), call);
        answered(r.keepGoing);
      },
      renewed: stored,
      retryUntilMs,
      current: () => ({ progress, step }),
      stop: () => clearInterval(timer),
    };
  }

  /** A job's pages at the scheduler: stored as they are made (the checkpoint), read back on a resumed attempt. */
  private pageStore(jobId: number, beat: Heartbeats, attempt: AbortController): PageStore {
    const s = this.deps.scheduler;
    const abort = (err: unknown) => attempt.abort(err);
    return {
      put: async (pages, p) => {
        try {
          const r = await callUnary(
            s.putPages.bind(s),
            // A literal, not fromPartial: that deep-copies every page of the batch before encoding it.
            { jobId, worker: this.name, pages, progress: beat.current().progress, step: "crawling", known: p.known } satisfies PutPagesRequest,
            { ...CALL, retryUntilMs: beat.retryUntilMs },
          );
          beat.renewed(r.keepGoing);
        } catch (err) {
          // A crawl chains its stores and awaits them only at its end, so a store that threw would
          // be an unhandled rejection meanwhile and end the process. The call retried a scheduler
          // away, or its store away (UNAVAILABLE), until the lease's end: the attempt cannot
          // checkpoint, so it is given up and its lease handed back (see handBack); the next
          // attempt resumes from the last batch stored.
          this.deps.logger.warn({ job: jobId, err }, "storing crawled pages failed; attempt abandoned");
          abort(err);
        }
      },
      stored: async () => {
        const out: CrawledPage[] = [];
        for (let offset = 0; ; ) {
          const r = await callUnary(s.crawlPages.bind(s), CrawlPagesRequest.fromPartial({ jobId, worker: this.name, offset, limit: 500 }), { ...CALL, retryUntilMs: beat.retryUntilMs });
          for (const page of r.pages) out.push(page);
          offset += r.pages.length;
          if (!r.more || r.pages.length === 0) return out;
        }
      },
    };
  }

  /**
   * Stops taking work: messages not yet started are refused (WorkerClosingError, for the bus to
   * hand to another node). Jobs running get graceMs to finish; what still runs then is abandoned:
   * its lease lapses and another node resumes it from its checkpoint.
   */
  async close(graceMs = 0): Promise<void> {
    this.closed = true;
    this.jobSlots.refuseWaiting();
    this.syncSlots.refuseWaiting();
    this.streamSlots.refuseWaiting();
    this.webhookSlots.refuseWaiting();
    if (graceMs > 0 && this.jobs.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...this.jobs]), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    if (this.running.size === 0) return;
    for (const a of this.running) a.abort(new WorkerClosingError());
    // The abandoned attempts hand their leases back: another node resumes them now, not after the lapse.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.jobs]), new Promise<void>((resolve) => (timer = setTimeout(resolve, HAND_BACK_WAIT_MS)))]);
    clearTimeout(timer);
  }
}

/** The scheduler said the attempt no longer holds the job's lease. */
class LeaseLostError extends Error {
  constructor() {
    super("lease lost");
    this.name = "LeaseLostError";
  }
}

interface Heartbeats {
  readonly progress: (progress: number, step: string) => void;
  readonly checkpoint: (progress: number, step: string) => Promise<void>;
  /** A stored batch's answer about the lease: keep going (renewed, progress recorded: a heartbeat) or not (lost). */
  readonly renewed: (keepGoing: boolean) => void;
  /** Until when calls that store the attempt's work retry a scheduler away (epoch ms). */
  readonly retryUntilMs: () => number;
  readonly current: () => { progress: number; step: string };
  readonly stop: () => void;
}

function decodeWorkItem(payload: Uint8Array): WorkItem {
  try {
    return WorkItem.decode(payload);
  } catch (err) {
    throw new UndecodableWorkItemError(err);
  }
}

function decodeStreamItem(payload: Uint8Array): StreamItem {
  try {
    return StreamItem.decode(payload);
  } catch (err) {
    throw new UndecodableWorkItemError(err);
  }
}
