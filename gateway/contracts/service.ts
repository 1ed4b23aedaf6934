import { Type } from "@sinclair/typebox";
import { defineContract } from "./contract.ts";

/** The event types a webhook can subscribe to, as /capabilities lists them (the table is analyzer/webhook-events.ts). */
export { WEBHOOK_EVENT_TYPES } from "../../analyzer/index.ts";

export const SCOPES = [
  { id: "read", description: "Reading: sites, reports, tasks, usage" },
  { id: "run", description: "Starting checks and heavy requests" },
  { id: "write", description: "Changing sites, tasks, profiles, webhooks and keys" },
] as const;

export const getCapabilities = defineContract({
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
          net_utilities_per_hour: Type.Integer({ description: "Extension: runs of network utilities (net: true) one key may start per hour (a bulk run counts 1 plus 1 for every 10 targets after the first)" }),
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
});

export const getOpenapiSpec = defineContract({
  id: "get_openapi_spec",
  method: "GET",
  path: "/openapi.json",
  scope: "none",
  cli: "openapi",
  summary: "This API as an OpenAPI 3.1 document",
  tags: ["Service"],
  response: Type.Object({ openapi: Type.String(), info: Type.Object({}, { additionalProperties: true }), paths: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }),
});
