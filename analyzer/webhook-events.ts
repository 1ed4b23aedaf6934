// Which of Svc's events a webhook receives, and what it receives: the one table from the event
// log's types to the spec's webhook event types (docs/webhooks.md prints it), and the notification
// an event becomes. Pure data and functions: the scheduler's planner routes with them, the
// contracts list the types.

/** The event types a webhook can subscribe to (the spec's list, in its order). */
export const WEBHOOK_EVENT_TYPES = ["events", "uptime", "watchdog", "page", "crawl", "rank", "security", "digest"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event type of a test send (POST /webhooks/{id}/test); no subscription is needed for it. */
export const WEBHOOK_TEST_EVENT = "test";

/** An event of the log, as much of it as routing needs. */
export interface LoggedEvent {
  readonly id: number;
  readonly host: string | null;
  /** The event's webhook type (the log stores the spec's types). */
  readonly type: string;
  /** What happened within the type: analysis.done, check.done, task.new, site.down, … */
  readonly kind: string;
  readonly text: string;
  readonly level: string;
  readonly payload: Record<string, unknown>;
  readonly created: number;
}

/**
 * The webhook event type of a logged event, or null when no webhook receives it. The log stores
 * each event under the spec's type already (docs/monitoring.md has the table); what no webhook
 * receives are the ends of live checks other than a page's (TLS, DNS: answers to their callers)
 * and of webhook attempts themselves, whose job events are of kind check.*.
 */
export function webhookTypeOf(event: LoggedEvent): WebhookEventType | null {
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type)) return null;
  if (event.kind.startsWith("check.") && event.type !== "page") return null;
  return event.type as WebhookEventType;
}

/**
 * Whether a subscription's hosts take an event's host: none listed takes all; a listed host takes
 * itself and its subdomains, on any port unless it names one.
 */
export function hostMatches(hosts: readonly string[], host: string | null): boolean {
  if (hosts.length === 0) return true;
  if (host === null) return false;
  const name = host.replace(/:\d+$/, "");
  return hosts.some((h) => host === h || name === h || name.endsWith(`.${h}`) || host.endsWith(`.${h}`));
}

/** One event as a notification lists it. */
export interface NotifiedEvent {
  readonly id: number;
  readonly type: string;
  readonly kind: string;
  readonly level: string;
  readonly text: string;
  /** When the event happened (Unix seconds): the event feed's name for it (GET /events). */
  readonly created: number;
  /** The same time under its first name, kept for receivers written against it. */
  readonly at: number;
  readonly data: Record<string, unknown>;
}

/** The notification of one event: type, host and events[] with text; the body adds event, delivery and sent_at. */
export interface Notification {
  readonly type: string;
  readonly host: string | null;
  readonly events: NotifiedEvent[];
}

export function notificationOf(type: string, event: LoggedEvent): Notification {
  return {
    type,
    host: event.host,
    events: [{ id: event.id, type: event.type, kind: event.kind, level: event.level, text: textOf(event), created: event.created, at: event.created, data: event.payload }],
  };
}

/** A person's sentence for an event: the one its descriptor wrote (analyzer/events/catalogue.ts). */
function textOf(e: LoggedEvent): string {
  return e.text || `${e.kind} on ${e.host ?? "your account"}`;
}

/** The notification of a test send. */
export function testNotification(webhookId: number, at: number): Notification {
  return {
    type: WEBHOOK_TEST_EVENT,
    host: null,
    events: [{ id: 0, type: WEBHOOK_TEST_EVENT, kind: "webhook.test", level: "info", text: `Test event for webhook ${webhookId}`, created: at, at, data: { webhook: webhookId } }],
  };
}
