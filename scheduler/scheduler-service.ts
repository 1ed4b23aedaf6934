import type { sendUnaryData, ServerUnaryCall, UntypedHandleCall } from "@grpc/grpc-js";
import {
  CheckKind,
  CheckpointResponse,
  DnsFacts,
  PageFacts,
  TlsFacts,
  CompleteResponse,
  CrawledPage,
  CrawlPagesResponse,
  HeartbeatResponse,
  PutPagesResponse,
  StartCrawlResponse,
  type CrawlPagesRequest,
  type PutPagesRequest,
  type StartCrawlRequest,
  JobKind,
  LeaseResponse,
  RunCheckResponse,
  StartAnalysisResponse,
  type CheckpointRequest,
  type CompleteRequest,
  type HeartbeatRequest,
  type LeaseRequest,
  type RunCheckRequest,
  type SchedulerServiceServer,
  type StartAnalysisRequest,
} from "../proto/index.ts";
import type { Clock, Config, Logger } from "../runtime/index.ts";
import { unixSeconds } from "../runtime/index.ts";
import { type JobRow, type Store } from "../storage/index.ts";
import { grpcError, status } from "./grpc-errors.ts";
import { workMessage } from "./messages.ts";
import type { OutboxRelay } from "./relay.ts";
import { jobEvent, settleAnalysis, settleCrawl } from "./settle.ts";

export interface SchedulerCore {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly relay: OutboxRelay;
  /** This replica's name: the reply address of its synchronous checks. */
  readonly replica: string;
}

/** Jobs finished in this process, for synchronous waiters (others are seen by polling Postgres). */
class Waiters {
  private readonly waiting = new Map<number, (() => void)[]>();
  wait(jobId: number, ms: number, poll: () => Promise<boolean>): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (done: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(ticker);
        resolve(done);
      };
      const list = this.waiting.get(jobId) ?? [];
      list.push(() => finish(true));
      this.waiting.set(jobId, list);
      const timer = setTimeout(() => finish(false), ms);
      const ticker = setInterval(() => void poll().then((d) => d && finish(true)).catch(() => undefined), 500);
    });
  }
  done(jobId: number): void {
    for (const f of this.waiting.get(jobId) ?? []) f();
    this.waiting.delete(jobId);
  }
}

const CHECK_NAMES: Partial<Record<CheckKind, "site" | "page" | "tls" | "dns">> = {
  [CheckKind.CHECK_KIND_SITE]: "site",
  [CheckKind.CHECK_KIND_PAGE]: "page",
  [CheckKind.CHECK_KIND_TLS]: "tls",
  [CheckKind.CHECK_KIND_DNS]: "dns",
};
const CHECK_KINDS: Record<"site" | "page" | "tls" | "dns", CheckKind> = {
  site: CheckKind.CHECK_KIND_SITE,
  page: CheckKind.CHECK_KIND_PAGE,
  tls: CheckKind.CHECK_KIND_TLS,
  dns: CheckKind.CHECK_KIND_DNS,
};

/** A crawl counts as three checks against the plan's daily limit (spec, Limits). */
export const CRAWL_COST = 3;

type Handler<Req, Res> = (call: ServerUnaryCall<Req, Res>, cb: sendUnaryData<Res>) => void;

function unary<Req, Res>(logger: Logger, fn: (req: Req) => Promise<Res>): Handler<Req, Res> {
  return (call, cb) => {
    fn(call.request).then(
      (res) => cb(null, res),
      (err: unknown) => {
        const e = err as { code?: number; metadata?: unknown };
        if (typeof e.code === "number" && e.metadata) cb(err as Error, null);
        else {
          logger.error({ err }, "scheduler call failed");
          cb(grpcError(status.INTERNAL, "server", "scheduler fault"), null);
        }
      },
    );
  };
}

/** The Scheduler gRPC service over Postgres: jobs, leases and results. */
export function schedulerHandlers(core: SchedulerCore): SchedulerServiceServer & Record<string, UntypedHandleCall> {
  const { store, config, clock, logger, relay } = core;
  const waiters = new Waiters();
  const now = () => unixSeconds(clock);
  const message = (job: JobRow) => workMessage(job, core.replica);

  async function start(accountId: number, host: string, fresh: boolean, charge: boolean, sync: boolean): Promise<{ job: JobRow; cached: boolean }> {
    if (!fresh) {
      const run = await store.runs.latest(host);
      if (run && run.checked_at >= now() - config.reportFreshSeconds) {
        return { job: await store.jobs.createCached(accountId, "analyze", host, run.id, now()), cached: true };
      }
    }
    if (charge) await chargeCheck(accountId, 1);
    const job = await store.jobs.createQueued({ accountId, kind: "analyze", host, sync, maxAttempts: config.maxAttempts }, now(), message);
    relay.kick();
    return { job, cached: false };
  }

  /** A whole-site crawl: a fresh crawl of the host is reused, otherwise three checks are charged. */
  async function startCrawl(accountId: number, host: string, fresh: boolean): Promise<{ job: JobRow; cached: boolean }> {
    if (!fresh) {
      const crawl = await store.crawls.latest(host);
      if (crawl?.run_id && crawl.checked_at >= now() - config.reportFreshSeconds) {
        return { job: await store.jobs.createCached(accountId, "crawl", host, crawl.run_id, now()), cached: true };
      }
    }
    await chargeCheck(accountId, CRAWL_COST);
    const job = await store.jobs.createQueued({ accountId, kind: "crawl", host, sync: false, maxAttempts: config.maxAttempts }, now(), message);
    relay.kick();
    return { job, cached: false };
  }

  /** A single check (page, TLS, DNS) in the synchronous lane: never cached, charged one check. */
  async function startCheck(accountId: number, check: "page" | "tls" | "dns", target: string): Promise<{ job: JobRow; cached: boolean }> {
    await chargeCheck(accountId, 1);
    const host = check === "page" ? new URL(target).host : target;
    const job = await store.jobs.createQueued({ accountId, kind: "analyze", host, sync: true, maxAttempts: config.maxAttempts, check, target }, now(), message);
    relay.kick();
    return { job, cached: false };
  }

  async function chargeCheck(accountId: number, cost: number): Promise<void> {
    const [plan] = await store.db.query<{ checks_per_day: number }>(
      "SELECT p.checks_per_day FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1",
      [accountId],
    );
    const day = Math.floor(now() / 86400);
    const n = await store.auth.charge(`d:checks:${accountId}`, day, cost, plan?.checks_per_day ?? 0);
    if (n === null) {
      const untilTomorrow = (day + 1) * 86400 - now();
      throw grpcError(status.RESOURCE_EXHAUSTED, "limit", `your plan allows ${plan?.checks_per_day ?? 0} checks a day`, untilTomorrow);
    }
  }

  return {
    startAnalysis: unary(logger, async (req: StartAnalysisRequest) => {
      const { job, cached } = await start(req.accountId, req.host, req.fresh, req.charge, false);
      return StartAnalysisResponse.fromPartial({ jobId: job.id, cached });
    }),

    startCrawl: unary(logger, async (req: StartCrawlRequest) => {
      const { job, cached } = await startCrawl(req.accountId, req.host, req.fresh);
      return StartCrawlResponse.fromPartial({ jobId: job.id, cached });
    }),

    putPages: unary(logger, async (req: PutPagesRequest) => {
      const pages = req.pages.map((p) => ({
        url: p.url,
        depth: p.depth,
        status: p.status,
        skipped: p.skipped,
        title: p.title,
        words: p.words,
        outlinks: p.internalLinks.length + p.externalLinks.length,
        issues: p.issues,
        data: CrawledPage.toJSON(p),
      }));
      const held = await store.crawlPages.put(req.jobId, req.worker, pages);
      const ok = held && (await store.jobs.heartbeat(req.jobId, req.worker, clock.nowMs(), config.leaseMs, req.progress, req.step || "crawling"));
      return PutPagesResponse.fromPartial({ keepGoing: ok });
    }),

    crawlPages: unary(logger, async (req: CrawlPagesRequest) => {
      const job = await store.jobs.get(req.jobId);
      if (!job || job.worker !== req.worker || job.state !== "running") return CrawlPagesResponse.fromPartial({ pages: [], more: false });
      const limit = Math.max(1, Math.min(1000, req.limit || 500));
      const rows = await store.crawlPages.jobPages(req.jobId, Math.max(0, req.offset), limit + 1);
      return CrawlPagesResponse.fromPartial({ pages: rows.slice(0, limit).map((r) => CrawledPage.fromJSON(r)), more: rows.length > limit });
    }),

    runCheck: unary(logger, async (req: RunCheckRequest) => {
      const check = CHECK_NAMES[req.kind] ?? "site";
      const { job, cached } = check === "site" ? await start(req.accountId, req.target, req.fresh, true, true) : await startCheck(req.accountId, check, req.target);
      if (cached) return RunCheckResponse.fromPartial({ jobId: job.id, done: true, cached: true });
      const done = await waiters.wait(job.id, Math.max(100, req.waitMs), async () => {
        const j = await store.jobs.get(job.id);
        return j?.state === "done" || j?.state === "error";
      });
      return RunCheckResponse.fromPartial({ jobId: job.id, done, cached: false });
    }),

    lease: unary(logger, async (req: LeaseRequest) => {
      const out = await store.jobs.lease(req.jobId, req.worker, clock.nowMs(), config.leaseMs);
      if (!out.granted) {
        if (out.reason === "exhausted") {
          const job = await store.jobs.get(req.jobId);
          if (job) await store.events.appendAlone([jobEvent(job, "error", { error: "attempts_exhausted" })], now());
          waiters.done(req.jobId);
        }
        return LeaseResponse.fromPartial({ granted: false });
      }
      const j = out.job;
      const [limits] =
        j.kind === "crawl"
          ? await store.db.query<{ crawl_pages: number; crawl_depth: number }>(
              "SELECT p.crawl_pages, p.crawl_depth FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1",
              [j.account_id],
            )
          : [];
      return LeaseResponse.fromPartial({
        maxPages: limits?.crawl_pages ?? config.plan.crawlPages,
        maxDepth: limits?.crawl_depth ?? config.plan.crawlDepth,
        granted: true,
        leaseUntilMs: j.lease_until_ms ?? 0,
        attempt: j.attempt,
        checkpoint: Buffer.from(j.checkpoint ?? new Uint8Array()),
        host: j.host,
        kind: j.kind === "crawl" ? JobKind.JOB_KIND_CRAWL : JobKind.JOB_KIND_ANALYZE,
        pageSample: config.crawl.pageSample,
        check: CHECK_KINDS[j.check_kind],
        target: j.target ?? "",
      });
    }),

    heartbeat: unary(logger, async (req: HeartbeatRequest) => {
      const ok = await store.jobs.heartbeat(req.jobId, req.worker, clock.nowMs(), config.leaseMs, req.progress, req.step);
      return HeartbeatResponse.fromPartial({ keepGoing: ok, leaseUntilMs: ok ? clock.nowMs() + config.leaseMs : 0 });
    }),

    checkpoint: unary(logger, async (req: CheckpointRequest) => {
      const ok = await store.jobs.heartbeat(req.jobId, req.worker, clock.nowMs(), config.leaseMs, req.progress, req.step, req.state);
      return CheckpointResponse.fromPartial({ keepGoing: ok });
    }),

    complete: unary(logger, async (req: CompleteRequest) => {
      let accepted: boolean;
      const single = req.page ? PageFacts.toJSON(req.page) : req.tls ? TlsFacts.toJSON(req.tls) : req.dns ? DnsFacts.toJSON(req.dns) : null;
      if (single !== null && !req.error) {
        accepted = await store.jobs.completeCheck(req.jobId, req.worker, now(), single);
      } else if (req.crawl?.facts && !req.error) {
        const crawl = req.crawl;
        accepted = await store.jobs.complete(req.jobId, req.worker, now(), (q, job) => settleCrawl(store, q, job, crawl, now()));
      } else if (req.facts && !req.error) {
        const facts = req.facts;
        accepted = await store.jobs.complete(req.jobId, req.worker, now(), (q, job) => settleAnalysis(store, q, job, facts, now(), config.crawl.crawlFindingsDays));
      } else {
        const outcome = await store.jobs.fail(
          req.jobId,
          req.worker,
          { error: req.error || "failed", detail: req.errorDetail, retryable: req.retryable },
          now(),
          message,
          async (q, job, final) => {
            if (final) await store.events.append(q, [jobEvent(job, "error", { error: req.error })], now());
          },
        );
        accepted = outcome !== "not_held";
        if (outcome === "requeued") {
          // Another attempt follows: a synchronous caller keeps waiting for it.
          relay.kick();
          return CompleteResponse.fromPartial({ accepted });
        }
      }
      waiters.done(req.jobId);
      return CompleteResponse.fromPartial({ accepted });
    }),
  };
}
