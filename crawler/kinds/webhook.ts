import { createHmac } from "node:crypto";
import { performance } from "node:perf_hooks";
import { WebhookResult } from "../../proto/index.ts";
import { classifyFetchError } from "../fetch/fetch-errors.ts";
import { NO_WEBHOOK_METRICS, webhookOutcomeOf } from "../webhook-metrics.ts";
import { NonRetryableWorkError } from "../work-errors.ts";
import type { CrawlerKind } from "./kind.ts";

/** The headers that sign a body sent at unix second t: X-Svc-Signature-V2 over "<t>.<body>", the older X-Svc-Signature over the body alone. */
export function signatureHeaders(secret: string, t: number, body: Buffer): Record<string, string> {
  const v1 = createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
  const legacy = createHmac("sha256", secret).update(body).digest("hex");
  return { "x-svc-timestamp": String(t), "x-svc-signature-v2": `t=${t},v1=${v1}`, "x-svc-signature": `sha256=${legacy}` };
}

/** How much of a receiver's answer is read (and thrown away) before the connection is let go. */
const ANSWER_MAX_BYTES = 64 * 1024;

/**
 * One attempt to deliver a webhook event: the address is checked against the egress policy now
 * (https only; its name resolved, and refused when every address is private, loopback,
 * link-local or a metadata address), the body is built and signed with this attempt's timestamp,
 * and it is POSTed through the node's egress, which dials only the validated address. Redirects
 * are not followed (a 3xx is a failure); the attempt gives up after the task's timeout. What the
 * receiver answered, or that it did not, is the result; a refused address fails the job.
 */
export const webhookKind: CrawlerKind<"webhook"> = {
  name: "webhook",
  slots: "webhook",
  async run(task, ctx) {
    const { node } = ctx;
    const metrics = node.webhookMetrics ?? NO_WEBHOOK_METRICS;
    let url: URL;
    try {
      url = new URL(task.url);
    } catch {
      throw new NonRetryableWorkError("webhook_gone", `delivery ${task.delivery}: no address (the webhook was removed)`);
    }
    if (url.protocol !== "https:") throw new NonRetryableWorkError("not_https", `webhook addresses must be https, not ${url.protocol}`);
    // Checked on every send; the dispatcher resolves again when it opens a connection and dials that address.
    await node.egress.resolve(url.hostname).catch((err: unknown) => {
      if ((err as { reason?: string }).reason === "blocked_private_address") metrics.attempt("blocked", null);
      throw err;
    });
    const t = Math.floor(node.clock.nowMs() / 1000);
    const notification = JSON.parse(task.notificationJson || "{}") as Record<string, unknown>;
    const body = Buffer.from(JSON.stringify({ ...notification, event: task.event, delivery: task.delivery, sent_at: t }));
    const headers = {
      "content-type": "application/json; charset=utf-8",
      "user-agent": node.settings.userAgent,
      "x-svc-event": task.event,
      "x-svc-delivery": String(task.delivery),
      ...signatureHeaders(task.secret, t, body),
    };
    const timeoutMs = task.timeoutMs > 0 ? task.timeoutMs : 8000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    const duration = () => Math.round(performance.now() - started);
    try {
      const res = await node.egress.request(url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.any([ctx.signal, deadline]),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      await drain(res.body);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const ms = duration();
      metrics.attempt(webhookOutcomeOf(res.statusCode, ""), ms / 1000);
      const committed = ok ? eventsCommittedAt(notification) : null;
      if (committed !== null) metrics.delivered(Math.max(0, Math.floor(node.clock.nowMs() / 1000) - committed));
      return WebhookResult.fromPartial({ code: res.statusCode, error: ok ? "" : `http_${res.statusCode}`, durationMs: ms, sentAt: t });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const { code } = classifyFetchError(err, deadline.aborted);
      const ms = duration();
      metrics.attempt(webhookOutcomeOf(0, code), code === "blocked_private_address" ? null : ms / 1000);
      if (code === "blocked_private_address") throw (err as { cause?: unknown }).cause ?? err;
      return WebhookResult.fromPartial({ code: 0, error: code, durationMs: ms, sentAt: t });
    }
  },
};

/** When the oldest event of a notification was committed (its `at`, unix seconds); null for a test send. */
function eventsCommittedAt(notification: Record<string, unknown>): number | null {
  const events = Array.isArray(notification.events) ? (notification.events as { at?: unknown }[]) : [];
  const at = events.map((e) => e.at).filter((a): a is number => typeof a === "number");
  return at.length === 0 ? null : Math.min(...at);
}

/** Reads a little of the answer so the connection can be reused, and lets the rest go. */
async function drain(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of body) {
      read += chunk.length;
      if (read > ANSWER_MAX_BYTES) break;
    }
  } catch {
    // The status line is what counts; a body cut short changes nothing.
  } finally {
    body.destroy();
  }
}
