import { testNotification, type WebhookEventType } from "../../analyzer/index.ts";
import type { AttemptRow, DeliveryRow, WebhookRow, Repositories } from "../../storage/index.ts";
import { WebhookTask } from "../../proto/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import type { RandomBytes } from "../keys/api-key.ts";
import { hostPolicyOf, normalizeHost } from "../pipeline/host.ts";
import { hourOf } from "../pipeline/rate-headers.ts";
import { implement, type HandlerDeps } from "../registry/operation.ts";
import { page } from "../schemas.ts";

const SECRET_NOTE = "Keep this secret: it is shown only now. Verify X-Svc-Signature-V2 (t=<timestamp>,v1=<HMAC-SHA256 of \"<timestamp>.<body>\">) and drop requests older than 5 minutes.";

/** A signing secret: "whsec_" and 32 random bytes, base64url. */
function newSecret(random: RandomBytes): string {
  return `whsec_${random(32).toString("base64url")}`;
}

function webhookView(w: WebhookRow) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: w.events as WebhookEventType[],
    hosts: w.hosts,
    active: w.active,
    failed_in_a_row: w.failed_in_a_row,
    created: w.created,
    disabled_at: w.disabled_at,
  };
}

function deliveryView(d: DeliveryRow, attempts: readonly AttemptRow[]) {
  return {
    id: d.id,
    event: d.event,
    event_id: d.event_id,
    host: d.host,
    status: d.state,
    code: d.last_code,
    attempts: d.attempts,
    error: d.last_error,
    duration_ms: d.last_duration_ms,
    created: d.created,
    last_attempt_at: d.last_attempt_at,
    next_attempt_at: d.next_attempt_at,
    delivered_at: d.delivered_at,
    test: d.test,
    attempt_log: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => ({ n: a.n, sent_at: a.sent_at, finished: a.finished, code: a.code, error: a.error, duration_ms: a.duration_ms })),
  };
}

/** An address webhooks may be sent to: https, no credentials, a usable host (the same rules as sites; it is resolved and checked again on every send). */
function receiverUrl(deps: HandlerDeps, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError("bad_param", `"${raw}" is not a URL`, { param: "url" });
  }
  if (url.protocol !== "https:") throw new ApiError("bad_param", "a webhook address must be https://", { param: "url" });
  if (url.username || url.password) throw new ApiError("bad_param", "a webhook address carries no credentials; verify the signature instead", { param: "url" });
  const host = normalizeHost(url.host, hostPolicyOf(deps.config));
  if (!host.ok) throw new ApiError("bad_host", `"${url.host}" is not a usable host: ${host.reason}`, { param: "url" });
  url.hash = "";
  return url.toString();
}

async function ownWebhook(repos: Pick<Repositories, "webhooks">, accountId: number, id: number): Promise<WebhookRow> {
  const hook = await repos.webhooks.get(accountId, id);
  if (!hook) throw new ApiError("not_found", `no webhook ${id} in your account`);
  return hook;
}

export const listWebhooks = implement(contracts.listWebhooks, { repos: ["webhooks"] }, async ({ auth, repos, query }) => {
  const { rows, total } = await repos.webhooks.list(auth!.accountId, query.limit, query.offset);
  return { body: { webhooks: rows.map(webhookView), page: page(query.limit, query.offset, total) } };
});

export const addWebhook = implement(contracts.addWebhook, { repos: ["webhooks"] }, async ({ auth, repos, deps, body, now }) => {
  const url = receiverUrl(deps, body.url);
  const hosts = body.hosts.map((h, i) => {
    const res = normalizeHost(h, hostPolicyOf(deps.config));
    if (!res.ok) throw new ApiError("bad_host", `"${h}" is not a usable host: ${res.reason}`, { param: `hosts.${i}` });
    return res.host;
  });
  const secret = newSecret(deps.random);
  const row = await repos.webhooks.createWithinPlan(
    { accountId: auth!.accountId, name: body.name ?? new URL(url).host, url, events: body.events, hosts: [...new Set(hosts)], secret },
    now,
  );
  if (row === "limit") {
    const { resetSeconds } = hourOf(now);
    throw new ApiError("limit", "your plan's number of webhooks is reached; remove one first", { retryAfter: resetSeconds, details: { policy: "webhooks" } });
  }
  const v = webhookView(row);
  return { status: 201, body: { id: v.id, secret, note: SECRET_NOTE, name: v.name, url: v.url, events: v.events, hosts: v.hosts, active: v.active } };
});

export const removeWebhook = implement(contracts.removeWebhook, { repos: ["webhooks"] }, async ({ auth, repos, params }) => {
  // Idempotent like DELETE /sites: a webhook already gone (or never the account's) answers removed false.
  const removed = await repos.webhooks.remove(auth!.accountId, params.id);
  return { body: { id: params.id, removed } };
});

export const rotateWebhookSecret = implement(contracts.rotateWebhookSecret, { repos: ["webhooks"] }, async ({ auth, repos, deps, params }) => {
  const secret = newSecret(deps.random);
  const row = await repos.webhooks.rotateSecret(auth!.accountId, params.id, secret);
  if (!row) throw new ApiError("not_found", `no webhook ${params.id} in your account`);
  return { body: { id: row.id, secret, note: `${SECRET_NOTE} The previous secret no longer signs anything.` } };
});

export const testWebhook = implement(contracts.testWebhook, { repos: ["webhooks"] }, async ({ auth, repos, deps, params, now }) => {
  const accountId = auth!.accountId;
  const hook = await ownWebhook(repos, accountId, params.id);
  const delivery = await repos.webhooks.createTest(hook, testNotification(hook.id, now), now);
  // The task names the delivery and the receiver; the lease fills in the address and secret as they are then.
  const task = { $case: "webhook" as const, value: WebhookTask.fromPartial({ delivery: delivery.id, url: hook.url }) };
  const answer = await deps.scheduler.runSync(accountId, task, { waitMs: deps.config.syncWaitMs });
  if (answer.state === "running") {
    throw new ApiError("not_ready", "the test send is still under way; see the webhook's deliveries", { retryAfter: 3, details: { delivery: delivery.id, job: answer.jobId } });
  }
  if (answer.state === "error") return { body: { ok: false, code: null, error: answer.error, delivery: delivery.id, duration_ms: null } };
  const { code, error, durationMs } = answer.result;
  return { body: { ok: code >= 200 && code < 300, code: code || null, error: error || null, delivery: delivery.id, duration_ms: durationMs } };
});

export const listWebhookDeliveries = implement(contracts.listWebhookDeliveries, { repos: ["webhooks"] }, async ({ auth, repos, params, query }) => {
  await ownWebhook(repos, auth!.accountId, params.id);
  const { rows, total } = await repos.webhooks.deliveries(auth!.accountId, params.id, query.limit, query.offset);
  const attempts = await repos.webhooks.attemptsOf(rows.map((r) => r.id));
  return { body: { total, deliveries: rows.map((r) => deliveryView(r, attempts)), page: page(query.limit, query.offset, total) } };
});

export const resendWebhookDelivery = implement(contracts.resendWebhookDelivery, { repos: ["webhooks"] }, async ({ auth, repos, params, now }) => {
  const out = await repos.webhooks.resend(auth!.accountId, params.id, params.delivery, now);
  if (out === "not_found") throw new ApiError("not_found", `no delivery ${params.delivery} of webhook ${params.id} in your account`);
  if (out === "under_way") throw new ApiError("unsupported", `delivery ${params.delivery} is still under way; only a lost or delivered one is sent again`);
  if (out === "inactive") throw new ApiError("unsupported", `webhook ${params.id} is disabled; a successful test send (POST /webhooks/${params.id}/test) re-activates it`);
  const attempts = await repos.webhooks.attemptsOf([out.id]);
  return { status: 202, body: deliveryView(out, attempts) };
});

export const webhooksHandlers = [listWebhooks, addWebhook, removeWebhook, rotateWebhookSecret, testWebhook, listWebhookDeliveries, resendWebhookDelivery];
