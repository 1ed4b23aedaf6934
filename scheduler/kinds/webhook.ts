import { TOPICS, WebhookResult, WebhookTask } from "../../proto/index.ts";
import { recordAttempt } from "../webhook-outcome.ts";
import type { JobRow } from "../../storage/index.ts";
import { defineKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

/** The spec's limit: a receiver answers 2xx within 8 seconds. */
export const DELIVERY_TIMEOUT_MS = 8000;

/**
 * The ids in a webhook attempt's older job target: "<delivery>/<webhook>@<receiver host>" (a test
 * send named the delivery and the host only: "<delivery>@<host>").
 */
function idsOf(target: string | null): { delivery: number; webhook: number | null } {
  const [delivery = "", webhook] = (target ?? "").split("@", 1)[0]!.split("/");
  const d = Number(delivery);
  const w = webhook === undefined ? null : Number(webhook);
  return { delivery: Number.isSafeInteger(d) ? d : 0, webhook: w !== null && Number.isSafeInteger(w) ? w : null };
}

/** The delivery a job attempts: its task's, or its older target's. */
function deliveryOf(job: JobRow): number {
  return taskOfRow(job, "webhook", (target) => WebhookTask.fromPartial({ delivery: idsOf(target).delivery })).delivery;
}

/**
 * One attempt to deliver a webhook event (docs/webhooks.md). Attempts are planned by the webhooks
 * planner (job lane: one job per attempt, max one attempt, so its lease is what makes an attempt
 * run once) or started by POST /webhooks/{id}/test (sync lane). The lease carries the address and
 * the secret as they are at that moment; the crawler signs and sends. Whatever the receiver
 * answered is a result; a refused address or a crawler fault is a failed job, which the `failed`
 * hook records as the attempt's failure.
 */
export const webhookKind = defineKind({
  name: "webhook",
  uses: ["webhooks", "events"],
  cost: 0,
  // Planned attempts on a topic of their own: crawler nodes send them on the webhook slots (SVC_WORKER_WEBHOOK_CONCURRENCY).
  jobTopic: TOPICS.webhooks,
  // One webhook's deliveries one at a time (in order); other webhooks, even on the same domain, apart.
  // Only an older target names the webhook; a test send (its task names the delivery) is keyed by its receiver's host.
  busKey: (job) => {
    const webhook = idsOf(job.target).webhook;
    return webhook === null ? `webhook:${job.host}` : `webhook:${webhook}`;
  },
  // A test send (the sync lane) names its delivery and the receiver's address.
  hostOf: (task) => new URL(task.url).host,
  // The address and the secret as they are now, not as they were when the job was queued.
  async task(_ctx, repos, job) {
    const found = await repos.webhooks.forAttempt(deliveryOf(job));
    // The webhook was removed meanwhile: an empty address, which the crawler refuses.
    if (!found) return WebhookTask.fromPartial({ delivery: deliveryOf(job) });
    const { delivery, hook } = found;
    return WebhookTask.fromPartial({
      delivery: delivery.id,
      url: hook.url,
      secret: hook.secret,
      event: delivery.event,
      notificationJson: JSON.stringify(delivery.notification),
      timeoutMs: DELIVERY_TIMEOUT_MS,
    });
  },
  async settle(ctx, t, job, result) {
    const delivery = await t.webhooks.sendingFor(deliveryOf(job), job.id);
    if (delivery) {
      const outcome = { code: result.code, error: result.error, durationMs: result.durationMs, sentAt: result.sentAt || null };
      await recordAttempt(t, delivery, job.id, outcome, ctx.now());
    }
    const ok = result.code >= 200 && result.code < 300;
    return { runId: null, result: { delivery: deliveryOf(job), ok, code: result.code || null, error: ok ? null : result.error || `http_${result.code}`, duration_ms: result.durationMs } };
  },
  answer: (doc) => {
    const d = doc as { code: number | null; error: string | null; duration_ms: number };
    return WebhookResult.fromPartial({ code: d.code ?? 0, error: d.error ?? "", durationMs: d.duration_ms });
  },
  async failed(ctx, t, job, failure) {
    const delivery = await t.webhooks.sendingFor(deliveryOf(job), job.id);
    if (!delivery) return;
    await recordAttempt(t, delivery, job.id, { code: 0, error: failure.error, durationMs: null, sentAt: null }, ctx.now());
  },
});
