import type { FastifyInstance, FastifyRequest } from "fastify";
import type { OperationContract } from "../contracts/index.ts";
import { MissingPathParameter, requestOf, type RestRequest } from "../client/request-of.ts";
import { IDEMPOTENCY_ARGUMENT } from "./mcp-tools.ts";

/** MCP's CallToolResult. */
export interface CallToolResult {
  readonly content: { readonly type: "text"; readonly text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError: boolean;
}

/**
 * Runs a tool as the REST request it mirrors, through the app itself (inject): the same key, client
 * address and Idempotency-Key meet the same pipeline, so scopes, limits, idempotency and errors are
 * the API's by construction. An argument that is no field of the operation is sent along (in the
 * body, or the query of a GET) so that the API refuses it as it would refuse it over HTTP.
 */
export async function callTool(app: FastifyInstance, request: FastifyRequest, op: OperationContract, args: Record<string, unknown>): Promise<CallToolResult> {
  let rest: RestRequest;
  try {
    rest = requestOf(op, args, [IDEMPOTENCY_ARGUMENT]);
  } catch (err) {
    if (err instanceof MissingPathParameter) return errorResult({ error: err.message, code: "bad_param", param: err.param });
    throw err;
  }
  const headers: Record<string, string> = {};
  for (const name of ["authorization", "x-api-key", "x-forwarded-for", "user-agent"] as const) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const idempotencyKey = args[IDEMPOTENCY_ARGUMENT];
  if (!op.readOnly && idempotencyKey !== undefined) {
    // A key the write would silently run without is refused, as REST refuses a malformed header.
    if (typeof idempotencyKey !== "string") return errorResult({ error: `${IDEMPOTENCY_ARGUMENT} must be a string`, code: "bad_param", param: IDEMPOTENCY_ARGUMENT });
    headers["idempotency-key"] = idempotencyKey;
  }
  if (rest.body) headers["content-type"] = "application/json";
  const res = await app.inject({
    method: op.method,
    url: rest.url,
    headers,
    remoteAddress: request.socket.remoteAddress ?? "127.0.0.1",
    ...(rest.body ? { payload: JSON.stringify(rest.body) } : {}),
  });
  const text = res.body;
  let json: unknown = null;
  try {
    json = text === "" ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  if (res.statusCode >= 400) {
    const err = (json ?? { error: text, code: "server" }) as { error?: string; code?: string };
    return errorResult(err);
  }
  const structured = json !== null && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  return {
    content: [{ type: "text", text: text === "" ? "{}" : text }],
    ...(structured ? { structuredContent: structured } : {}),
    isError: false,
  };
}

/**
 * An API error as a tool error the model can read: the first text starts with the catalogue code,
 * the second is the API's error body. No structuredContent: it would have to match the tool's
 * output schema, which describes the success.
 */
function errorResult(body: Record<string, unknown>): CallToolResult {
  const code = typeof body.code === "string" ? body.code : "server";
  const error = typeof body.error === "string" ? body.error : "error";
  return { content: [{ type: "text", text: `${code}: ${error}` }, { type: "text", text: JSON.stringify(body) }], isError: true };
}
