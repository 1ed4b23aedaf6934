import { isIP } from "node:net";
import type { KeyRow, ListedKey } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { generateKey, hashKey, keyPrefix } from "../keys/api-key.ts";
import { excessOver, type KeyPowers } from "../keys/key-ceiling.ts";
import type { AuthContext } from "../pipeline/auth.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";

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

export const getAccount = implement(contracts.getAccount, { repos: ["accounts"] }, async ({ auth, repos, request, now }) => {
  const a = auth!;
  const [plan, usable] = await Promise.all([repos.accounts.planOfAccount(a.accountId), repos.accounts.usableKeys(a.accountId, now)]);
  return {
    body: {
      user: { id: a.accountId, email: a.email },
      key: { id: a.keyId, name: a.name, prefix: a.prefix, scopes: a.scopes, expires: a.expiresAt, allowed_ips: a.allowedIps, created: a.created },
      rate: { limit_per_hour: a.rateLimitPerHour, used_this_hour: request.svc.rate?.used ?? 0, keys: usable.keys, keys_per_hour: usable.ratePerHour },
      plan: plan
        ? {
            name: plan.name,
            sites: plan.sites,
            checks_per_day: plan.checks_per_day,
            rechecks_per_day: plan.rechecks_per_day,
            webhooks: plan.webhooks,
            api_keys: plan.api_keys,
            key_rate_per_hour: plan.key_rate_per_hour,
          }
        : null,
    },
  };
});

export const getKeyUsage = implement(contracts.getKeyUsage, { repos: ["usage"] }, async ({ auth, repos, deps, query, request }) => {
  // This process's own pending counts are written first, so a caller sees its recent calls.
  await deps.usage.flush().catch(() => undefined);
  const to = new Date(request.svc.nowMs);
  const from = new Date(request.svc.nowMs - (query.days - 1) * 86_400_000);
  const rows = await repos.usage.read([auth!.keyId], from.toISOString().slice(0, 10), to.toISOString().slice(0, 10));
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
});

const EXPIRY_DAYS = { unlimited: null, "30d": 30, "90d": 90, "1y": 365 } as const;

export const createKey = implement(contracts.createKey, { repos: ["accounts"] }, async ({ auth, repos, deps, body, now }) => {
  const a = auth!;
  const missing = body.scopes.filter((s) => !a.scopes.includes(s));
  if (missing.length > 0) throw new ApiError("scope", `your key cannot grant scopes it lacks: ${missing.join(", ")}`, { details: { required: missing } });
  const holder = powersOf(a);
  // Left out, a field takes the creating key's own bound, so a restricted key's keys are restricted alike.
  const allowed = (body.allowed_ips ?? []).map((ip, i) => checkNetwork(ip, `allowed_ips.${i}`));
  const days = body.expires_in === undefined ? undefined : EXPIRY_DAYS[body.expires_in];
  const wanted: KeyPowers = {
    scopes: body.scopes,
    allowedIps: allowed.length === 0 ? holder.allowedIps : allowed,
    expiresAt: days === undefined ? holder.expiresAt : days === null ? null : now + days * 86_400,
    rateLimitPerHour: body.rate_limit_per_hour ?? Math.min(deps.config.ratePerHourDefault, holder.rateLimitPerHour),
  };
  const excess = excessOver(holder, wanted);
  if (excess) throw new ApiError("bad_param", `a key cannot create a stronger key: ${excess.reason}`, { param: excess.param });
  const key = generateKey(deps.random);
  const row = await repos.accounts.insertKeyWithinPlan(
    {
      accountId: a.accountId,
      name: body.name,
      kind: "api",
      prefix: keyPrefix(key),
      hash: hashKey(key),
      scopes: wanted.scopes,
      allowedIps: wanted.allowedIps,
      ratePerHour: wanted.rateLimitPerHour,
      expiresAt: wanted.expiresAt,
    },
    now,
  );
  // Plan limits: no Retry-After, since waiting frees nothing (revoking a key does).
  if (row === "limit") throw new ApiError("limit", "your plan's number of API keys is reached; revoke one first", { details: { policy: "api_keys" } });
  if ("rate" in row) {
    const { ceiling, used } = row.rate;
    throw new ApiError("limit", `your plan allows keys totalling ${ceiling} requests per hour; ${used} are taken by usable keys`, {
      details: { policy: "key_rate_per_hour", ceiling, used },
    });
  }
  const v = keyView(row);
  return {
    status: 201,
    body: { id: v.id, key, name: v.name, prefix: v.prefix, scopes: v.scopes, expires: v.expires, allowed_ips: v.allowed_ips, rate_limit_per_hour: v.rate_limit_per_hour, created: v.created },
  };
});

export const listKeys = implement(contracts.listKeys, { repos: ["accounts"] }, async ({ auth, repos, query }) => {
  const { rows, total } = await repos.accounts.listKeys(auth!.accountId, query.limit, query.offset);
  const view = (k: ListedKey) => ({ ...keyView(k), oauth: k.oauth && { grant: k.oauth.id, client_id: k.oauth.client_id, client_name: k.oauth.client_name, signed_by_key: k.oauth.key_id } });
  return { body: { keys: rows.map(view), page: page(query.limit, query.offset, total) } };
});

export const revokeKey = implement(contracts.revokeKey, { repos: ["accounts"] }, async ({ auth, repos, deps, params, now }) => {
  const a = auth!;
  const target = await repos.accounts.keyOfAccount(a.accountId, params.id);
  if (!target) throw new ApiError("not_found", `no key ${params.id} in your account`);
  if (target.id !== a.keyId) {
    const excess = excessOver(powersOf(a), {
      scopes: target.scopes,
      allowedIps: target.allowed_ips,
      expiresAt: target.expires_at,
      rateLimitPerHour: target.rate_limit_per_hour,
    });
    if (excess) throw new ApiError("scope", `this key may revoke itself and keys no stronger than itself; key ${target.id} has ${excess.reason}`);
  }
  const row = await repos.accounts.revokeKey(a.accountId, params.id, now);
  if (!row) throw new ApiError("not_found", `no key ${params.id} in your account`);
  for (const id of [row.id, ...row.alsoRevoked]) deps.keys.onChange(`key:${id}`);
  return { body: { id: row.id, revoked: true } };
});

function powersOf(a: AuthContext): KeyPowers {
  return { scopes: a.scopes, allowedIps: a.allowedIps, expiresAt: a.expiresAt, rateLimitPerHour: a.rateLimitPerHour };
}

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

export const accountHandlers = [getAccount, getKeyUsage, createKey, listKeys, revokeKey];
