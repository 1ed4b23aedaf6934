import { notificationOf, webhookHostMatches, webhookTypeOf } from "../../analyzer/index.ts";
import { unixSeconds } from "../../runtime/index.ts";
import type { EventRecord, Repositories, RoutedDelivery, Store, WebhookRow } from "../../storage/index.ts";
import { webhookBatches } from "../stream/index.ts";
import { recordAttempt, settleAttempts } from "../webhook-outcome.ts";
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
      n = await store.tx((t) => planFromEvents(t, EVENT_BATCH, now));
      handled += n;
    }
    const passed = await store.webhooks.windowsPassed(now, DISPATCH_BATCH);
    handled += await settleAttempts(store, passed.map((p) => ({ ...p, code: 0, error: "no_answer", durationMs: null, sentAt: null })), now);
    handled += await settleAbandoned(store, DISPATCH_BATCH, now);
    let started = 0;
    for (let n = DISPATCH_BATCH; n === DISPATCH_BATCH; ) {
      // The batches and their outbox rows in a few statements; published at once.
      n = await store.tx(async (t) => {
        const batches = await t.webhooks.takeDueBatches(now, DISPATCH_BATCH, PER_HOOK);
        const planned = webhookBatches(batches, ctx.config.leaseMs, ctx.clock.nowMs());
        const until = planned.flatMap((p) => p.sendingUntil);
        await t.webhooks.markSending(batches.flatMap((b) => b.deliveries).map((d, i) => ({ id: d.id, until: until[i] as number })));
        for (const p of planned) await t.outbox.enqueue(p.message, now);
        return batches.reduce((n, b) => n + b.deliveries.length, 0);
      });
      started += n;
      if (n > 0) ctx.kick();
    }
    return handled + started;
  },
};

/**
 * Follows the event log from the planner's cursor: each event routed to the subscriptions of its
 * account becomes a delivery, written in the unit of work that moves the cursor past it (a crash
 * loses nothing and plans nothing twice; a second planner waits on the cursor). Returns the
 * deliveries written.
 */
async function planFromEvents(t: Pick<Repositories, "webhooks" | "events">, limit: number, now: number): Promise<number> {
  const events = await t.events.after(await t.webhooks.lockCursor(WEBHOOK_EVENTS_CURSOR), limit);
  if (events.length === 0) return 0;
  const hooks = await t.webhooks.activeOf([...new Set(events.flatMap((e) => (e.account_id === null ? [] : [e.account_id])))]);
  const routed: { r: RoutedDelivery; event: EventRecord }[] = [];
  for (const event of events) {
    const mine = hooks.filter((h) => h.account_id === event.account_id);
    if (mine.length > 0) for (const r of routeEvent(event, mine)) routed.push({ r, event });
  }
  const written = await t.webhooks.addDeliveries(routed, now);
  await t.webhooks.moveCursor(WEBHOOK_EVENTS_CURSOR, (events[events.length - 1] as EventRecord).id);
  return written;
}

/** Attempts of the job path whose job ended without a completion: each recorded as its job's error, in one unit of work. */
async function settleAbandoned(store: Pick<Store, "tx">, limit: number, now: number): Promise<number> {
  return store.tx(async (t) => {
    const abandoned = await t.webhooks.lockAbandoned(limit);
    for (const { delivery, job } of abandoned) {
      await recordAttempt(t, delivery, job.id, { code: 0, error: job.error === "attempts_exhausted" ? "no_answer" : job.error, durationMs: null, sentAt: null }, now);
    }
    return abandoned.length;
  });
}
