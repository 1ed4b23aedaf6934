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

/** Sorted-key JSON: the same request always gives the same text, whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  // Bytes (a form's file part) stand as the base64 text a JSON body carries: the same request either way.
  if (ArrayBuffer.isView(value)) return JSON.stringify(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64"));
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * What makes two requests "the same": method, route, path parameters, query and body as sent
 * (taken before validation fills defaults).
 */
export function fingerprint(method: string, route: string, params: unknown, query: unknown, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${route}\n${canonicalJson(params)}\n${canonicalJson(query)}\n${canonicalJson(body ?? null)}`)
    .digest("hex");
}
