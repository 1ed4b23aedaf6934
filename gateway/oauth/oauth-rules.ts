import { createHash, randomBytes } from "node:crypto";
import type { Scope } from "../contracts/index.ts";

// The rules of OAuth 2.1 this server applies, as pure functions: PKCE S256, redirect URIs, scopes
// and the resource indicator.

export const SCOPE_NAMES: readonly Scope[] = ["read", "run", "write"];
/** An authorization code lives this long (seconds) and is spent by its first use. */
export const CODE_TTL_S = 60;
/** A refresh token lives this long (seconds) unless used (it rotates) or revoked. */
export const REFRESH_TTL_S = 30 * 86_400;

/** An OAuth error as RFC 6749 §5.2 writes it. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** A random token of 256 bits, base64url (codes, refresh tokens, client ids use shorter ones). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Whether a code_challenge is well formed (RFC 7636 §4.2). */
export function validChallenge(challenge: string): boolean {
  return PKCE_VALUE.test(challenge);
}

/** RFC 7636 §4.6, S256: BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!PKCE_VALUE.test(verifier)) return false;
  return createHash("sha256").update(verifier, "ascii").digest("base64url") === challenge;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "[::1]" || hostname === "localhost";
}

/**
 * Whether a redirect URI may be registered: https, http on a loopback host (native apps, RFC 8252
 * §7.3), or a private-use scheme with a dot (com.example.app:/cb, RFC 8252 §7.1); never a fragment.
 */
export function registrableRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash !== "" || uri.includes("#")) return false;
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return isLoopbackHost(url.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
}

/**
 * Exact match against the registered URIs, except that a loopback http URI matches with any port
 * (native clients take an ephemeral one, RFC 8252 §7.3).
 */
export function redirectMatches(uri: string, registered: readonly string[]): boolean {
  if (registered.includes(uri)) return true;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) return false;
  const portless = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((r) => {
    try {
      const reg = new URL(r);
      return reg.protocol === "http:" && portless(reg) === portless(url);
    } catch {
      return false;
    }
  });
}

/** A space-separated scope parameter as scope names; null when it names an unknown scope. */
export function parseScopes(raw: string | undefined, fallback: readonly Scope[]): Scope[] | null {
  if (raw === undefined || raw.trim() === "") return [...fallback];
  const names = raw.trim().split(/\s+/);
  if (!names.every((n) => (SCOPE_NAMES as readonly string[]).includes(n))) return null;
  return SCOPE_NAMES.filter((s) => names.includes(s));
}

/**
 * The resource indicator (RFC 8707) a token is for: the tool server's URL; the issuer and the
 * origin are accepted as naming the same resource server. One trailing slash is forgiven, as
 * clients derive it from URL.href. Absent: the tool server. Null: another resource.
 */
export function resourceOf(raw: string | undefined, urls: { readonly resource: string; readonly issuer: string }): string | null {
  if (raw === undefined || raw === "") return urls.resource;
  const value = raw.endsWith("/") ? raw.slice(0, -1) : raw;
  const origin = new URL(urls.issuer).origin;
  return [urls.resource, urls.issuer, origin].includes(value) ? urls.resource : null;
}

/** Appends query parameters to a redirect URI that may already carry some. */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
