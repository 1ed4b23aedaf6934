import { createHmac } from "node:crypto";
import { performance } from "node:perf_hooks";
import { WebhookResult } from "../../proto/index.ts";
import { classifyFetchError } from "../fetch/fetch-errors.ts";
import { NO_WEBHOOK_METRICS, webhookOutcomeOf } from "../webhook-metrics.ts";
import { NonRetryableWorkError } from "../work-errors.ts";
import type { CrawlerNode } from "../node.ts";
import type { CrawlerKind } from "./kind.ts";

/** The headers that sign a body sent at unix second t: X-Svc-Signature-V2 over "<t>.<body>", the older X-Svc-Signature over the body alone. */
export function signatureHeaders(secret: string, t: number, body: Buffer): Record<string, string> {
  const v1 = createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
  const legacy = createHmac("sha256", secret).update(body).digest("hex");
  return { "x-svc-timestamp": String(t), "x-svc-signature-v2": `t=${t},v1=${v1}`, "x-svc-signature": `sha256=${legacy}` };
}

/** How much of a receiver's answer is read (and thrown away) before the connection is let go. */
const ANSWER_MAX_BYTES = 64 * 1024;

/** One attempt as a crawler node sends it: what the body and the headers are made of. */
export interface SignedSend {
  readonly delivery: number;
  readonly event: string;
  readonly secret: string;
  readonly notificationJson: string;
  readonly timeoutMs: number;
}

/** What the receiver answered (code 0: no answer, with the reason in error), and when it was signed. */
export interface SendOutcome {
  readonly code: number;
  readonly error: string;
  readonly durationMs: number;
  readonly sentAt: number;
}

/**
 * Checks a webhook address before sending to it: https only, its name resolved and refused when
 * every address is private, loopback, link-local or a metadata address (EgressBlockedError, counted
 * as a blocked attempt). The dispatcher resolves again when it opens a connection and dials that
 * address, so a connection kept alive was checked when it was opened.
 */
export async function checkWebhookAddress(node: CrawlerNode, address: string, delivery: number): Promise<URL> {
  const metrics = node.webhookMetrics ?? NO_WEBHOOK_METRICS;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new NonRetryableWorkError("webhook_gone", `delivery ${delivery}: no address (the webhook was removed)`);
  }
  if (url.protocol !== "https:") throw new NonRetryableWorkError("not_https", `webhook addresses must be https, not ${url.protocol}`);
  await node.egress.resolve(url.hostname).catch((err: unknown) => {
    if ((err as { reason?: string }).reason === "blocked_private_address") metrics.attempt("blocked", null);
    throw err;
  });
  return url;
}

/**
 * Builds the body of one attempt, signs it with this attempt's timestamp and POSTs it through the
 * node's egress (its keep-alive pool; every connection it opens is dialled to a validated
 * address). Redirects are not followed (a 3xx is a failure); the attempt gives up after its
 * timeout. What the receiver answered, or that it did not, is the outcome; an address the egress
 * refuses when it connects throws.
 */
export async function sendSigned(node: CrawlerNode, url: URL, send: SignedSend, signal?: AbortSignal): Promise<SendOutcome> {
  const metrics = node.webhookMetrics ?? NO_WEBHOOK_METRICS;
  const t = Math.floor(node.clock.nowMs() / 1000);
  const notification = JSON.parse(send.notificationJson || "{}") as Record<string, unknown>;
  const body = Buffer.from(JSON.stringify({ ...notification, event: send.event, delivery: send.delivery, sent_at: t }));
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "user-agent": node.settings.userAgent,
    "x-svc-event": send.event,
    "x-svc-delivery": String(send.delivery),
    ...signatureHeaders(send.secret, t, body),
  };
  const timeoutMs = send.timeoutMs > 0 ? send.timeoutMs : 8000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  try {
    const res = await node.egress.request(url, {
      method: "POST",
      headers,
      body,
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await drain(res.body);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const ms = duration();
    metrics.attempt(webhookOutcomeOf(res.statusCode, ""), ms / 1000);
    const committed = ok ? eventsCommittedAt(notification) : null;
    if (committed !== null) metrics.delivered(Math.max(0, Math.floor(node.clock.nowMs() / 1000) - committed));
    return { code: res.statusCode, error: ok ? "" : `http_${res.statusCode}`, durationMs: ms, sentAt: t };
  } catch (err) {
    if (signal?.aborted) throw err;
    const { code } = classifyFetchError(err, deadline.aborted);
    const ms = duration();
    metrics.attempt(webhookOutcomeOf(0, code), code === "blocked_private_address" ? null : ms / 1000);
    if (code === "blocked_private_address") throw (err as { cause?: unknown }).cause ?? err;
    return { code: 0, error: code, durationMs: ms, sentAt: t };
  }
}

/**
 * A test send (POST /webhooks/{id}/test, sync lane), or an attempt planned as a job by an older
 * scheduler: the address checked now, the body signed and POSTed. What the receiver answered, or
 * that it did not, is the result; a refused address fails the job. Planned attempts travel in
 * batches on the stream lane (crawler/stream/webhook.ts).
 */
export const webhookKind: CrawlerKind<"webhook"> = {
  name: "webhook",
  slots: "webhook",
  async run(task, ctx) {
    const url = await checkWebhookAddress(ctx.node, task.url, task.delivery);
    return WebhookResult.fromPartial(await sendSigned(ctx.node, url, task, ctx.signal));
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
