import type { FastifyInstance, FastifyRequest } from "fastify";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { authenticate, readKey, type AuthContext } from "../pipeline/auth.ts";
import { setRateHeaders } from "../pipeline/rate-headers.ts";
import { MAX_BODY_DEPTH, nestingDepth } from "../pipeline/json-body.ts";
import { trustedOrigin } from "../http/public-origin.ts";
import type { Operation } from "../registry/operation.ts";
import { oauthUrls } from "../oauth/oauth-urls.ts";
import { MCP_PATH } from "./mcp-paths.ts";
import { toolOf, visibleTo, type McpTool } from "./mcp-tools.ts";
import { callTool } from "./mcp-call.ts";

// The tool server: MCP's Streamable HTTP transport, stateless, every answer one JSON body. No
// session is minted, so GET (a server-to-client stream) and DELETE (ending a session) answer 405.
// Written against the protocol text rather than an SDK (none is installed); what it serves is
// initialize, ping, tools/list and tools/call, which is all a tool server needs.

/** Revisions this server speaks, newest first; initialize answers the client's when listed here. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

const JSONRPC_PARSE_ERROR = -32700;
const JSONRPC_INVALID_REQUEST = -32600;
const JSONRPC_METHOD_NOT_FOUND = -32601;
const JSONRPC_INVALID_PARAMS = -32602;

type JsonRpcId = string | number;

interface JsonRpcRequest {
  readonly jsonrpc: "2.0";
  readonly id?: JsonRpcId;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A refusal answered at the HTTP layer (e.g. an OAuth client stepping up its scopes). */
export class McpHttpRefusal extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
  }
}

/** Registers POST /api/v1/mcp (and 405 for GET and DELETE) on the root app. */
export function registerMcp(app: FastifyInstance, deps: Omit<GatewayDeps, "store">, operations: readonly Operation[]): void {
  const tools = operations.map((op) => ({ op, tool: toolOf(op) }));
  const byName = new Map(tools.map((t) => [t.tool.name, t]));
  const instructions =
    "Svc monitors websites and analyses their search-engine health. Tools mirror the REST API at /api/v1 one to one; " +
    "errors come back as isError results whose text starts with the catalogue code (e.g. not_found, scope, limit). " +
    "Tools that start work return a job: call get_job with wait (up to 30 seconds, the answer comes when the job finishes) until its state is done.";

  void app.register(async (mcp) => {
    // The body is read as text here so that malformed JSON is JSON-RPC's parse error, not the API's 400.
    mcp.removeContentTypeParser(["application/json"]);
    mcp.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => done(null, text));

    for (const method of ["GET", "DELETE"] as const) {
      mcp.route({
        method,
        url: MCP_PATH,
        handler: async (request) => {
          request.svc.page = MCP_PATH;
          throw new ApiError("method", `${method} is not supported here: the tool server is stateless and answers POST only`, { headers: { Allow: "POST" } });
        },
      });
    }

    mcp.post(MCP_PATH, { bodyLimit: 1024 * 1024 }, async (request, reply) => {
      request.svc.page = MCP_PATH;
      const urls = oauthUrls(trustedOrigin(deps, request));
      if (!originAllowed(deps, request, urls.issuer)) {
        // The transport's rule (403), outside the API's catalogue: no key was even looked at.
        return reply.code(403).send(rpcError(null, JSONRPC_INVALID_REQUEST, `requests from the origin ${String(request.headers.origin)} are refused; an operator may allow it with SVC_MCP_ALLOWED_ORIGINS`));
      }
      const now = Math.floor(request.svc.nowMs / 1000);
      const outcome = await authenticate(deps, request, request.svc.address, null, now, { count: false });
      setRateHeaders(reply, outcome.rate);
      if (outcome.error) {
        const challenge =
          outcome.error.http === 401
            ? readKey(request) === null
              ? `Bearer resource_metadata="${urls.resourceMetadata}", scope="read run write"`
              : `Bearer error="invalid_token", error_description="${outcome.error.message}", resource_metadata="${urls.resourceMetadata}"`
            : null;
        throw challenge ? new ApiError(outcome.error.code, outcome.error.message, { ...outcome.error.options, headers: { "WWW-Authenticate": challenge } }) : outcome.error;
      }
      // Not request.svc.auth yet: a tool call's envelope is not a call of the key's usage (its
      // REST request is); the other methods become one below, once the message is read.
      const auth = outcome.auth as AuthContext;

      const versionHeader = request.headers["mcp-protocol-version"];
      if (typeof versionHeader === "string" && !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(versionHeader)) {
        return reply.code(400).send(rpcError(null, JSONRPC_INVALID_REQUEST, `unsupported MCP-Protocol-Version ${versionHeader}; this server speaks ${MCP_PROTOCOL_VERSIONS.join(", ")}`));
      }

      let message: unknown;
      try {
        message = JSON.parse(typeof request.body === "string" ? request.body : "");
      } catch {
        return reply.code(400).send(rpcError(null, JSONRPC_PARSE_ERROR, "the body is not valid JSON"));
      }
      if (Array.isArray(message) || message === null || typeof message !== "object" || (message as JsonRpcRequest).jsonrpc !== "2.0") {
        return reply.code(400).send(rpcError(null, JSONRPC_INVALID_REQUEST, "send one JSON-RPC 2.0 message per request (batches are not supported)"));
      }
      const msg = message as JsonRpcRequest;
      // Notifications and the client's answers need no reply.
      if (msg.id === undefined || msg.method === undefined) return reply.code(202).send();
      // JSON-RPC ids are strings or numbers (MCP: never null); an object is not echoed back.
      if (typeof msg.id !== "string" && typeof msg.id !== "number") {
        return reply.code(400).send(rpcError(null, JSONRPC_INVALID_REQUEST, "id must be a string or a number"));
      }
      // The REST API's depth bound, on what a tool call would send it: the arguments sit two
      // levels down (message, params), and nothing below may walk deeper ones.
      if (nestingDepth(request.body as string, MAX_BODY_DEPTH + 2) > MAX_BODY_DEPTH + 2) {
        return reply.type("application/json").send(rpcError(msg.id, JSONRPC_INVALID_PARAMS, `params are nested deeper than ${MAX_BODY_DEPTH} levels`));
      }
      // A tool call is counted as the REST request it becomes; every other answered method is
      // counted here, as a REST call would be (a key past its hour gets 429 limit).
      if (msg.method !== "tools/call") {
        const counted = await authenticate(deps, request, request.svc.address, null, now);
        setRateHeaders(reply, counted.rate);
        request.svc.auth = counted.auth;
        if (counted.error) throw counted.error;
      }

      try {
        const result = await dispatch(msg.method, msg.params ?? {});
        return reply.type("application/json").send({ jsonrpc: "2.0", id: msg.id, result });
      } catch (err) {
        if (err instanceof RpcError) return reply.type("application/json").send(rpcError(msg.id, err.code, err.message));
        if (err instanceof McpHttpRefusal) throw err.apiError;
        throw err;
      }

      async function dispatch(method: string, params: Record<string, unknown>): Promise<unknown> {
        switch (method) {
          case "initialize": {
            const asked = typeof params.protocolVersion === "string" ? params.protocolVersion : "";
            const protocolVersion = (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0];
            return {
              protocolVersion,
              capabilities: { tools: { listChanged: false } },
              serverInfo: { name: "svc", title: "Svc", version: deps.serviceVersion },
              instructions,
            };
          }
          case "ping":
            return {};
          case "tools/list":
            // Deterministic (registry order) and filtered by what this caller's scopes allow.
            return { tools: tools.filter((t) => visibleTo(t.op, auth.scopes)).map((t): McpTool => t.tool) };
          case "tools/call": {
            const name = params.name;
            const entry = typeof name === "string" ? byName.get(name) : undefined;
            if (!entry) throw new RpcError(JSONRPC_INVALID_PARAMS, `unknown tool: ${String(name)}`);
            const args = params.arguments ?? {};
            if (args === null || typeof args !== "object" || Array.isArray(args)) throw new RpcError(JSONRPC_INVALID_PARAMS, "arguments must be an object");
            if (auth.kind === "oauth" && !visibleTo(entry.op, auth.scopes)) {
              // An OAuth client can ask its user for more: the challenge names the scope to add.
              const needed = entry.op.scope;
              throw new McpHttpRefusal(
                new ApiError("scope", `this tool needs the ${needed} scope`, {
                  details: { required: needed },
                  headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${[...auth.scopes, needed].join(" ")}", resource_metadata="${urls.resourceMetadata}"` },
                }),
              );
            }
            return callTool(app, request, entry.op, args as Record<string, unknown>);
          }
          default:
            throw new RpcError(JSONRPC_METHOD_NOT_FOUND, `method not found: ${method}`);
        }
      }
    });
  });
}

function rpcError(id: JsonRpcId | null, code: number, message: string) {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/**
 * DNS-rebinding defence: a browser page may call the tool server only from the service's own
 * origin or one the operator allowed. Requests without Origin (programs) pass.
 */
function originAllowed(deps: Pick<GatewayDeps, "config">, request: FastifyRequest, issuer: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const normal = (text: string) => {
    try {
      return new URL(text).origin;
    } catch {
      return null;
    }
  };
  const own = normal(origin);
  return own !== null && (own === normal(issuer) || deps.config.mcpAllowedOrigins.some((o) => normal(o) === own));
}
