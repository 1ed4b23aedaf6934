import { EVENTS, newEvent } from "../analyzer/index.ts";
import type { DeliveryRow, DeliveryUpdate, Queryable, Store } from "../storage/index.ts";

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

/**
 * Records an attempt of a delivery and moves it on, in the caller's transaction (its job's
 * completion, or the planner's for an attempt whose crawler vanished): delivered on a 2xx;
 * otherwise failing with the next attempt's time, or lost. A test send is never retried and never
 * counts toward disabling; its 2xx re-activates a disabled address. The 15th delivery lost in a
 * row disables the address, loses what waited for it and appends a `webhook` event.
 */
export async function recordOutcome(store: Store, q: Queryable, delivery: DeliveryRow, jobId: number, outcome: AttemptOutcome, now: number): Promise<void> {
  const ok = outcome.code >= 200 && outcome.code < 300;
  const failures = ok ? delivery.failures : delivery.failures + 1;
  const next = ok ? null : delivery.test ? { lost: true, nextAttemptAt: null } : afterFailure(failures, outcome.code, now);
  const update: DeliveryUpdate = {
    state: ok ? "delivered" : next?.lost ? "lost" : "failing",
    failures,
    nextAttemptAt: next?.nextAttemptAt ?? null,
    code: outcome.code === 0 ? null : outcome.code,
    error: ok ? null : outcome.error || `http_${outcome.code}`,
    durationMs: outcome.durationMs,
    deliveredAt: ok ? now : null,
  };
  if (!(await store.webhooks.recordAttempt(q, delivery, jobId, outcome.sentAt, now, update))) return;
  if (ok) return store.webhooks.succeeded(q, delivery.webhook_id, delivery.test);
  if (update.state !== "lost" || delivery.test) return;
  const hook = await store.webhooks.lost(q, delivery.webhook_id);
  if (!hook || !hook.active || hook.failed_in_a_row < DISABLE_AFTER_LOST) return;
  const dropped = await store.webhooks.disable(q, hook.id, now);
  const event = newEvent(EVENTS.WEBHOOK_DISABLED, { webhook: hook.id, url: hook.url, lost: hook.failed_in_a_row, dropped, at: now }, { accountId: hook.account_id, host: null });
  await store.events.append(q, [event], now);
}
