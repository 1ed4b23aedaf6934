import { isIP } from "node:net";
import { Type } from "@sinclair/typebox";
import { ApiError } from "../errors.ts";
import { generateKey, hashKey, keyPrefix } from "../keys.ts";
import { defineOperation } from "../registry/operation.ts";
import { Nullable, PageEnvelope, StringEnum, UnixSeconds, page, pagedQuery } from "../schemas.ts";
import type { KeyRow } from "../../storage/index.ts";
import { hourOf } from "../pipeline/rate-headers.ts";

const ScopeName = StringEnum(["read", "run", "write"]);

const PlanObject = Type.Object(
  {
    name: Type.String(),
    sites: Type.Integer(),
    checks_per_day: Type.Integer(),
    rechecks_per_day: Type.Integer(),
    webhooks: Type.Integer(),
    api_keys: Type.Integer(),
  },
  { additionalProperties: false },
);

const KeyView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    kind: StringEnum(["api", "oauth"]),
    prefix: Type.String({ description: "Leading characters of the key" }),
    scopes: Type.Array(ScopeName),
    expires: Nullable(UnixSeconds),
    allowed_ips: Type.Array(Type.String(), { description: "IPv4/IPv6 addresses or CIDR networks; empty means any" }),
    rate_limit_per_hour: Type.Integer(),
    created: UnixSeconds,
    revoked: Nullable(UnixSeconds),
  },
  { additionalProperties: false },
);

function keyView(k: KeyRow) {
  return {
    id: k.id,
    name: k.name,
    kind: k.kind,
    prefix: k.prefix,
    scopes: k.scopes,
    expires: k.expires_at,
    allowed_ips: k.allowed_ips,
    rate_limit_per_hour: k.rate_limit_per_hour,
    created: k.created,
    revoked: k.revoked_at,
  };
}

export const getAccount = defineOperation({
  id: "get_account",
  method: "GET",
  path: "/me",
  scope: "read",
  cli: "me",
  summary: "The calling key, its account, hourly usage and plan",
  tags: ["Service"],
  response: Type.Object(
    {
      user: Type.Object({ id: Type.Integer(), email: Type.String() }, { additionalProperties: false }),
      key: Type.Object(
        {
          id: Type.Integer(),
          name: Type.String(),
          prefix: Type.String(),
          scopes: Type.Array(ScopeName),
          expires: Nullable(UnixSeconds),
          allowed_ips: Type.Array(Type.String()),
          created: UnixSeconds,
        },
        { additionalProperties: false },
      ),
      rate: Type.Object({ limit_per_hour: Type.Integer(), used_this_hour: Type.Integer() }, { additionalProperties: false }),
      plan: Nullable(PlanObject),
    },
    { additionalProperties: false },
  ),
  handler: async ({ auth, deps, request }) => {
    const a = auth!;
    const plan = await deps.store.accounts.planOfAccount(a.accountId);
    return {
      body: {
        user: { id: a.accountId, email: a.email },
        key: { id: a.keyId, name: a.name, prefix: a.prefix, scopes: a.scopes, expires: a.expiresAt, allowed_ips: a.allowedIps, created: a.created },
        rate: { limit_per_hour: a.rateLimitPerHour, used_this_hour: request.svc.rate?.used ?? 0 },
        plan: plan
          ? { name: plan.name, sites: plan.sites, checks_per_day: plan.checks_per_day, rechecks_per_day: plan.rechecks_per_day, webhooks: plan.webhooks, api_keys: plan.api_keys }
          : null,
      },
    };
  },
});

export const getKeyUsage = defineOperation({
  id: "get_key_usage",
  method: "GET",
  path: "/usage",
  scope: "read",
  cli: "usage",
  summary: "Calls, errors and limited calls of the calling key per UTC day",
  description: "Counts are flushed from each gateway at least every 10 s; a crash may lose up to that much.",
  tags: ["Service"],
  query: Type.Object(
    { days: Type.Integer({ minimum: 1, maximum: 90, default: 30, description: "Days back, including today (1-90)" }) },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      days: Type.Integer(),
      total: Type.Integer({ description: "Calls over the whole window" }),
      errors: Type.Integer({ description: "Answers with status 400 or above (limited calls excluded)" }),
      limited: Type.Integer(),
      usage: Type.Array(
        Type.Object(
          { day: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" }), calls: Type.Integer(), errors: Type.Integer(), limited: Type.Integer() },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  handler: async ({ auth, deps, query, request }) => {
    // This process's own pending counts are written first, so a caller sees its recent calls.
    await deps.usage.flush().catch(() => undefined);
    const to = new Date(request.svc.nowMs);
    const from = new Date(request.svc.nowMs - (query.days - 1) * 86_400_000);
    const rows = await deps.store.usage.read([auth!.keyId], from.toISOString().slice(0, 10), to.toISOString().slice(0, 10));
    const sum = (f: "calls" | "errors" | "limited") => rows.reduce((n, r) => n + Number(r[f]), 0);
    return {
      body: {
        days: query.days,
        total: sum("calls"),
        errors: sum("errors"),
        limited: sum("limited"),
        usage: rows.map((r) => ({ day: r.day, calls: Number(r.calls), errors: Number(r.errors), limited: Number(r.limited) })),
      },
    };
  },
});

const EXPIRY_DAYS = { unlimited: null, "30d": 30, "90d": 90, "1y": 365 } as const;

export const createKey = defineOperation({
  id: "create_key",
  method: "POST",
  path: "/keys",
  scope: "write",
  cli: "keys create",
  additive: true,
  summary: "Create an API key (shown once)",
  description:
    "The key is returned once and stored only as a hash. A key can never hold scopes its creator's key lacks. The plan's api_keys limit applies (429 limit).",
  tags: ["Keys"],
  status: 201,
  errors: ["limit"],
  body: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      scopes: Type.Array(ScopeName, { minItems: 1, maxItems: 3, uniqueItems: true }),
      expires_in: StringEnum(["unlimited", "30d", "90d", "1y"], { default: "unlimited" }),
      allowed_ips: Type.Array(Type.String({ maxLength: 50 }), { maxItems: 50, default: [], description: "IPv4/IPv6 addresses or CIDR networks; empty means any" }),
      rate_limit_per_hour: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Defaults to the service's default (120)" })),
    },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      id: Type.Integer(),
      key: Nullable(Type.String({ description: "The key itself: shown only in this answer; null in a replay" })),
      note: Type.Optional(Type.String({ description: "Present in a replay: why the key is not repeated" })),
      name: Type.String(),
      prefix: Type.String(),
      scopes: Type.Array(ScopeName),
      expires: Nullable(UnixSeconds),
      allowed_ips: Type.Array(Type.String()),
      rate_limit_per_hour: Type.Integer(),
      created: UnixSeconds,
    },
    { additionalProperties: false },
  ),
  redactForReplay: (body) => ({
    ...(body as object),
    key: null,
    note: "the key is shown only once; a replay does not repeat it. Revoke this key and create another if it was lost.",
  }),
  handler: async ({ auth, deps, body, now }) => {
    const a = auth!;
    const missing = body.scopes.filter((s) => !a.scopes.includes(s));
    if (missing.length > 0) throw new ApiError("scope", `your key cannot grant scopes it lacks: ${missing.join(", ")}`, { details: { required: missing } });
    const allowed = body.allowed_ips.map((ip, i) => checkNetwork(ip, `allowed_ips.${i}`));
    const days = EXPIRY_DAYS[body.expires_in];
    const key = generateKey(deps.random);
    const row = await deps.store.accounts.insertKeyWithinPlan(
      {
        accountId: a.accountId,
        name: body.name,
        kind: "api",
        prefix: keyPrefix(key),
        hash: hashKey(key),
        scopes: body.scopes,
        allowedIps: allowed,
        ratePerHour: body.rate_limit_per_hour ?? deps.config.ratePerHourDefault,
        expiresAt: days === null ? null : now + days * 86_400,
      },
      now,
    );
    if (row === "limit") {
      const { resetSeconds } = hourOf(now);
      throw new ApiError("limit", "your plan's number of API keys is reached; revoke one first", { retryAfter: resetSeconds, details: { policy: "api_keys" } });
    }
    const v = keyView(row);
    return {
      status: 201,
      body: { id: v.id, key, name: v.name, prefix: v.prefix, scopes: v.scopes, expires: v.expires, allowed_ips: v.allowed_ips, rate_limit_per_hour: v.rate_limit_per_hour, created: v.created },
    };
  },
});

export const listKeys = defineOperation({
  id: "list_keys",
  method: "GET",
  path: "/keys",
  scope: "read",
  cli: "keys list",
  additive: true,
  summary: "The account's API keys (never the keys themselves)",
  tags: ["Keys"],
  pageMax: 200,
  query: pagedQuery(200, {}),
  response: Type.Object({ keys: Type.Array(KeyView), page: PageEnvelope }, { additionalProperties: false }),
  handler: async ({ auth, deps, query }) => {
    const { rows, total } = await deps.store.accounts.listKeys(auth!.accountId, query.limit, query.offset);
    return { body: { keys: rows.map(keyView), page: page(query.limit, query.offset, total) } };
  },
});

export const revokeKey = defineOperation({
  id: "revoke_key",
  method: "DELETE",
  path: "/keys/{id}",
  scope: "write",
  cli: "keys revoke",
  additive: true,
  summary: "Revoke an API key at once",
  tags: ["Keys"],
  errors: ["not_found"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  response: Type.Object({ id: Type.Integer(), revoked: Type.Boolean() }, { additionalProperties: false }),
  handler: async ({ auth, deps, params, now }) => {
    const row = await deps.store.accounts.revokeKey(auth!.accountId, params.id, now);
    if (!row) throw new ApiError("not_found", `no key ${params.id} in your account`);
    deps.keys.onChange(`key:${row.id}`);
    return { body: { id: row.id, revoked: true } };
  },
});

/** Validates one allowlist entry: an IPv4/IPv6 address or CIDR network. */
function checkNetwork(text: string, param: string): string {
  const [ip = "", bits, extra] = text.trim().split("/");
  const family = isIP(ip);
  const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
  if (family === 0 || !bitsOk || extra !== undefined) {
    throw new ApiError("bad_param", `"${text}" is not an IPv4/IPv6 address or CIDR network`, { param });
  }
  return text.trim();
}
