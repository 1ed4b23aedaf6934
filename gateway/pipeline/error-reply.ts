import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { unavailableEngine } from "../../storage/index.ts";
import { ApiError } from "../errors.ts";

/** What a client is told to wait while a store's engine is away: a restart or a failover takes seconds. */
export const ENGINE_RETRY_AFTER_S = 5;

/** Any thrown value as an answer of the catalogue; unknown faults become server with no detail. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // A store's engine restarting is the service briefly unavailable, not a fault of the request (or
  // of the service): 503 with Retry-After. The outage is logged once by the store, not per request.
  const engine = unavailableEngine(err);
  if (engine) return new ApiError("maintenance", `${engine === "postgres" ? "Postgres" : "ClickHouse"} is unavailable; retry after Retry-After`, { retryAfter: ENGINE_RETRY_AFTER_S, details: { engine } });
  const e = err as Partial<FastifyError> & { status?: number };
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("bad_request", "the request body is larger than this operation accepts", { details: { reason: "body_too_large" } });
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("bad_request", "send the body as JSON with Content-Type: application/json");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ApiError("bad_request", "Content-Type is application/json but the body is empty");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_INVALID_TYPE":
      return new ApiError("bad_request", "the request body could not be read");
    case "Z_DATA_ERROR":
    case "Z_BUF_ERROR":
    case "ERR__ERROR_FORMAT_PADDING_1": // brotli reports its failures by the reason
    case "ERR_BROTLI_DECOMPRESSION_FAILED":
      return new ApiError("bad_request", "the body does not decode with its Content-Encoding", { details: { reason: "bad_encoding" } });
    default:
      if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
        return new ApiError("bad_request", "malformed request");
      }
      return new ApiError("server", "internal error; the request id identifies it in the service's logs");
  }
}

/** Writes {error, code} with the catalogue's status and retry headers. */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
  const o = err.options;
  for (const [name, value] of Object.entries(o.headers ?? {})) reply.header(name, value);
  reply.header("X-Should-Retry", String(err.retry));
  // RFC 9110 §11.6.1: a 401 says how to authenticate (RFC 6750's Bearer; X-Api-Key works too),
  // unless the error brings its own challenge (the MCP endpoint names its resource metadata).
  if (err.http === 401 && !o.headers?.["WWW-Authenticate"]) reply.header("WWW-Authenticate", err.code === "missing" ? 'Bearer realm="svc"' : 'Bearer realm="svc", error="invalid_token"');
  // Answered before its body arrived (a 401, a body over the limit…): the rest of the body is not
  // waited for. Closing is what stops a client trickling a body it was already refused for.
  if (request.raw.complete === false) reply.header("Connection", "close");
  if (err.retry && o.retryAfter !== undefined) reply.header("Retry-After", String(Math.max(1, Math.ceil(o.retryAfter))));
  // An error never carries a validator: it must not be cached as the resource.
  reply.removeHeader("ETag");
  reply.header("Cache-Control", "no-store");
  return reply.code(err.http).type("application/json; charset=utf-8").send({
    error: err.message,
    code: err.code,
    request_id: request.id,
    retryable: err.retry,
    ...(err.retry && o.retryAfter !== undefined ? { retry_after: Math.max(1, Math.ceil(o.retryAfter)) } : {}),
    ...(o.param !== undefined ? { param: o.param } : {}),
    ...(o.details !== undefined ? { details: o.details } : {}),
  });
}
