import { randomUUID } from "node:crypto";
import {
  CheckKind,
  CheckpointRequest,
  CrawlPagesRequest,
  JobKind,
  PutPagesRequest,
  type CrawledPage,
  type CrawlResult,
  type DnsFacts,
  type PageFacts,
  type TlsFacts,
  CompleteRequest,
  HeartbeatRequest,
  LeaseRequest,
  TOPICS,
  WorkItem,
  type SchedulerServiceClient,
  type SiteFacts,
} from "../proto/index.ts";
import { callUnary, type Bus, type BusMessage, type Logger } from "../runtime/index.ts";
import { NO_WORKER_METRICS, type JobLabel, type JobOutcome, type WorkerMetrics } from "./worker-metrics.ts";

/** Collects a site's facts; progress is 0-100 with a short step name. */
export type CollectFacts = (
  host: string,
  options: { pageSample: number; sync: boolean; onProgress: (progress: number, step: string) => void; signal: AbortSignal },
) => Promise<SiteFacts>;

/**
 * A whole-site crawl with the site's analysis: both run at once (the crawl starts as soon as the
 * origin and robots.txt are known) and share the host's politeness; resumes from stored pages.
 * Progress is 0-100: the analysis's first tenth, then pages done out of pages known.
 */
export type CrawlWholeSite = (input: {
  readonly jobId: number;
  readonly host: string;
  /** The analysis's page sample (its own, not the crawl's: a run must not depend on the order fetches finish). */
  readonly pageSample: number;
  readonly maxPages: number;
  readonly maxDepth: number;
  readonly resume: readonly CrawledPage[];
  readonly store: (pages: CrawledPage[], progress: { done: number; known: number }) => Promise<void>;
  readonly onProgress: (progress: number, step: string) => void;
  readonly signal: AbortSignal;
}) => Promise<CrawlResult>;

/** Single checks of the synchronous lane. */
export interface SingleChecks {
  page(url: string, signal: AbortSignal): Promise<PageFacts>;
  tls(host: string, signal: AbortSignal): Promise<TlsFacts>;
  dns(host: string, signal: AbortSignal): Promise<DnsFacts>;
}

/** Classifies a collection failure: its reason code and whether another attempt may succeed. */
export type ClassifyFailure = (err: unknown) => { error: string; detail: string; retryable: boolean };

export interface WorkerDeps {
  readonly bus: Bus;
  readonly scheduler: SchedulerServiceClient;
  readonly collect: CollectFacts;
  readonly crawl: CrawlWholeSite;
  readonly checks: SingleChecks;
  readonly classify: ClassifyFailure;
  readonly logger: Logger;
  readonly leaseMs: number;
  readonly concurrency: number;
  readonly worker?: string;
  readonly metrics?: WorkerMetrics;
}

/** The worker is closing: the message was not taken and goes to another node. Retryable. */
export class WorkerClosingError extends Error {
  constructor() {
    super("worker closing");
    this.name = "WorkerClosingError";
  }
}

/** A bus message that is no WorkItem: no attempt can succeed, so it is a dead letter at once. */
export class UndecodableWorkItemError extends Error {
  constructor(cause: unknown) {
    super(`not a WorkItem: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = "UndecodableWorkItemError";
  }
}

/**
 * The one predicate of the worker's errors for the bus: everything but an undecodable message is
 * worth another attempt (the scheduler away, the worker closing: not the message's fault).
 */
export function isRetryableWorkError(err: unknown): boolean {
  return !(err instanceof UndecodableWorkItemError);
}

const CALL = { deadlineMs: 10_000, retries: 3 };
const COMPLETE = { deadlineMs: 60_000, retries: 5 };
const PROGRESS_EVERY_MS = 1000;

/**
 * A crawler node's work loop: takes work items from the bus, leases each job from the scheduler
 * (gRPC), collects the site's facts while heartbeating, and hands them back with Complete. It
 * holds no database credentials; a node that dies simply lets its lease lapse.
 */
export class CrawlerWorker {
  readonly name: string;
  private active = 0;
  private readonly queue: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private readonly running = new Set<AbortController>();
  /** Attempts under way (from the lease on), for close() to wait for. */
  private readonly jobs = new Set<Promise<void>>();
  private readonly metrics: WorkerMetrics;
  private closed = false;

  constructor(private readonly deps: WorkerDeps) {
    this.name = deps.worker ?? `crawler-${randomUUID().slice(0, 8)}`;
    this.metrics = deps.metrics ?? NO_WORKER_METRICS;
  }

  async start(): Promise<void> {
    const handle = (m: BusMessage) => this.handle(m);
    await this.deps.bus.subscribe(TOPICS.work, "crawler", handle);
    await this.deps.bus.subscribe(TOPICS.sync, "crawler", handle);
  }

  private async handle(message: BusMessage): Promise<void> {
    if (this.closed) throw new WorkerClosingError();
    const item = decodeWorkItem(message.payload);
    // Rejects with WorkerClosingError should the worker close while this waits.
    await this.slot();
    if (this.closed) {
      this.release();
      throw new WorkerClosingError();
    }
    const job = this.run(item);
    this.jobs.add(job);
    try {
      await job;
    } finally {
      this.jobs.delete(job);
      this.release();
    }
  }

  private async run(item: WorkItem): Promise<void> {
    const s = this.deps.scheduler;
    const lease = await callUnary(s.lease.bind(s), LeaseRequest.fromPartial({ jobId: item.jobId, worker: this.name }), CALL);
    if (!lease.granted) return; // done, failed, or another worker holds it: nothing to do
    if (this.closed) return; // granted as the worker closed: not started, the lease lapses
    const abort = new AbortController();
    this.running.add(abort);
    const single = lease.check === CheckKind.CHECK_KIND_PAGE || lease.check === CheckKind.CHECK_KIND_TLS || lease.check === CheckKind.CHECK_KIND_DNS;
    const label: JobLabel = single ? "check" : lease.kind === JobKind.JOB_KIND_CRAWL ? "crawl" : "analyze";
    const startedAt = Date.now();
    let outcome: JobOutcome = "abandoned";
    this.metrics.started(label);
    let progress = 0;
    let step = "starting";
    let lastBeat = Date.now();
    const heartbeat = () => {
      lastBeat = Date.now();
      void callUnary(s.heartbeat.bind(s), HeartbeatRequest.fromPartial({ jobId: item.jobId, worker: this.name, progress, step }), CALL)
        .then((r) => {
          if (!r.keepGoing) abort.abort(new Error("lease lost"));
        })
        .catch(() => undefined);
    };
    // The lease is renewed every third of its length; progress is reported at most once a second.
    const beat = setInterval(heartbeat, Math.max(200, Math.floor(this.deps.leaseMs / 3)));
    beat.unref();
    try {
      if (lease.check === CheckKind.CHECK_KIND_PAGE || lease.check === CheckKind.CHECK_KIND_TLS || lease.check === CheckKind.CHECK_KIND_DNS) {
        const c = this.deps.checks;
        const result =
          lease.check === CheckKind.CHECK_KIND_PAGE
            ? { page: await c.page(lease.target, abort.signal) }
            : lease.check === CheckKind.CHECK_KIND_TLS
              ? { tls: await c.tls(lease.target, abort.signal) }
              : { dns: await c.dns(lease.target, abort.signal) };
        if (abort.signal.aborted) return;
        const done = await callUnary(s.complete.bind(s), CompleteRequest.fromPartial({ jobId: item.jobId, worker: this.name, ...result }), COMPLETE);
        if (done.accepted) outcome = "done";
        return;
      }
      if (lease.kind === JobKind.JOB_KIND_CRAWL) {
        const resume = lease.attempt > 1 ? await this.storedPages(item.jobId) : [];
        const crawl = await this.deps.crawl({
          jobId: item.jobId,
          host: lease.host,
          pageSample: lease.pageSample,
          maxPages: lease.maxPages,
          maxDepth: lease.maxDepth,
          resume,
          signal: abort.signal,
          store: async (pages, p) => {
            try {
              const r = await callUnary(s.putPages.bind(s), PutPagesRequest.fromPartial({ jobId: item.jobId, worker: this.name, pages, progress, step: "crawling", known: p.known }), CALL);
              if (!r.keepGoing) abort.abort(new Error("lease lost"));
            } catch (err) {
              // The crawl chains its stores and awaits them only at its end, so a store that threw
              // would be an unhandled rejection meanwhile and end the process. Without the scheduler
              // the attempt cannot checkpoint: it is abandoned, its lease lapses, and the next attempt
              // resumes from the last batch stored.
              this.deps.logger.warn({ job: item.jobId, err }, "storing crawled pages failed; attempt abandoned");
              abort.abort(err);
            }
          },
          onProgress: (p, st) => {
            progress = Math.max(progress, p);
            step = st;
            if (Date.now() - lastBeat >= PROGRESS_EVERY_MS) heartbeat();
          },
        });
        if (abort.signal.aborted) return;
        const done = await callUnary(s.complete.bind(s), CompleteRequest.fromPartial({ jobId: item.jobId, worker: this.name, crawl }), COMPLETE);
        if (done.accepted) outcome = "done";
        return;
      }
      const facts = await this.deps.collect(lease.host, {
        pageSample: lease.pageSample,
        sync: item.sync,
        signal: abort.signal,
        onProgress: (p, st) => {
          progress = p;
          step = st;
          if (Date.now() - lastBeat >= PROGRESS_EVERY_MS) heartbeat();
        },
      });
      if (abort.signal.aborted) return;
      await callUnary(s.checkpoint.bind(s), CheckpointRequest.fromPartial({ jobId: item.jobId, worker: this.name, progress: 99, step: "analysing" }), CALL);
      const done = await callUnary(s.complete.bind(s), CompleteRequest.fromPartial({ jobId: item.jobId, worker: this.name, facts }), COMPLETE);
      if (done.accepted) outcome = "done";
    } catch (err) {
      if (abort.signal.aborted) return;
      const failure = this.deps.classify(err);
      this.deps.logger.warn({ job: item.jobId, error: failure.error }, "job attempt failed");
      await callUnary(s.complete.bind(s), CompleteRequest.fromPartial({ jobId: item.jobId, worker: this.name, ...failure, errorDetail: failure.detail }), COMPLETE);
      outcome = "failed";
    } finally {
      clearInterval(beat);
      this.running.delete(abort);
      this.metrics.finished(label, outcome, (Date.now() - startedAt) / 1000);
    }
  }

  /** What earlier attempts of a crawl stored: the checkpoint it resumes from. */
  private async storedPages(jobId: number): Promise<CrawledPage[]> {
    const s = this.deps.scheduler;
    const out: CrawledPage[] = [];
    for (let offset = 0; ; ) {
      const r = await callUnary(s.crawlPages.bind(s), CrawlPagesRequest.fromPartial({ jobId, worker: this.name, offset, limit: 500 }), CALL);
      out.push(...r.pages);
      offset += r.pages.length;
      if (!r.more || r.pages.length === 0) return out;
    }
  }

  private slot(): Promise<void> {
    if (this.active < this.deps.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.queue.push({ resolve, reject }));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next.resolve();
    else this.active -= 1;
  }

  /**
   * Stops taking work: messages not yet started are refused (WorkerClosingError, for the bus to
   * hand to another node). Jobs running get graceMs to finish; what still runs then is abandoned:
   * its lease lapses and another node resumes it from its checkpoint.
   */
  async close(graceMs = 0): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new WorkerClosingError());
    if (graceMs > 0 && this.jobs.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...this.jobs]), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    for (const a of this.running) a.abort(new WorkerClosingError());
  }
}

function decodeWorkItem(payload: Uint8Array): WorkItem {
  try {
    return WorkItem.decode(payload);
  } catch (err) {
    throw new UndecodableWorkItemError(err);
  }
}
