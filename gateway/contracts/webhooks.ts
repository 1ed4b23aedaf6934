import { Type } from "@sinclair/typebox";
import { WEBHOOK_EVENT_TYPES } from "../../analyzer/index.ts";
import { Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

const EventType = StringEnum(WEBHOOK_EVENT_TYPES);
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: "The webhook's id" }) }, { additionalProperties: false });

const WebhookView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    url: Type.String(),
    events: Type.Array(EventType),
    hosts: Type.Array(Type.String()),
    active: Type.Boolean({ description: "false once 15 deliveries in a row were lost; a successful test send re-activates it" }),
    failed_in_a_row: Type.Integer({ description: "Deliveries lost in a row (15 disable the address)" }),
    created: UnixSeconds,
    disabled_at: Nullable(UnixSeconds),
  },
  { additionalProperties: false },
);

const SecretNote = Type.String({ description: "What to do with the secret; in a replay, why it is not repeated" });
const REPLAY_NOTE = "the secret is shown only once; a replay does not repeat it. Issue a new secret with rotate-secret.";

const Attempt = Type.Object(
  {
    n: Type.Integer({ description: "1 for the first attempt" }),
    sent_at: Nullable(UnixSeconds),
    finished: UnixSeconds,
    code: Nullable(Type.Integer({ description: "The receiver's status code; null when no answer came" })),
    error: Nullable(Type.String({ description: "Why the attempt failed: http_<code>, timeout, refused, dns, tls, reset, blocked_private_address, no_answer, …" })),
    duration_ms: Nullable(Type.Integer()),
  },
  { additionalProperties: false },
);

const Delivery = Type.Object(
  {
    id: Type.Integer({ description: "X-Svc-Delivery and the body's delivery: the same on every attempt" }),
    event: Type.String({ description: "The webhook event type (X-Svc-Event), or test" }),
    event_id: Nullable(Type.Integer({ description: "The event's number in GET /events; null for a test send" })),
    host: Nullable(Type.String()),
    status: StringEnum(["pending", "sending", "failing", "delivered", "lost"]),
    code: Nullable(Type.Integer({ description: "The last attempt's response code" })),
    attempts: Type.Integer(),
    error: Nullable(Type.String({ description: "The last attempt's failure" })),
    duration_ms: Nullable(Type.Integer({ description: "The last attempt's duration" })),
    created: UnixSeconds,
    last_attempt_at: Nullable(UnixSeconds),
    next_attempt_at: Nullable(UnixSeconds),
    delivered_at: Nullable(UnixSeconds),
    test: Type.Boolean(),
    attempt_log: Type.Array(Attempt),
  },
  { additionalProperties: false },
);

export const listWebhooks = defineContract({
  id: "list_webhooks",
  method: "GET",
  path: "/webhooks",
  scope: "read",
  cli: "webhooks list",
  summary: "The account's webhooks (never their secrets)",
  tags: ["Webhooks"],
  pageMax: 200,
  query: pagedQuery(200, {}),
  response: Type.Object({ webhooks: Type.Array(WebhookView), page: PageEnvelope }, { additionalProperties: false }),
});

export const addWebhook = defineContract({
  id: "add_webhook",
  method: "POST",
  path: "/webhooks",
  scope: "write",
  cli: "webhooks add",
  summary: "Subscribe an https address to events (the secret is shown once)",
  description:
    "events defaults to every type. hosts limits the subscription to these sites and their subdomains (empty: all the account's events). Each delivery is a POST signed with the secret (docs/webhooks.md: X-Svc-Signature-V2 t=<timestamp>,v1=<HMAC-SHA256 of \"<timestamp>.<body>\">). The plan's webhooks limit applies (429 limit).",
  tags: ["Webhooks"],
  status: 201,
  errors: ["bad_param", "bad_host", "limit"],
  body: Type.Object(
    {
      url: Type.String({ minLength: 9, maxLength: 2000, description: "An https address" }),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Defaults to the address's host" })),
      events: Type.Array(EventType, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true, default: [...WEBHOOK_EVENT_TYPES] }),
      hosts: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 100, uniqueItems: true, default: [], description: "Only these sites (subdomains match); empty: all" }),
    },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      id: Type.Integer(),
      secret: Nullable(Type.String({ description: "The signing secret: shown only in this answer; null in a replay" })),
      note: SecretNote,
      name: Type.String(),
      url: Type.String(),
      events: Type.Array(EventType),
      hosts: Type.Array(Type.String()),
      active: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
  redactForReplay: (body) => ({ ...(body as object), secret: null, note: REPLAY_NOTE }),
});

export const removeWebhook = defineContract({
  id: "remove_webhook",
  method: "DELETE",
  path: "/webhooks/{id}",
  scope: "write",
  cli: "webhooks remove",
  summary: "Remove a webhook and its delivery log",
  description: "Attempts already handed to a crawler finish; nothing is sent after them. removed is false when the account has no such webhook (already removed: the call is idempotent, as DELETE /sites).",
  tags: ["Webhooks"],
  errors: [],
  params: IdParams,
  response: Type.Object({ id: Type.Integer(), removed: Type.Boolean({ description: "false: no such webhook in the account (already removed)" }) }, { additionalProperties: false }),
});

export const rotateWebhookSecret = defineContract({
  id: "rotate_webhook_secret",
  method: "POST",
  path: "/webhooks/{id}/rotate-secret",
  scope: "write",
  cli: "webhooks rotate-secret",
  summary: "Replace a webhook's secret (the old one stops at once; the new one is shown once)",
  description: "Every attempt handed out after this call is signed with the new secret only.",
  tags: ["Webhooks"],
  errors: ["not_found"],
  params: IdParams,
  response: Type.Object(
    { id: Type.Integer(), secret: Nullable(Type.String({ description: "The new secret: shown only in this answer; null in a replay" })), note: SecretNote },
    { additionalProperties: false },
  ),
  redactForReplay: (body) => ({ ...(body as object), secret: null, note: REPLAY_NOTE }),
});

export const testWebhook = defineContract({
  id: "test_webhook",
  method: "POST",
  path: "/webhooks/{id}/test",
  scope: "write",
  cli: "webhooks test",
  summary: "Send a test event now and tell what the receiver answered",
  description:
    "One signed attempt with X-Svc-Event: test, not retried and not counted toward disabling; a 2xx re-activates a disabled webhook. ok is true on a 2xx within 8 seconds; code is the receiver's status (null when none came); delivery is the test's delivery id in GET /webhooks/{id}/deliveries.",
  tags: ["Webhooks"],
  errors: ["not_found", "not_ready"],
  params: IdParams,
  response: Type.Object(
    {
      ok: Type.Boolean(),
      code: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      delivery: Type.Integer(),
      duration_ms: Nullable(Type.Integer()),
    },
    { additionalProperties: false },
  ),
});

export const listWebhookDeliveries = defineContract({
  id: "list_webhook_deliveries",
  method: "GET",
  path: "/webhooks/{id}/deliveries",
  scope: "read",
  cli: "webhooks deliveries",
  summary: "A webhook's recent deliveries, newest first, with every attempt",
  tags: ["Webhooks"],
  errors: ["not_found"],
  pageMax: 100,
  params: IdParams,
  query: pagedQuery(100, {}),
  response: Type.Object({ total: Type.Integer(), deliveries: Type.Array(Delivery), page: PageEnvelope }, { additionalProperties: false }),
});

export const resendWebhookDelivery = defineContract({
  id: "resend_webhook_delivery",
  method: "POST",
  path: "/webhooks/{id}/deliveries/{delivery}/resend",
  scope: "write",
  cli: "webhooks resend",
  additive: true,
  flags: { async: true },
  summary: "Send a lost (or delivered) delivery again, from the first step of the schedule",
  description:
    "The delivery keeps its id (receivers deduplicate by X-Svc-Delivery) and gets a fresh timestamp and signature. 422 unsupported while it is still under way, or while the webhook is disabled (a successful test send re-activates it).",
  tags: ["Webhooks"],
  status: 202,
  errors: ["not_found", "unsupported"],
  params: Type.Object(
    { id: Type.Integer({ minimum: 1, description: "The webhook's id" }), delivery: Type.Integer({ minimum: 1, description: "The delivery's id" }) },
    { additionalProperties: false },
  ),
  response: Delivery,
});
