import { BLOCKED_PRIVATE_ADDRESS, EgressBlockedError } from "./egress.ts";

/** The closed set of fetch outcomes HttpResponse.error may carry. */
export type FetchErrorCode = "timeout" | "refused" | "dns" | "tls" | "reset" | "too_large" | "too_many_redirects" | typeof BLOCKED_PRIVATE_ADDRESS;

const BY_CODE: ReadonlyArray<readonly [FetchErrorCode, readonly string[]]> = [
  ["timeout", ["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT", "ABORT_ERR", "UND_ERR_ABORTED"]],
  ["refused", ["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "EADDRNOTAVAIL"]],
  ["dns", ["ENOTFOUND", "ENODATA", "ESERVFAIL", "ETIMEOUT", "EREFUSED", "EAI_AGAIN", "EBADRESP", "EBADNAME", "ENONAME"]],
  ["reset", ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED"]],
];

/**
 * Maps what undici, net, tls and c-ares throw onto the outcome codes; `detail` keeps the original
 * code and message for the report. `aborted` is true when our own deadline fired.
 */
export function classifyFetchError(err: unknown, aborted: boolean): { code: FetchErrorCode; detail: string } {
  const e = err as (Error & { code?: string; cause?: unknown }) | undefined;
  if (err instanceof EgressBlockedError) return { code: BLOCKED_PRIVATE_ADDRESS, detail: err.message };
  const code = String(e?.code ?? "");
  const detail = code ? `${code}: ${e?.message ?? ""}` : String(e?.message ?? err);
  if (aborted) return { code: "timeout", detail };
  if (e?.cause instanceof EgressBlockedError) return { code: BLOCKED_PRIVATE_ADDRESS, detail: e.cause.message };
  if (isTlsError(code, e?.message ?? "")) return { code: "tls", detail };
  // c-ares reports its own failures with a syscall like "queryA"; a refused DNS server is still "dns".
  const syscall = String((e as { syscall?: string } | undefined)?.syscall ?? "");
  if (syscall.startsWith("query") || syscall === "getaddrinfo") return { code: "dns", detail };
  for (const [outcome, codes] of BY_CODE) if (codes.includes(code)) return { code: outcome, detail };
  // What is left broke the exchange midway: a socket closed mid-response, llhttp's HPE_* parse errors.
  return { code: "reset", detail };
}

function isTlsError(code: string, message: string): boolean {
  return (
    code.startsWith("ERR_TLS_") ||
    code.startsWith("ERR_SSL_") ||
    code.startsWith("CERT_") ||
    code.includes("SELF_SIGNED") ||
    code.startsWith("UNABLE_TO_") ||
    code === "EPROTO" ||
    code === "HOSTNAME_MISMATCH" ||
    (code === "" && /ssl|tls|certificate/i.test(message))
  );
}
