import { notificationOf, webhookHostMatches, webhookTypeOf } from "../../analyzer/index.ts";
import { unixSeconds } from "../../runtime/index.ts";
import type { EventRecord, RoutedDelivery, WebhookRow } from "../../storage/index.ts";
import { webhookBatches } from "../stream/index.ts";
import { recordOutcome, settleAttempts } from "../webhook-outcome.ts";
import type { Planner } from "./planner.ts";

/** The planner's cursor in series_cursors: how far the event log has become deliveries. */
export const WEBHOOK_EVENTS_CURSOR = "webhook_events";
const EVENT_BATCH = 500;
/** Attempts handed out per transaction; a pass goes on while they are full (bench:webhooks: a burst is not capped at one transaction a pass). */
const DISPATCH_BATCH = 500;
/** Attempts of one webhook in one batch (one bus message, sent one after another by one crawler slot). */
const PER_HOOK = 100;

/** The deliveries of one event: every subscription of its account that takes its type and host. */
export function routeEvent(event: EventRecord, hooks: readonly WebhookRow[]): RoutedDelivery[] {
  const type = webhookTypeOf(event);
  if (type === null) return [];
  return hooks
    .filter((h) => h.events.includes(type) && webhookHostMatches(h.hosts, event.host))
    .map((webhook) => ({ webhook, event: type, notification: notificationOf(type, event) }));
}

/**
 * Webhook deliveries, in steps, each one transaction: events after the cursor become deliveries
 * (the cursor moves with them, so a crash loses nothing and plans nothing twice); attempts whose
 * batch's window passed without a result (their crawler node died, the batch was lost) are
 * recorded as failed (no_answer), as are attempts of the former job path whose job ended without
 * a completion; due attempts go out in batches, one per webhook, through the outbox (stream lane:
 * no job row per attempt). Returns the deliveries and attempts handled.
 */
export const webhooksPlanner: Planner = {
  name: "webhooks",
  everyMs: (config) => config.webhookPlanMs,
  async run(ctx) {
    const { store } = ctx;
    const now = unixSeconds(ctx.clock);
    // Idle, one read instead of four transactions.
    if (!(await store.webhooks.hasWork(WEBHOOK_EVENTS_CURSOR, now))) return 0;
    let handled = 0;
    for (let n = EVENT_BATCH; n === EVENT_BATCH; ) {
      n = await store.webhooks.planFromEvents(WEBHOOK_EVENTS_CURSOR, EVENT_BATCH, now, routeEvent);
      handled += n;
    }
    const passed = await store.webhooks.windowsPassed(now, DISPATCH_BATCH);
    handled += await settleAttempts(store, passed.map((p) => ({ ...p, code: 0, error: "no_answer", durationMs: null, sentAt: null })), now);
    handled += await store.webhooks.settleAbandoned(DISPATCH_BATCH, (q, delivery, job) =>
      recordOutcome(store, q, delivery, job.id, { code: 0, error: job.error === "attempts_exhausted" ? "no_answer" : job.error, durationMs: null, sentAt: null }, now),
    );
    let started = 0;
    for (let n = DISPATCH_BATCH; n === DISPATCH_BATCH; ) {
      // The batches and their outbox rows in a few statements; published at once.
      n = await store.webhooks.dispatchBatches(now, DISPATCH_BATCH, PER_HOOK, (batches) => webhookBatches(batches, ctx.config.leaseMs, ctx.clock.nowMs()));
      started += n;
      if (n > 0) ctx.kick();
    }
    return handled + started;
  },
};
