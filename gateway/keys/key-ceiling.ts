import ipaddr from "ipaddr.js";
import type { Scope } from "../contracts/index.ts";

/** What a key may do, as far as the keys it creates or revokes are concerned. */
export interface KeyPowers {
  readonly scopes: readonly Scope[];
  /** Addresses or CIDR networks; empty means any. */
  readonly allowedIps: readonly string[];
  readonly expiresAt: number | null;
  readonly rateLimitPerHour: number;
}

/** Where `wanted` exceeds `holder`: the body field and why; null when it does not. */
export interface Excess {
  readonly param: "scopes" | "expires_in" | "allowed_ips" | "rate_limit_per_hour";
  readonly reason: string;
}

/**
 * The rule for keys made by keys (POST /keys) and revoked by keys (DELETE /keys/{id}): a key may
 * create, and revoke, only keys no stronger than itself — scopes within its own, expiring no
 * later, usable from no more addresses and with no higher hourly limit. Otherwise a leaked
 * restricted key could mint an unrestricted one, or revoke the owner's keys.
 */
export function excessOver(holder: KeyPowers, wanted: KeyPowers): Excess | null {
  const extra = wanted.scopes.filter((s) => !holder.scopes.includes(s));
  if (extra.length > 0) return { param: "scopes", reason: `scopes the key lacks: ${extra.join(", ")}` };
  if (holder.expiresAt !== null && (wanted.expiresAt === null || wanted.expiresAt > holder.expiresAt)) {
    return { param: "expires_in", reason: `an expiry later than the key's own (${holder.expiresAt})` };
  }
  if (holder.allowedIps.length > 0) {
    const outside = wanted.allowedIps.length === 0 ? "any address" : wanted.allowedIps.find((n) => !holder.allowedIps.some((h) => networkWithin(n, h)));
    if (outside !== undefined) return { param: "allowed_ips", reason: `${outside}, outside the key's allowed addresses` };
  }
  if (wanted.rateLimitPerHour > holder.rateLimitPerHour) {
    return { param: "rate_limit_per_hour", reason: `an hourly limit above the key's own (${holder.rateLimitPerHour})` };
  }
  return null;
}

/** Whether every address of `inner` (address or CIDR) lies in `outer` (address or CIDR). */
export function networkWithin(inner: string, outer: string): boolean {
  const a = asNetwork(inner);
  const b = asNetwork(outer);
  if (!a || !b || a[0].kind() !== b[0].kind()) return false;
  return a[1] >= b[1] && a[0].match(b);
}

function asNetwork(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    if (text.includes("/")) return ipaddr.parseCIDR(text);
    const addr = ipaddr.parse(text);
    return [addr, addr.kind() === "ipv4" ? 32 : 128];
  } catch {
    return null;
  }
}
