import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors.ts";

const KEY_FORMAT = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The Idempotency-Key of a mutating request, or null. The contract's format is 1-64 of letters,
 * digits, . _ : -; the RFC 8941 string form ("…") of the IETF draft is accepted too.
 */
export function readIdempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers["idempotency-key"];
  if (raw === undefined) return null;
  if (Array.isArray(raw)) throw new ApiError("bad_request", "send one Idempotency-Key header, not several");
  const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!KEY_FORMAT.test(value)) {
    throw new ApiError("bad_param", "Idempotency-Key must be 1-64 characters of letters, digits, '.', '_', ':' or '-'", { param: "Idempotency-Key" });
  }
  return value;
}

/**
 * Bytes up to this size stand in a fingerprint as the base64 text a JSON body carries them in (a
 * form's file part and the JSON body of the same file are the same request); longer ones — only a
 * large upload's, which arrive as bytes either way — as their SHA-256, taken off the serving
 * thread (WebCrypto's digest runs on libuv's pool).
 */
const INLINE_BYTES_MAX = 192 * 1024;

/** Sorted-key JSON: the same request always gives the same text, whatever its key order. */
export function canonicalJson(value: unknown, digests?: ReadonlyMap<ArrayBufferView, string>): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (ArrayBuffer.isView(value)) {
    const digest = digests?.get(value);
    return JSON.stringify(digest !== undefined ? `sha256:${digest}` : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64"));
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, digests)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, digests)}`).join(",")}}`;
}

/** The byte values of a request's body, at any depth. */
function bytesIn(value: unknown, into: ArrayBufferView[] = []): ArrayBufferView[] {
  if (ArrayBuffer.isView(value)) into.push(value);
  else if (value !== null && typeof value === "object") for (const v of Object.values(value)) bytesIn(v, into);
  return into;
}

/**
 * What makes two requests "the same": method, route, path parameters, query and body as sent
 * (taken before validation fills defaults).
 */
export async function fingerprint(method: string, route: string, params: unknown, query: unknown, body: unknown): Promise<string> {
  const digests = new Map<ArrayBufferView, string>();
  await Promise.all(
    bytesIn(body)
      .filter((v) => v.byteLength > INLINE_BYTES_MAX)
      .map(async (v) => digests.set(v, Buffer.from(await crypto.subtle.digest("SHA-256", v)).toString("hex"))),
  );
  return createHash("sha256")
    .update(`${method} ${route}\n${canonicalJson(params)}\n${canonicalJson(query)}\n${canonicalJson(body ?? null, digests)}`)
    .digest("hex");
}
