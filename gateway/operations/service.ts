import * as contracts from "../contracts/index.ts";
import { ERROR_CATALOGUE, ERROR_CODES } from "../errors.ts";
import { API_VERSION, buildOpenApi } from "../http/openapi.ts";
import { implement, type Implementation } from "../registry/operation.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { callerRequired, callerSchema } from "../schemas.ts";

function describeParams(op: contracts.OperationContract) {
  const out: unknown[] = [];
  for (const [where, schema] of [["path", op.params], ["query", op.query]] as const) {
    const required = new Set<string>(callerRequired(schema));
    for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || required.has(name), schema: callerSchema(prop) });
    }
  }
  return out;
}

/** The two self-description handlers; they read the final registry through `all`. */
export function serviceHandlers(all: () => readonly contracts.OperationContract[]): Implementation[] {
  const capabilities = implement(contracts.getCapabilities, { repos: [] }, async ({ deps, request }) => {
    const base = `${publicOrigin(deps, request)}/api/v1`;
    return {
      body: {
        api: { version: API_VERSION, base, openapi: `${base}/openapi.json`, service_version: deps.serviceVersion },
        scopes: contracts.SCOPES.map((s) => ({ ...s })),
        limits: {
          rate_per_hour_default: deps.config.ratePerHourDefault,
          page_max: 200,
          idempotency_ttl_s: deps.config.idempotencyTtlSeconds,
          idempotency_key_pattern: "^[A-Za-z0-9._:-]{1,64}$",
          address_rate_per_hour: deps.config.addressRatePerHour,
          net_utilities_per_hour: deps.config.utilities.netPerHour,
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
          body: op.body ? callerSchema(op.body) : null,
        })),
        webhook_events: [...contracts.WEBHOOK_EVENT_TYPES],
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
  });

  const openapi = implement(contracts.getOpenapiSpec, { repos: [] }, async ({ deps, request }) => ({
    body: buildOpenApi(all(), deps.serviceVersion, publicOrigin(deps, request)),
  }));

  return [capabilities, openapi];
}
