import { EVENTS, newEvent } from "../analyzer/index.ts";
import type { BatchOutcome, DeliveryRow, DeliveryUpdate, Repositories, SettledAttempt, Store } from "../storage/index.ts";

/** The repositories an attempt's settlement writes through, bound to its unit of work. */
export type WebhookRepos = Pick<Repositories, "webhooks" | "events">;

/** Seconds from a failed attempt to the next: after the 1st failure 1 min, then 5 min, 30 min, 2 h, 12 h (the spec's schedule, no jitter). */
export const RETRY_DELAYS_S = [60, 300, 1800, 7200, 43_200] as const;
/** Failed attempts after which a delivery is lost. */
export const MAX_FAILURES = 6;
/** Failed attempts after which a delivery answered with a final 4xx is lost. */
export const MAX_FAILURES_4XX = 3;
/** 4xx answers that are worth the whole schedule (timeouts, conflicts, too early, too many). */
const RETRYABLE_4XX = new Set([408, 409, 425, 429]);
/** Deliveries lost in a row that disable an address. */
export const DISABLE_AFTER_LOST = 15;

/** What one attempt met. */
export interface AttemptOutcome {
  /** The status code; 0 when no answer came (refused, unreachable, timeout). */
  readonly code: number;
  /** Empty on a 2xx. */
  readonly error: string;
  readonly durationMs: number | null;
  /** The attempt's signed timestamp (null when it was never sent). */
  readonly sentAt: number | null;
}

/** Whether a status code is the receiver's final word (a 4xx other than 408, 409, 425, 429). */
export function isFinal4xx(code: number): boolean {
  return code >= 400 && code < 500 && !RETRYABLE_4XX.has(code);
}

/**
 * The delivery after a failed attempt: the number of failures so far (this one included) and the
 * code decide whether it is lost or when the next attempt is due.
 */
export function afterFailure(failures: number, code: number, now: number): { lost: boolean; nextAttemptAt: number | null } {
  const lost = failures >= MAX_FAILURES || (failures >= MAX_FAILURES_4XX && isFinal4xx(code));
  if (lost) return { lost, nextAttemptAt: null };
  return { lost, nextAttemptAt: now + (RETRY_DELAYS_S[Math.min(failures, RETRY_DELAYS_S.length) - 1] ?? 0) };
}

/** What an attempt changes on its delivery: delivered on a 2xx; otherwise failing with the next attempt's time, or lost (a test send is never retried). */
export function nextStep(delivery: DeliveryRow, outcome: AttemptOutcome, now: number): DeliveryUpdate {
  const ok = outcome.code >= 200 && outcome.code < 300;
  const failures = ok ? delivery.failures : delivery.failures + 1;
  const next = ok ? null : delivery.test ? { lost: true, nextAttemptAt: null } : afterFailure(failures, outcome.code, now);
  return {
    state: ok ? "delivered" : next?.lost ? "lost" : "failing",
    failures,
    nextAttemptAt: next?.nextAttemptAt ?? null,
    code: outcome.code === 0 ? null : outcome.code,
    error: ok ? null : outcome.error || `http_${outcome.code}`,
    durationMs: outcome.durationMs,
    deliveredAt: ok ? now : null,
  };
}

/**
 * Records one attempt of a delivery (unless recorded already) and what follows it, in the unit of
 * work `t`: a job's completion (a test send's, or an attempt of the job path's), or the planner's
 * settling of abandoned attempts. Batches of attempts take settleAttempts' path; both end in
 * afterAttempts.
 */
export async function recordAttempt(t: WebhookRepos, delivery: DeliveryRow, jobId: number, outcome: AttemptOutcome, now: number): Promise<void> {
  const update = nextStep(delivery, outcome, now);
  if (!(await t.webhooks.recordAttempt(delivery, jobId, outcome.sentAt, now, update))) return;
  await afterAttempts(t, [{ delivery, update }], now);
}

/**
 * Records attempts of batches (crawler nodes' results, or the planner's no_answer for a window
 * passed, in the order they were made), in one unit of work: each for a delivery still sending in
 * a batch and waiting for this attempt (a repeated or late result records nothing). Returns the
 * attempts recorded.
 */
export async function settleAttempts(store: Pick<Store, "tx">, outcomes: readonly BatchOutcome[], now: number): Promise<number> {
  if (outcomes.length === 0) return 0;
  return store.tx(async (t) => {
    const waiting = new Map((await t.webhooks.lockSending(outcomes.map((o) => o.delivery))).map((r) => [Number(r.id), r]));
    const settled: (SettledAttempt & { outcome: BatchOutcome })[] = [];
    for (const o of outcomes) {
      const delivery = waiting.get(o.delivery);
      if (!delivery || delivery.attempts + 1 !== o.n) continue;
      waiting.delete(o.delivery);
      settled.push({ delivery, update: nextStep(delivery, o, now), outcome: o });
    }
    if (settled.length === 0) return 0;
    await t.webhooks.recordBatch(settled, now);
    await afterAttempts(t, settled, now);
    return settled.length;
  });
}

/**
 * What recorded attempts change on their addresses, in order: a delivered one starts the count of
 * lost deliveries again (a successful test send also re-activates a disabled address); a lost one
 * counts, and the 15th lost in a row disables the address, loses what waited for it and appends a
 * `webhook` event. A test send never counts toward disabling.
 */
export async function afterAttempts(t: WebhookRepos, settled: readonly SettledAttempt[], now: number): Promise<void> {
  // Deliveries of one address delivered one after another reset its count once (before a loss, and at the end).
  const resets = new Map<number, boolean>();
  const flush = async (webhook: number) => {
    const reactivate = resets.get(webhook);
    if (reactivate === undefined) return;
    resets.delete(webhook);
    await t.webhooks.succeeded(webhook, reactivate);
  };
  for (const { delivery, update } of settled) {
    if (update.state === "delivered") resets.set(delivery.webhook_id, resets.get(delivery.webhook_id) === true || delivery.test);
    if (update.state !== "lost" || delivery.test) continue;
    await flush(delivery.webhook_id);
    await lostOne(t, delivery.webhook_id, now);
  }
  for (const webhook of [...resets.keys()]) await flush(webhook);
}

async function lostOne(t: WebhookRepos, webhookId: number, now: number): Promise<void> {
  const hook = await t.webhooks.lost(webhookId);
  if (!hook || !hook.active || hook.failed_in_a_row < DISABLE_AFTER_LOST) return;
  const dropped = await t.webhooks.disable(hook.id, now);
  const event = newEvent(EVENTS.WEBHOOK_DISABLED, { webhook: hook.id, url: hook.url, lost: hook.failed_in_a_row, dropped, at: now }, { accountId: hook.account_id, host: null });
  await t.events.add([event], now);
}
