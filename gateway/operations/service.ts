import { Type } from "@sinclair/typebox";
import { ERROR_CATALOGUE, ERROR_CODES } from "../errors.ts";
import { API_VERSION, buildOpenApi, plainSchema } from "../openapi.ts";
import { defineOperation, type Operation } from "../registry/operation.ts";
import { publicOrigin } from "../public-origin.ts";

export const WEBHOOK_EVENT_TYPES = ["events", "uptime", "watchdog", "page", "crawl", "rank", "security", "digest"] as const;

export const SCOPES = [
  { id: "read", description: "Reading: sites, reports, tasks, usage" },
  { id: "run", description: "Starting checks and heavy requests" },
  { id: "write", description: "Changing sites, tasks, profiles, webhooks and keys" },
] as const;

function describeParams(op: Operation) {
  const out: unknown[] = [];
  for (const [where, schema] of [["path", op.params], ["query", op.query]] as const) {
    const required = new Set<string>((schema?.required) ?? []);
    for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || required.has(name), schema: plainSchema(prop) });
    }
  }
  return out;
}

/** The two self-description operations; they read the final registry through `all`. */
export function serviceOperations(all: () => readonly Operation[]): Operation[] {
  const capabilities = defineOperation({
    id: "get_capabilities",
    method: "GET",
    path: "/capabilities",
    scope: "none",
    cli: "capabilities",
    summary: "What this service offers: versions, scopes, limits, errors, endpoints, webhook events",
    tags: ["Service"],
    response: Type.Object(
      {
        api: Type.Object({ version: Type.String(), base: Type.String(), openapi: Type.String(), service_version: Type.String() }, { additionalProperties: false }),
        scopes: Type.Array(Type.Object({ id: Type.String(), description: Type.String() }, { additionalProperties: false })),
        limits: Type.Object(
          {
            rate_per_hour_default: Type.Integer(),
            page_max: Type.Integer(),
            idempotency_ttl_s: Type.Integer(),
            idempotency_key_pattern: Type.String(),
            address_rate_per_hour: Type.Integer(),
          },
          { additionalProperties: false },
        ),
        errors: Type.Array(Type.Object({ code: Type.String(), http: Type.Integer(), retry: Type.Boolean() }, { additionalProperties: false })),
        endpoints: Type.Array(
          Type.Object(
            {
              operation_id: Type.String(),
              method: Type.String(),
              path: Type.String(),
              scope: Type.String(),
              scope_rule: Type.Optional(Type.String()),
              cli: Type.String(),
              mcp: Type.String(),
              read_only: Type.Boolean(),
              async: Type.Boolean(),
              destructive: Type.Boolean(),
              idempotent: Type.Boolean(),
              page_max: Type.Union([Type.Integer(), Type.Null()]),
              params: Type.Array(Type.Unknown()),
              body: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
            },
            { additionalProperties: false },
          ),
        ),
        webhook_events: Type.Array(Type.String()),
        conventions: Type.Object({}, { additionalProperties: Type.String() }),
      },
      { additionalProperties: false },
    ),
    handler: async ({ deps, request }) => {
      const base = `${publicOrigin(deps, request)}/api/v1`;
      return {
        body: {
          api: { version: API_VERSION, base, openapi: `${base}/openapi.json`, service_version: deps.serviceVersion },
          scopes: SCOPES.map((s) => ({ ...s })),
          limits: {
            rate_per_hour_default: deps.config.ratePerHourDefault,
            page_max: 200,
            idempotency_ttl_s: deps.config.idempotencyTtlSeconds,
            idempotency_key_pattern: "^[A-Za-z0-9._:-]{1,64}$",
            address_rate_per_hour: deps.config.addressRatePerHour,
          },
          errors: ERROR_CODES.map((code) => ({ code, http: ERROR_CATALOGUE[code].http, retry: ERROR_CATALOGUE[code].retry })),
          endpoints: all().map((op) => ({
            operation_id: op.id,
            method: op.method,
            path: op.path,
            scope: op.scope,
            ...(op.scopeRule ? { scope_rule: op.scopeRule } : {}),
            cli: op.cli,
            mcp: op.mcp,
            read_only: op.readOnly,
            async: op.async,
            destructive: op.destructive,
            idempotent: op.idempotent,
            page_max: op.pageMax,
            params: describeParams(op),
            body: op.body ? plainSchema(op.body) : null,
          })),
          webhook_events: [...WEBHOOK_EVENT_TYPES],
          conventions: {
            auth: "X-Api-Key: <key> or Authorization: Bearer <key>; a key in the URL is refused",
            errors: "every error is {error, code}; retry only codes with retry true, after Retry-After when present",
            paging: "limit (default 50) and offset; page{limit, offset, total, next_offset}, next_offset null on the last page",
            idempotency: "Idempotency-Key on POST, PUT, PATCH, DELETE; replays carry Idempotent-Replay: true",
            etag: "GET answers carry a weak ETag; If-None-Match with unchanged data answers 304, not counted",
            timestamps: "integers, Unix seconds",
            versioning: "additive changes only within /api/v1; X-API-Version reports the contract version",
          },
        },
      };
    },
  });

  const openapi = defineOperation({
    id: "get_openapi_spec",
    method: "GET",
    path: "/openapi.json",
    scope: "none",
    cli: "openapi",
    summary: "This API as an OpenAPI 3.1 document",
    tags: ["Service"],
    response: Type.Object({ openapi: Type.String(), info: Type.Object({}, { additionalProperties: true }), paths: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }),
    handler: async ({ deps, request }) => ({ body: buildOpenApi(all(), deps.serviceVersion, publicOrigin(deps, request)) }),
  });

  return [capabilities, openapi];
}
