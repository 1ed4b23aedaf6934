import { Type, type SchemaOptions, type TSchema, type TProperties, type TUnsafe } from "@sinclair/typebox";
import type { ErrorCode } from "./errors.ts";

// Schemas shared by many operations. `x-error` names the catalogue code a validation failure of
// that field answers with (bad_host, bad_status); everything else answers bad_param.

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export function withError<T extends TSchema>(schema: T, code: ErrorCode): T {
  return { ...schema, "x-error": code };
}

/** A domain or an address in a path or body (normalised by the gateway, never resolved). */
export const HostString = withError(
  Type.String({ format: "host", minLength: 1, maxLength: 300, description: "A domain (IDN allowed) or an address, optionally with a non-default port." }),
  "bad_host",
);

/**
 * A request schema (query or body) as a caller sees it, as plain JSON Schema: a property with a
 * default is never required, at any depth, because the gateway fills defaults in before it
 * validates. The handlers' types keep such fields required; OpenAPI, MCP and /capabilities use this.
 */
export function callerSchema(schema: TSchema): Record<string, unknown> {
  const relax = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(relax);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === "required" && Array.isArray(v) ? v : relax(v);
    const props = out.properties as Record<string, { default?: unknown }> | undefined;
    if (Array.isArray(out.required) && props && typeof props === "object") {
      const required = (out.required as string[]).filter((name) => props[name]?.default === undefined);
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    return out;
  };
  return relax(JSON.parse(JSON.stringify(schema))) as Record<string, unknown>;
}

/** The fields of a request object schema a caller must send (required and without a default). */
export function callerRequired(schema: TSchema | undefined): string[] {
  if (!schema) return [];
  return (callerSchema(schema).required as string[] | undefined) ?? [];
}

export const HostParams = Type.Object({ host: HostString }, { additionalProperties: false });

export const UnixSeconds = Type.Integer({ minimum: 0, description: "Unix seconds" });

export const PageEnvelope = Type.Object(
  {
    limit: Type.Integer({ minimum: 1 }),
    offset: Type.Integer({ minimum: 0 }),
    total: Type.Integer({ minimum: 0 }),
    next_offset: Nullable(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false, description: "next_offset is null on the last page" },
);

/** limit (default 50, at most max) and offset, plus any other query fields. */
export function pagedQuery<T extends TProperties>(max: number, extra: T) {
  return Type.Object(
    {
      limit: Type.Integer({ minimum: 1, maximum: max, default: 50, description: `Page size, 1-${max}` }),
      offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
      ...extra,
    },
    { additionalProperties: false },
  );
}

export function page(limit: number, offset: number, total: number) {
  return { limit, offset, total, next_offset: offset + limit < total ? offset + limit : null };
}

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: "Human-readable text; may change" }),
    code: Type.String({ description: "Stable code of the error catalogue" }),
    request_id: Type.Optional(Type.String()),
    retryable: Type.Optional(Type.Boolean()),
    retry_after: Type.Optional(Type.Integer()),
    param: Type.Optional(Type.String()),
    details: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

export const EmptyQuery = Type.Object({}, { additionalProperties: false });

/** A string of a fixed set, as a JSON Schema enum (one clear validation message, one OpenAPI enum). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/**
 * Every integer of a request is an exact JavaScript number and fits a PostgreSQL bigint: without
 * a bound of its own, an integer schema gets ±(2^53 − 1), so that /jobs/10000000000000000001 is
 * 400 bad_param rather than a database error. Returns a copy; the contract's schema is untouched. The OpenAPI document publishes the same
 * bounds (the request validator and the document apply this one function).
 */
export function boundIntegers(schema: unknown): object {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (schema === null || typeof schema !== "object") return schema as object;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = typeof v === "object" && v !== null ? boundIntegers(v) : v;
  const types = ([] as unknown[]).concat(out.type);
  if (types.includes("integer")) {
    out.maximum ??= Number.MAX_SAFE_INTEGER;
    out.minimum ??= -Number.MAX_SAFE_INTEGER;
  }
  return out;
}
