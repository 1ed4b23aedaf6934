import { StreamItem, TOPICS, WebhookAttempt } from "../../proto/index.ts";
import type { BatchOutcome, DueBatch, PlannedBatch, Store } from "../../storage/index.ts";
import { DELIVERY_TIMEOUT_MS } from "../kinds/webhook.ts";
import { settleAttempts } from "../webhook-outcome.ts";
import type { SchedulerStreamKind } from "./stream-kind.ts";

/** Past a batch's last possible send, how long its result may take to come back (the bus, the writer). */
const RESULT_ALLOWANCE_MS = 5000;

/**
 * The bus messages of due attempts: one StreamItem per webhook (key `webhook:<id>`, on the webhooks
 * topic, sent on the crawler nodes' webhook slots), its attempts in order. Attempt i may start up
 * to `leaseMs` after planning plus i times the timeout (the ones before it may each take that
 * long); the batch's window, after which the planner records a delivery still waiting as
 * no_answer, closes past the last one's timeout.
 */
export function webhookBatches(batches: readonly DueBatch[], leaseMs: number, nowMs: number): PlannedBatch[] {
  return batches.map(({ hook, deliveries }) => {
    const attempts = deliveries.map((d, i) =>
      WebhookAttempt.fromPartial({
        delivery: d.id,
        n: d.attempts + 1,
        event: d.event,
        notificationJson: JSON.stringify(d.notification),
        notAfterMs: nowMs + leaseMs + i * DELIVERY_TIMEOUT_MS,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      }),
    );
    const item = StreamItem.fromPartial({ plannedMs: nowMs, task: { $case: "webhook", value: { webhook: hook.id, url: hook.url, secret: hook.secret, attempts } } });
    const until = Math.ceil((nowMs + leaseMs + deliveries.length * DELIVERY_TIMEOUT_MS + RESULT_ALLOWANCE_MS) / 1000);
    return { message: { topic: TOPICS.webhooks, key: `webhook:${hook.id}`, payload: StreamItem.encode(item).finish() }, sendingUntil: deliveries.map(() => until) };
  });
}

/** Outcomes an attempt never sent (its window was over before a slot took it): recorded as the planner records a window passed. */
const NOT_SENT = "not_sent";

/** A batch's outcomes: recorded in one transaction, each while its delivery still waits for that attempt. */
export const webhookStreamKind: SchedulerStreamKind<"webhook"> = {
  name: "webhook",
  async settle(ctx, store: Pick<Store, "tx">, result) {
    const outcomes: BatchOutcome[] = result.outcomes.map((o) => ({
      delivery: o.delivery,
      n: o.n,
      code: o.code,
      error: o.error === NOT_SENT ? "no_answer" : o.error,
      durationMs: o.error === NOT_SENT ? null : o.durationMs,
      sentAt: o.sentAt || null,
    }));
    await settleAttempts(store, outcomes, ctx.now());
  },
};
