import { createHash } from "node:crypto";

/** A weak validator of a representation as seen by one account. */
export function weakEtag(accountScope: string, payload: string | Buffer): string {
  const digest = createHash("sha256").update(accountScope).update("\0").update(payload).digest("base64url");
  return `W/"${digest.slice(0, 27)}"`;
}

/** RFC 9110 weak comparison against an If-None-Match list (or *). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const ours = opaque(etag);
  return header.split(",").some((tag) => opaque(tag) === ours);
}
