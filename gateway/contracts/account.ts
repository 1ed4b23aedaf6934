import { Type } from "@sinclair/typebox";
import { Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

const ScopeName = StringEnum(["read", "run", "write"]);

const PlanObject = Type.Object(
  {
    name: Type.String(),
    sites: Type.Integer(),
    checks_per_day: Type.Integer(),
    rechecks_per_day: Type.Integer(),
    webhooks: Type.Integer(),
    api_keys: Type.Integer(),
    key_rate_per_hour: Type.Integer({ description: "The hourly limits of the account's usable keys add up to at most this (POST /keys answers 429 limit past it)" }),
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
    oauth: Nullable(
      Type.Object(
        {
          grant: Type.Integer({ description: "The grant: one application's sign-in; its refresh token renews this key" }),
          client_id: Type.String(),
          client_name: Type.String(),
          signed_by_key: Nullable(Type.Integer({ description: "The API key whose owner signed in; revoking it ends the grant" })),
        },
        { additionalProperties: false, description: "For kind oauth: the application's grant (null for an API key). DELETE /keys/{id} of this key ends the whole grant" },
      ),
    ),
  },
  { additionalProperties: false },
);

export const getAccount = defineContract({
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
      rate: Type.Object(
        {
          limit_per_hour: Type.Integer(),
          used_this_hour: Type.Integer(),
          keys: Type.Integer({ description: "Extension: the account's usable keys (OAuth grants included), against plan.api_keys" }),
          keys_per_hour: Type.Integer({ description: "Extension: the hourly limits of the account's usable keys added up, against plan.key_rate_per_hour (POST /keys answers 429 limit past it)" }),
        },
        { additionalProperties: false },
      ),
      plan: Nullable(PlanObject),
    },
    { additionalProperties: false },
  ),
});

export const getKeyUsage = defineContract({
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
});

export const createKey = defineContract({
  id: "create_key",
  method: "POST",
  path: "/keys",
  scope: "write",
  cli: "keys create",
  additive: true,
  summary: "Create an API key (shown once)",
  description:
    "The key is returned once and stored only as a hash. A key is never stronger than the key that creates it: no scope it lacks (403 scope), " +
    "no later expiry, no address outside its allowed list and no higher hourly limit (400 bad_param naming the field); a field left out takes the " +
    "creating key's value (expires_in, allowed_ips) or the lower of the service's default and the creating key's limit (rate_limit_per_hour). " +
    "The plan's api_keys number and key_rate_per_hour ceiling (the sum of the hourly limits of the account's usable keys; GET /me shows rate.keys and rate.keys_per_hour against them) apply " +
    "(429 limit without Retry-After: waiting does not help; revoke a key first).",
  tags: ["Keys"],
  status: 201,
  errors: ["limit", "scope", "bad_param"],
  body: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      scopes: Type.Array(ScopeName, { minItems: 1, maxItems: 3, uniqueItems: true }),
      expires_in: Type.Optional(
        StringEnum(["unlimited", "30d", "90d", "1y"], { description: "Left out: unlimited, or the creating key's own expiry when it has one" }),
      ),
      allowed_ips: Type.Optional(
        Type.Array(Type.String({ maxLength: 50 }), {
          maxItems: 50,
          description: "IPv4/IPv6 addresses or CIDR networks; empty means any. Left out or empty under a key with an allowed list: that list",
        }),
      ),
      rate_limit_per_hour: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Defaults to the lower of the service's default (120) and the creating key's limit" })),
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
});

export const listKeys = defineContract({
  id: "list_keys",
  method: "GET",
  path: "/keys",
  scope: "read",
  cli: "keys list",
  additive: true,
  summary: "The account's API keys (never the keys themselves)",
  description:
    "An application's OAuth sign-in (a grant) is listed as its current access key, kind oauth, with the grant in oauth; a refresh replaces that key, and " +
    "the replaced ones are not listed. A grant is never stronger than the API key that signed it (its scopes, allowed addresses, hourly limit and expiry), " +
    "ends when that key is revoked or expires, and counts against the plan's api_keys and key_rate_per_hour like any key.",
  tags: ["Keys"],
  pageMax: 200,
  query: pagedQuery(200, {}),
  response: Type.Object({ keys: Type.Array(KeyView), page: PageEnvelope }, { additionalProperties: false }),
});

export const revokeKey = defineContract({
  id: "revoke_key",
  method: "DELETE",
  path: "/keys/{id}",
  scope: "write",
  cli: "keys revoke",
  additive: true,
  summary: "Revoke an API key at once",
  description:
    "A key (with write scope) may always revoke itself. It may revoke another key of the account only if that key is no stronger than itself (the rule of POST /keys: " +
    "scopes within its own, no later expiry, addresses within its allowed list, no higher hourly limit); otherwise 403 scope. Revoking an API key ends the " +
    "OAuth grants it signed; revoking an OAuth access key ends its whole grant (the application's refresh token too).",
  tags: ["Keys"],
  errors: ["not_found", "scope"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  response: Type.Object({ id: Type.Integer(), revoked: Type.Boolean() }, { additionalProperties: false }),
});
