import type { TObject, TSchema } from "@sinclair/typebox";
import type { OperationContract, Scope } from "../contracts/index.ts";
import { callerRequired, callerSchema } from "../schemas.ts";

// The MCP tools are the operation contracts seen by a model: one tool per operation, named as the
// spec's tool name, its input the operation's path, query and body fields side by side. Built from
// the contracts alone, so an operation another issue registers is a tool without a change here.

/** The idempotency_key argument of mutating tools: passed on as the Idempotency-Key header. */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";

export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations: {
    readonly title: string;
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

// JSON Schema's own formats; Svc's custom ones (host) would make a strict validator refuse the
// whole schema, so they are dropped (the field's description says what it takes).
const STANDARD_FORMATS = new Set(["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid", "regex"]);

/** A TypeBox schema as plain JSON Schema a generic MCP client accepts: no x-* keywords, standard formats only. */
export function portableSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => {
    if (key.startsWith("x-")) return undefined;
    if (key === "format" && typeof value === "string" && !STANDARD_FORMATS.has(value)) return undefined;
    return value;
  }) as Record<string, unknown>;
}

function propertiesOf(schema: TSchema | undefined): Record<string, TSchema> {
  return ((schema as TObject | undefined)?.properties ?? {});
}

/**
 * Whether an operation reaches beyond Svc's own data: the run-scoped operations are the ones that
 * contact the sites a user names (checks, analyses, crawls), and a scope rule (utilities) raises to
 * run exactly for those that contact other sites.
 */
function opensWorld(op: OperationContract): boolean {
  return op.scope === "run" || op.scopeFor !== undefined;
}

/** The MCP tool of an operation. */
export function toolOf(op: OperationContract): McpTool {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of [op.params, op.query, op.body]) {
    // A field with a default is optional to the caller: the gateway fills it in.
    for (const [name, schema] of Object.entries(propertiesOf(part))) properties[name] = portableSchema(callerSchema(schema) as TSchema);
    required.push(...callerRequired(part));
  }
  if (!op.readOnly) {
    properties[IDEMPOTENCY_ARGUMENT] = {
      type: "string",
      pattern: "^[A-Za-z0-9._:-]{1,64}$",
      description: "Sent as the Idempotency-Key header: a repeated call with the same key and arguments answers the stored result and executes nothing.",
    };
  }
  const inputSchema: Record<string, unknown> = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = [...new Set(required)];
  const output = portableSchema(op.response);
  const scopeText = op.scope === "none" ? "Needs no key." : op.scopeRule ? `Scope: ${op.scopeRule}.` : `Needs the ${op.scope} scope.`;
  const asyncText = op.async ? " Starts a background job: follow it with get_job (job.id, wait: 30 holds the answer until the job finishes or 30 s pass)." : "";
  return {
    name: op.mcp,
    title: op.summary,
    description: `${op.summary}. ${op.description ? `${op.description} ` : ""}${scopeText}${asyncText} (${op.method} /api/v1${op.path})`,
    inputSchema,
    ...(output.type === "object" ? { outputSchema: output } : {}),
    annotations: {
      title: op.summary,
      readOnlyHint: op.readOnly,
      // Set explicitly: the protocol's defaults (destructive, not idempotent) are pessimistic.
      destructiveHint: op.destructive,
      idempotentHint: op.idempotent,
      openWorldHint: opensWorld(op),
    },
  };
}

/** Whether a caller holding these scopes may call the operation (a scope rule may still ask for more). */
export function visibleTo(op: OperationContract, scopes: readonly Scope[]): boolean {
  return op.scope === "none" || scopes.includes(op.scope);
}
