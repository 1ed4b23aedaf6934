import type { WorkResult } from "../proto/index.ts";
import type { AttemptFailure, JobRow, OutboxMessage, Requeue, Store } from "../storage/index.ts";
import { grpcError, status } from "./grpc-errors.ts";
import { jobEvent } from "./job-events.ts";
import { reposOf, schedulerKind, type KindContext } from "./kinds/index.ts";

/**
 * What follows a failed attempt. Throttled: queued again after its delay, the attempt given back.
 * Retryable: queued again while attempts remain. Otherwise (never, fatal, or attempts spent): null,
 * the job ends in error.
 */
export function nextAttempt(job: JobRow, failure: AttemptFailure, now: number): Requeue | null {
  if (failure.retry === "throttled") {
    const delayS = Math.ceil(failure.delayMs / 1000);
    return { step: `throttled (${failure.error}); again after ${delayS} s`, notBefore: now + delayS, giveBack: true };
  }
  if (failure.retry === "retryable" && job.attempt < job.max_attempts) return { step: `retrying after ${failure.error}`, notBefore: null, giveBack: false };
  return null;
}

/**
 * A worker's success, settled in one unit of work: the job is locked and must still be the
 * worker's (a stale worker's completion answers false and writes nothing); the result's kind
 * writes what the job found, through the repositories it declared, bound to the unit of work; the
 * job becomes done with what its row keeps.
 */
export async function completeJob(ctx: KindContext, store: Pick<Store, "tx">, jobId: number, worker: string, result: WorkResult): Promise<boolean> {
  const kind = schedulerKind(result.$case);
  if (!kind) throw grpcError(status.INVALID_ARGUMENT, "bad_param", `no work kind named ${result.$case}`);
  const now = ctx.now();
  return store.tx(async (t) => {
    const job = await t.jobs.lockHeld(jobId, worker);
    if (!job) return false;
    if (job.kind !== kind.name) throw grpcError(status.INVALID_ARGUMENT, "bad_param", `job ${job.id} is ${job.kind} work, not ${kind.name}`);
    const settled = await kind.settle(ctx, reposOf(kind, t), job, result.value);
    await t.jobs.markDone(job.id, settled, now);
    return true;
  });
}

/**
 * A worker's failure, settled in one unit of work: queued again with a new outbox message (which
 * carries the job's trace), or ended in error with its kind's follow-up (through the repositories
 * it declared, bound to the unit of work) and its event. A stale worker's failure answers not_held
 * and writes nothing.
 */
export async function failJob(
  ctx: KindContext,
  store: Pick<Store, "tx">,
  jobId: number,
  worker: string,
  failure: AttemptFailure,
  message: (job: JobRow) => OutboxMessage,
): Promise<"requeued" | "failed" | "not_held"> {
  const now = ctx.now();
  return store.tx(async (t) => {
    const job = await t.jobs.lockHeld(jobId, worker);
    if (!job) return "not_held";
    const again = nextAttempt(job, failure, now);
    if (again) {
      await t.jobs.requeue(job.id, again, now);
      await t.outbox.enqueue(message(job), now, again.notBefore, job);
      return "requeued";
    }
    await t.jobs.markFailed(job.id, failure.error, failure.detail, now);
    const kind = schedulerKind(job.kind);
    await kind?.failed?.(ctx, reposOf(kind, t), job, failure);
    await t.events.add([jobEvent(job, "error", { error: failure.error, ...(failure.detail ? { detail: failure.detail } : {}) })], now);
    return "failed";
  });
}
