import { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.gen.ts";

/** A code of the spec's error catalogue, or one a newer server added (kept as sent). */
export type ApiErrorCode = ErrorCode | (string & {});

/** Whether a code is one of the catalogue this client was built with. */
export function isCatalogued(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}

/** The API answered with an error of its catalogue (or a non-JSON failure, as code server). */
export class SvcApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** The API's error body as sent ({error, code, …}), or null. */
    readonly body: unknown,
    /** Retry-After of the answer (seconds), when it carried one. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "SvcApiError";
  }

  /** Whether the spec's client rule retries this answer (the catalogue's Retry column; else a 5xx). */
  get retryable(): boolean {
    return isCatalogued(this.code) ? ERROR_CATALOGUE[this.code].retry : this.status >= 500;
  }

  /** The CLI's exit code (spec: client exit codes): 1 request, 2 key or scope, 3 limit or unavailability. */
  get exitCode(): number {
    if (isCatalogued(this.code)) return ERROR_CATALOGUE[this.code].exit;
    if (this.status === 401 || this.status === 403) return 2;
    return this.status === 429 || this.status >= 500 ? 3 : 1;
  }
}

/** The service could not be reached, or what answered is not Svc's API (exit code 4). */
export class SvcNetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SvcNetworkError";
  }
}
