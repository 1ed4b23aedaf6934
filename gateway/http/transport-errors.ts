import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { STATUS_CODES } from "node:http";
import { API_VERSION } from "./openapi.ts";

/**
 * What Node's HTTP parser refuses before Fastify sees a request — headers over the size limit,
 * a malformed request line or method, a request that did not arrive within SVC_REQUEST_TIMEOUT_MS —
 * answered in the contract's error body with X-Request-Id and X-API-Version, then the connection
 * is closed (the parser cannot continue on it). Fastify's default sends a bare "Client Error".
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const reason = REASONS[err.code ?? ""] ?? { detail: "malformed_http", text: "the request is not valid HTTP" };
  // A response already under way on this socket (e.g. a timeout while answering) cannot be replaced.
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !busy) socket.write(rawErrorResponse(400, reason.text, reason.detail));
  socket.destroy();
}

const REASONS: Record<string, { detail: string; text: string }> = {
  HPE_HEADER_OVERFLOW: { detail: "headers_too_large", text: "the request's headers are larger than the server accepts" },
  ERR_HTTP_REQUEST_TIMEOUT: { detail: "request_timeout", text: "the request did not arrive in time; send it again, faster" },
  HPE_INVALID_METHOD: { detail: "bad_method", text: "the request's method is not an HTTP method this server knows" },
};

/** A complete HTTP/1.1 error answer in the contract's body, for writing straight to a socket. */
export function rawErrorResponse(status: number, message: string, reason: string): string {
  const id = randomUUID();
  const body = JSON.stringify({ error: message, code: "bad_request", request_id: id, retryable: false, details: { reason } });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${id}`,
    `X-API-Version: ${API_VERSION}`,
    "X-Should-Retry: false",
    "Cache-Control: no-store",
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}
