import type { TSchema } from "@sinclair/typebox";
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from "../errors.ts";
import type { OperationContract } from "../contracts/index.ts";
import { boundIntegers, callerRequired, callerSchema, ErrorBody } from "../schemas.ts";

export const API_VERSION = "1.3";

/** Errors every keyed operation can answer with, whatever it does. */
const KEYED_ERRORS: ErrorCode[] = ["missing", "invalid", "revoked", "expired", "ip", "blocked", "scope", "limit", "closed", "maintenance", "bad_request", "bad_param", "server"];
const KEYLESS_ERRORS: ErrorCode[] = ["limit", "bad_request", "bad_param", "server"];
const MUTATING_ERRORS: ErrorCode[] = ["idem_conflict", "idem_busy"];

/** The codes a validation failure of the operation's input can answer with (`x-error` of its fields, e.g. bad_host). */
function inputErrorCodes(op: OperationContract): ErrorCode[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-error" && typeof value === "string") found.add(value);
      else walk(value);
    }
  };
  for (const part of [op.params, op.query, op.body]) walk(part);
  return ERROR_CODES.filter((c) => found.has(c));
}

/** An upload's body as multipart/form-data: the JSON body's fields as text parts, `file` as a file part (extension). */
function formContent(body: TSchema): Record<string, unknown> {
  const schema = callerSchema(body) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const properties = { ...schema.properties, file: { type: "string", format: "binary", description: "The file itself (its filename is kept unless file_name is sent)" } };
  return { "multipart/form-data": { schema: { type: "object", properties, required: ["file"] }, "x-form-upload": true } };
}

export function errorCodesOf(op: OperationContract): ErrorCode[] {
  const base = op.scope === "none" ? KEYLESS_ERRORS : KEYED_ERRORS;
  const extra = op.method === "GET" ? [] : MUTATING_ERRORS;
  const input = inputErrorCodes(op);
  return ERROR_CODES.filter((c) => base.includes(c) || extra.includes(c) || op.errors.includes(c) || input.includes(c));
}

/** A TypeBox schema as plain JSON Schema (2020-12, what OpenAPI 3.1 uses). */
export function plainSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed this hour (the key's, or the address's on keyless routes and 401 answers)", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left this hour", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the hourly window ends", schema: { type: "integer" } },
  "X-Request-Id": { description: "This request's id (also in error bodies and logs)", schema: { type: "string" } },
  "X-API-Version": { description: "Contract version", schema: { type: "string", const: API_VERSION } },
};

function parameters(op: OperationContract): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [["path", op.params], ["query", op.query]] as const) {
    const props = (schema?.properties ?? {}) as Record<string, TSchema>;
    // Required only where a caller must send it: a field with a default is filled in by the gateway.
    const required = new Set<string>(callerRequired(schema));
    for (const [name, prop] of Object.entries(props)) {
      const plain = boundIntegers(callerSchema(prop)) as Record<string, unknown>;
      out.push({
        name,
        in: where,
        required: where === "path" || required.has(name),
        ...(typeof plain.description === "string" ? { description: plain.description } : {}),
        schema: plain,
      });
    }
  }
  if (op.method !== "GET") {
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "Repeat-safe key (1-64 of letters, digits, . _ : -); a repeat within 86400 s replays the first answer with Idempotent-Replay: true.",
      schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,64}$" },
    });
  }
  return out;
}

function responses(op: OperationContract): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [String(op.status)]: {
      description: op.summary,
      headers: {
        ...RATE_HEADERS,
        ...(op.method === "GET" ? { ETag: { description: "Weak validator; send it back in If-None-Match", schema: { type: "string" } } } : {}),
        ...(op.method !== "GET" ? { "Idempotent-Replay": { description: "true when this is a stored answer replayed", schema: { type: "string" } } } : {}),
      },
      content: { "application/json": { schema: plainSchema(op.response) } },
    },
  };
  for (const [status, description] of Object.entries(op.otherStatuses)) {
    out[status] = { description, headers: RATE_HEADERS, content: { "application/json": { schema: plainSchema(op.response) } } };
  }
  if (op.method === "GET") out["304"] = { description: "Not modified (If-None-Match matched); no body, not counted against the hourly limit", headers: RATE_HEADERS };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op)) {
    const http = ERROR_CATALOGUE[code].http;
    byStatus.set(http, [...(byStatus.get(http) ?? []), code]);
  }
  for (const [http, codes] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    out[String(http)] = {
      description: codes.map((c) => `${c}: ${ERROR_CATALOGUE[c].title}`).join("; "),
      headers: {
        ...RATE_HEADERS,
        ...(codes.some((c) => ERROR_CATALOGUE[c].retry) ? { "Retry-After": { description: "Seconds to wait (retryable codes)", schema: { type: "integer" } } } : {}),
      },
      content: {
        "application/json": {
          schema: { allOf: [{ $ref: "#/components/schemas/Error" }, { type: "object", properties: { code: { enum: codes } } }] },
        },
      },
    };
  }
  return out;
}

/** The OpenAPI 3.1 document of the registered operations. */
export function buildOpenApi(operations: readonly OperationContract[], serviceVersion: string, baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [...op.tags],
      security: op.scope === "none" ? [] : [{ apiKey: [] }, { bearer: [] }],
      parameters: parameters(op),
      ...(op.body
        ? { requestBody: { required: (op.body as { "x-optional"?: unknown })["x-optional"] !== true, content: { "application/json": { schema: boundIntegers(callerSchema(op.body)) }, ...(op.formUpload ? formContent(op.body) : {}), ...(op.form ? { "multipart/form-data": { schema: op.form.schema, "x-form-body": true } } : {}) } } }
        : {}),
      responses: responses(op),
      "x-scope": op.scope,
      ...(op.scopeRule ? { "x-scope-rule": op.scopeRule } : {}),
      "x-mcp-tool": op.mcp,
      "x-cli": op.cli,
      "x-read-only": op.readOnly,
      "x-async": op.async,
      "x-destructive": op.destructive,
      "x-idempotent": op.idempotent,
      "x-additive": op.additive,
      ...(op.shared ? { "x-shared": true } : {}),
      "x-body-limit-bytes": op.bodyLimitBytes,
      ...(op.pageMax !== null ? { "x-page-max": op.pageMax } : {}),
      ...(op.method !== "GET" ? { "x-idempotency": op.idempotency } : {}),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Svc: site monitoring and SEO analysis API",
      version: API_VERSION,
      "x-service-version": serviceVersion,
      description:
        "Every error is {error, code}. Keys go in X-Api-Key or Authorization: Bearer, never in the URL. Lists take limit and offset and return page{limit, offset, total, next_offset}. An extension: any request may carry W3C trace context (traceparent, tracestate headers); the request and the work it starts then belong to that trace (the service's logs and exported spans).",
    },
    servers: [{ url: `${baseUrl}/api/v1` }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        bearer: { type: "http", scheme: "bearer", description: "The API key as a bearer token" },
      },
      schemas: {
        Error: { ...plainSchema(ErrorBody), properties: { ...(plainSchema(ErrorBody).properties as object), code: { type: "string", enum: ERROR_CODES } } },
      },
    },
  };
}
