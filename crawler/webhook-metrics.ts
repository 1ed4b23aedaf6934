import { Counter, Histogram, type Registry } from "prom-client";

/** How a webhook attempt ended, for the metrics' label: a small fixed set. */
export type WebhookOutcome = "delivered" | "http_3xx" | "http_4xx" | "http_5xx" | "http_other" | "timeout" | "no_connection" | "blocked";

/** The label of an attempt that got an answer (code > 0) or failed without one (error says how). */
export function webhookOutcomeOf(code: number, error: string): WebhookOutcome {
  if (code >= 200 && code < 300) return "delivered";
  if (code >= 300 && code < 400) return "http_3xx";
  if (code >= 400 && code < 500) return "http_4xx";
  if (code >= 500 && code < 600) return "http_5xx";
  if (code > 0) return "http_other";
  if (error === "timeout") return "timeout";
  if (error === "blocked_private_address") return "blocked";
  return "no_connection";
}

/** The webhook kind's metrics on a crawler node (docs/metrics.md). */
export interface WebhookMetrics {
  /** One attempt: its outcome and how long the receiver took (none when it was never sent). */
  attempt(outcome: WebhookOutcome, seconds: number | null): void;
  /** A delivered attempt of an event: seconds from the event's commit (its `at`) to the receiver's 2xx. */
  delivered(delaySeconds: number): void;
}

export const NO_WEBHOOK_METRICS: WebhookMetrics = { attempt: () => undefined, delivered: () => undefined };

export function webhookMetrics(registry: Registry): WebhookMetrics {
  const attempts = new Counter({
    name: "svc_webhook_attempts_total",
    help: "Webhook delivery attempts this crawler node sent (or refused), by outcome: delivered (2xx), http_3xx/4xx/5xx/other, timeout (8 s), no_connection, blocked (SSRF guard).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "svc_webhook_attempt_duration_seconds",
    help: "Time from sending a webhook attempt to the receiver's answer (or the 8 s timeout).",
    labelNames: ["outcome"],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 10],
    registers: [registry],
  });
  const delay = new Histogram({
    name: "svc_webhook_delivery_delay_seconds",
    help: "Time from an event's commit to the receiver's 2xx for its delivery (whole seconds: events are dated in seconds; retries included).",
    buckets: [1, 2, 5, 10, 30, 60, 300, 1800, 7200, 43_200, 86_400],
    registers: [registry],
  });
  return {
    attempt(outcome, seconds) {
      attempts.inc({ outcome });
      if (seconds !== null) duration.observe({ outcome }, seconds);
    },
    delivered: (s) => delay.observe(s),
  };
}
