import { notificationOf, webhookHostMatches, webhookTypeOf } from "../../analyzer/index.ts";
import { unixSeconds } from "../../runtime/index.ts";
import type { EventRecord, RoutedDelivery, WebhookRow } from "../../storage/index.ts";
import { webhookTarget } from "../kinds/index.ts";
import { recordOutcome } from "../webhook-outcome.ts";
import type { Planner } from "./planner.ts";

/** The planner's cursor in series_cursors: how far the event log has become deliveries. */
export const WEBHOOK_EVENTS_CURSOR = "webhook_events";
const EVENT_BATCH = 500;
/** Attempts handed out per transaction; a pass goes on while batches are full (bench:webhooks: a burst is not capped at one batch a pass). */
const DISPATCH_BATCH = 500;

/** The deliveries of one event: every subscription of its account that takes its type and host. */
export function routeEvent(event: EventRecord, hooks: readonly WebhookRow[]): RoutedDelivery[] {
  const type = webhookTypeOf(event);
  if (type === null) return [];
  return hooks
    .filter((h) => h.events.includes(type) && webhookHostMatches(h.hosts, event.host))
    .map((webhook) => ({ webhook, event: type, notification: notificationOf(type, event) }));
}

/**
 * Webhook deliveries, in three steps, each one transaction: events after the cursor become
 * deliveries (the cursor moves with them, so a crash loses nothing and plans nothing twice);
 * attempts whose crawler vanished (their job ended without a completion) are recorded as failed;
 * due attempts become jobs with their outbox messages. Returns the deliveries and attempts handled.
 */
export const webhooksPlanner: Planner = {
  name: "webhooks",
  everyMs: (config) => config.webhookPlanMs,
  async run(ctx) {
    const { store } = ctx;
    const now = unixSeconds(ctx.clock);
    // Idle, one read instead of three transactions.
    if (!(await store.webhooks.hasWork(WEBHOOK_EVENTS_CURSOR, now))) return 0;
    let handled = 0;
    for (let n = EVENT_BATCH; n === EVENT_BATCH; ) {
      n = await store.webhooks.planFromEvents(WEBHOOK_EVENTS_CURSOR, EVENT_BATCH, now, routeEvent);
      handled += n;
    }
    handled += await store.webhooks.settleAbandoned(DISPATCH_BATCH, (q, delivery, job) =>
      recordOutcome(store, q, delivery, job.id, { code: 0, error: job.error === "attempts_exhausted" ? "no_answer" : job.error, durationMs: null, sentAt: null }, now),
    );
    let started = 0;
    for (let n = DISPATCH_BATCH; n === DISPATCH_BATCH; ) {
      // The jobs and their outbox rows in a few statements per batch; each batch is published at once.
      n = await store.webhooks.dispatchDue(now, DISPATCH_BATCH, (q, due) =>
        store.jobs.insertQueuedMany(
          q,
          due.map(({ delivery, hook }) => ({ accountId: delivery.account_id, kind: "webhook", host: new URL(hook.url).host, maxAttempts: 1, target: webhookTarget(delivery.id, hook.id, hook.url) })),
          now,
          ctx.message,
        ),
      );
      started += n;
      if (n > 0) ctx.kick();
    }
    return handled + started;
  },
};
