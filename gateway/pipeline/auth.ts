import type { FastifyRequest } from "fastify";
import ipaddr from "ipaddr.js";
import { ApiError } from "../errors.ts";
import type { GatewayDeps } from "../deps.ts";
import { hashKey } from "../keys/api-key.ts";
import type { KeyRecord } from "../../storage/index.ts";
import type { Scope } from "../contracts/index.ts";
import { hourOf, type RateState } from "./rate-headers.ts";
import type { QuotaTake } from "./quota.ts";

/** The caller of a keyed request, after every check passed. */
/** The gateway's parts authentication reads: the key cache, the hourly windows, the switches and the config. */
export type AuthDeps = Pick<GatewayDeps, "config" | "keys" | "quota" | "switches">;

export interface AuthContext {
  readonly keyId: number;
  readonly accountId: number;
  readonly email: string;
  readonly name: string;
  readonly kind: "api" | "oauth";
  readonly prefix: string;
  readonly scopes: readonly Scope[];
  readonly allowedIps: readonly string[];
  readonly rateLimitPerHour: number;
  readonly created: number;
  readonly expiresAt: number | null;
  readonly isAdmin: boolean;
}

export interface AuthOutcome {
  readonly auth: AuthContext | null;
  readonly rate: RateState;
  readonly error: ApiError | null;
}

/** The key of a request: X-Api-Key, or Authorization: Bearer. */
export function readKey(request: FastifyRequest): string | null {
  const header = request.headers["x-api-key"];
  if (typeof header === "string" && header.trim() !== "") return header.trim();
  const authz = request.headers.authorization;
  if (typeof authz === "string") {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
    if (m) return m[1] as string;
  }
  return null;
}

/** Counts a request against its client address (keyless routes and failed authentication). */
export async function countAddress(deps: AuthDeps, address: string, now: number): Promise<{ rate: RateState; over: boolean }> {
  const { hour, resetSeconds } = hourOf(now);
  const subject = `a:${address}`;
  const limit = deps.config.addressRatePerHour;
  const taken = await deps.quota.take(subject, hour, limit);
  return { rate: { subject, hour, limit, used: taken.used, counted: taken.admitted, resetSeconds }, over: !taken.admitted };
}

/**
 * Authenticates a keyed request and counts it against the key's hour. Never throws for a caller's
 * mistake: the error to answer with comes back with the rate state its headers report. scope null
 * accepts any scope; count false leaves the hour alone (the MCP envelope, whose tool calls each
 * pass this again as REST requests and are counted there).
 *
 * A known key (cached) with units left in this process's block is answered without a promise:
 * that is nearly every keyed request, and each promise on this path costs the turn of a microtask.
 */
export function authenticate(
  deps: AuthDeps,
  request: FastifyRequest,
  address: string,
  scope: Scope | null,
  now: number,
  options: { readonly count?: boolean } = {},
): AuthOutcome | Promise<AuthOutcome> {
  const key = readKey(request);
  if (key === null) return addressFailure(deps, address, now, new ApiError("missing", "send your API key in the X-Api-Key header or as Authorization: Bearer <key>"));
  const hash = hashKey(key);
  const cached = deps.keys.peek(hash);
  if (cached !== undefined) return admit(deps, cached, address, scope, now, options);
  return deps.keys.get(hash).then((row) =>
    row === null ? addressFailure(deps, address, now, new ApiError("invalid", "this API key is not known")) : admit(deps, row, address, scope, now, options),
  );
}

/** The checks of a known key, then its hourly window. */
function admit(deps: AuthDeps, row: KeyRecord, address: string, scope: Scope | null, now: number, options: { readonly count?: boolean }): AuthOutcome | Promise<AuthOutcome> {
  if (row.revoked_at !== null) return addressFailure(deps, address, now, new ApiError("revoked", "this API key was revoked"));
  if (row.expires_at !== null && row.expires_at <= now) return addressFailure(deps, address, now, new ApiError("expired", "this API key has expired"));

  const { hour, resetSeconds } = hourOf(now);
  // A grant's tokens share one window, or a refresh would buy a fresh hour.
  const subject = row.oauth_grant_id === null ? `k:${row.key_id}` : `g:${row.oauth_grant_id}`;
  const auth: AuthContext = {
    keyId: row.key_id,
    accountId: row.account_id,
    email: row.email,
    name: row.name,
    kind: row.kind,
    prefix: row.prefix,
    scopes: row.scopes,
    allowedIps: row.allowed_ips,
    rateLimitPerHour: row.rate_limit_per_hour,
    created: row.created,
    expiresAt: row.expires_at,
    isAdmin: row.is_admin,
  };
  // Refusals of a known key report its window without counting against it.
  const uncounted = (): RateState => ({ subject, hour, limit: row.rate_limit_per_hour, used: deps.quota.used(subject, hour) ?? 0, counted: false, resetSeconds });
  const fail = (error: ApiError, rate: RateState = uncounted()): AuthOutcome => ({ auth, rate, error });
  if (!addressAllowed(address, row.allowed_ips)) return fail(new ApiError("ip", `requests from ${address} are not allowed for this key`, { details: { address } }));
  if (row.blocked) return fail(new ApiError("blocked", "this account is blocked; contact the operator"));
  if (scope !== null && !row.scopes.includes(scope)) return fail(new ApiError("scope", `this operation needs the ${scope} scope`, { details: { required: scope } }));
  if (deps.switches.closed && !row.is_admin) return fail(new ApiError("closed", "the service is closed for testing; administrators only", { retryAfter: 60 }));
  if (options.count === false) return { auth, rate: uncounted(), error: null };
  const counted = (taken: QuotaTake): AuthOutcome => {
    const rate: RateState = { subject, hour, limit: row.rate_limit_per_hour, used: taken.used, counted: taken.admitted, resetSeconds };
    if (!taken.admitted) {
      return fail(new ApiError("limit", `hourly limit of ${row.rate_limit_per_hour} requests reached`, { retryAfter: resetSeconds, details: { policy: "hour" } }), rate);
    }
    return { auth, rate, error: null };
  };
  const taken = deps.quota.takeNow(subject, hour, row.rate_limit_per_hour);
  return taken === null ? deps.quota.take(subject, hour, row.rate_limit_per_hour).then(counted) : counted(taken);
}

async function addressFailure(deps: AuthDeps, address: string, now: number, error: ApiError): Promise<AuthOutcome> {
  const { rate, over } = await countAddress(deps, address, now);
  if (over) {
    return { auth: null, rate, error: new ApiError("limit", "too many requests from this address", { retryAfter: rate.resetSeconds, details: { policy: "address" } }) };
  }
  return { auth: null, rate, error };
}

/** Whether address is in the key's allowlist (empty: any address). */
export function addressAllowed(address: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address);
  } catch {
    return false;
  }
  return allowed.some((entry) => {
    try {
      const [net, bits] = entry.includes("/") ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), ip.kind() === "ipv4" ? 32 : 128];
      return net.kind() === ip.kind() && ip.match(net, bits);
    } catch {
      return false;
    }
  });
}
