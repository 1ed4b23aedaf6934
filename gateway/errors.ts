// The error catalogue of the contract: one row per code with its HTTP status and retry rule.
// /capabilities, the OpenAPI document and the CLI's exit codes are generated from this table,
// and a test holds it against the spec's errors.json.

export const ERROR_CATALOGUE = {
  missing: { http: 401, retry: false, title: "no key sent" },
  invalid: { http: 401, retry: false, title: "key not found" },
  revoked: { http: 401, retry: false, title: "key revoked" },
  expired: { http: 401, retry: false, title: "key expired" },
  ip: { http: 403, retry: false, title: "request address not in the key's allowed list" },
  blocked: { http: 403, retry: false, title: "account unavailable" },
  closed: { http: 503, retry: true, title: "service closed for testing, administrator only" },
  scope: { http: 403, retry: false, title: "key lacks the required scope (read, run or write)" },
  limit: { http: 429, retry: true, title: "key's hourly limit or plan limit exhausted; wait for Retry-After" },
  not_found: { http: 404, retry: false, title: "site, task, job or data not found or owned by another account" },
  not_ready: { http: 409, retry: true, title: "no data yet: check not run or not finished" },
  method: { http: 405, retry: false, title: "HTTP method not supported for the address" },
  bad_request: { http: 400, retry: false, title: "malformed request" },
  bad_host: { http: 400, retry: false, title: "domain not recognised" },
  bad_status: { http: 400, retry: false, title: "invalid status value" },
  bad_param: { http: 400, retry: false, title: "a parameter has an invalid value" },
  unsupported: { http: 422, retry: false, title: "operation impossible for this object" },
  idem_conflict: { http: 422, retry: false, title: "Idempotency-Key already used with a different request" },
  idem_busy: { http: 409, retry: true, title: "request with this Idempotency-Key still running; retry in a second" },
  tool_off: { http: 503, retry: false, title: "utility disabled by the administrator" },
  service_off: { http: 503, retry: false, title: "external service behind the section disabled for all users" },
  tool_failed: { http: 422, retry: false, title: "utility could not process the input or address; text in error" },
  maintenance: { http: 503, retry: true, title: "service under maintenance; Retry-After" },
  server: { http: 500, retry: true, title: "internal error" },
} as const satisfies Record<string, { http: number; retry: boolean; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export interface ApiErrorOptions {
  /** Seconds for Retry-After (sent only with retryable codes). */
  readonly retryAfter?: number;
  /** The offending parameter, for bad_param, bad_host and bad_status. */
  readonly param?: string;
  /** Stable machine-readable details (lowerCamel keys). */
  readonly details?: Record<string, unknown>;
  /** Extra headers of this answer (e.g. Allow on 405). */
  readonly headers?: Record<string, string>;
}

/** An answer of the error catalogue. Thrown anywhere in the gateway, rendered in one place. */
export class ApiError extends Error {
  readonly http: number;
  readonly retry: boolean;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(message);
    this.http = ERROR_CATALOGUE[code].http;
    this.retry = ERROR_CATALOGUE[code].retry;
  }
}

/** CLI exit code of an error code (spec: client exit codes). */
export function exitCodeOf(code: ErrorCode): number {
  if (["missing", "invalid", "revoked", "expired", "ip", "blocked", "scope"].includes(code)) return 2;
  if (["limit", "closed", "maintenance", "server", "tool_off", "service_off", "idem_busy"].includes(code)) return 3;
  return 1;
}
