import { hash } from "node:crypto";

/**
 * A weak validator of a representation as seen by one account: SHA-256 of the scope and the
 * payload, in one call (no hash object per request).
 */
export function weakEtag(accountScope: string, payload: string): string {
  return `W/"${hash("sha256", `${accountScope}\0${payload}`, "base64url").slice(0, 27)}"`;
}

/** RFC 9110 weak comparison against an If-None-Match list (or *). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const ours = opaque(etag);
  return header.split(",").some((tag) => opaque(tag) === ours);
}
