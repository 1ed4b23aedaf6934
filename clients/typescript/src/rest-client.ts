import { SvcApiError, SvcNetworkError } from "./errors.ts";
import { requestOf, type OperationShape } from "./request.ts";

// A client of the REST API that follows the spec's client rule: only retryable codes are retried,
// after Retry-After or 1, 2, 4 … s, at most 5 attempts; every mutating call carries an
// Idempotency-Key, the same on each attempt, so a retry never executes twice. It loads nothing but
// this package (no server module, no dependency).

export interface ClientOptions {
  /** The service's origin, e.g. https://svc.example.com (the client adds /api/v1/...). */
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  /** Attempts of one call, the first included (5). */
  readonly maxAttempts?: number;
  /** A Retry-After longer than this (seconds) is not waited for: the error is thrown at once (30). */
  readonly maxRetryWaitSeconds?: number;
  /** Told before each wait for a retry. */
  readonly onRetry?: (info: { readonly attempt: number; readonly waitSeconds: number; readonly code: string }) => void;
  /**
   * GETs remember their last ETag and answer (this many URLs, least recently used dropped; 0 turns
   * it off): asked again, they send If-None-Match and an unchanged answer is a 304 that costs no
   * request of the hour, returned with the remembered body. 0 unless set.
   */
  readonly etagCacheSize?: number;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface CallOptions {
  /** Sent as Idempotency-Key (otherwise a random one is sent on mutating calls). */
  readonly idempotencyKey?: string;
  /** Sent as If-None-Match (a GET's last ETag): an unchanged answer is 304, uncharged. */
  readonly ifNoneMatch?: string;
  readonly signal?: AbortSignal;
}

/** An answer of the API with its status and headers. */
export interface Answer<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** How long one held GET /jobs/{id}?wait=N waits (the server's maximum). */
const JOB_WAIT_S = 30;
/** Statuses a reverse proxy answers for an upstream that is away: retried like Svc's own 503. */
const PROXY_STATUSES = new Set([502, 503, 504]);

/** The low-level client: any operation, any path. */
export class RestClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly etags = new Map<string, { readonly etag: string; readonly body: unknown }>();

  constructor(private readonly options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.doFetch = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
  }

  /** Calls an operation with its fields side by side; throws SvcApiError or SvcNetworkError. */
  async call(op: OperationShape, fields: Readonly<Record<string, unknown>>, options: CallOptions = {}): Promise<Answer> {
    const req = requestOf(op, fields);
    return this.send(req.method, req.url, req.body, options);
  }

  /** GET of a path from /api/v1 on (e.g. a job's self link). */
  async get(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.send("GET", path, undefined, options);
  }

  /**
   * Follows a job until it is done or in error, with held requests (GET /jobs/{id}?wait=30 and the
   * last ETag: answered when the job finishes or after 30 s, a 304 that is not charged when nothing
   * changed). onUpdate sees the job after every answer that changed it.
   */
  async waitForJob<J extends { readonly id: number; readonly state: string }>(job: J, options: { readonly onUpdate?: (job: J) => void; readonly signal?: AbortSignal } = {}): Promise<J> {
    let etag: string | undefined;
    let current = job;
    while (current.state !== "done" && current.state !== "error") {
      const answer = await this.get(`/api/v1/jobs/${current.id}?wait=${JOB_WAIT_S}`, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(etag !== undefined ? { ifNoneMatch: etag } : {}),
      });
      if (answer.status === 304) continue;
      etag = answer.headers.get("etag") ?? undefined;
      current = (answer.body as { job: J }).job;
      options.onUpdate?.(current);
    }
    return current;
  }

  private async send(method: string, url: string, body: unknown, options: CallOptions): Promise<Answer> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    if (MUTATING.has(method)) headers["idempotency-key"] = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    const cacheSize = this.options.etagCacheSize ?? 0;
    const cached = method === "GET" && options.ifNoneMatch === undefined && cacheSize > 0 ? this.etags.get(url) : undefined;
    if (options.ifNoneMatch !== undefined) headers["if-none-match"] = options.ifNoneMatch;
    else if (cached) headers["if-none-match"] = cached.etag;
    const maxAttempts = this.options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await this.doFetch(this.base + url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), ...(options.signal ? { signal: options.signal } : {}) });
      } catch (err) {
        throw new SvcNetworkError(`cannot reach ${this.base}: ${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`);
      }
      // Every answer of Svc's API carries X-API-Version; another server's (a 404 of a static file
      // server at a wrong address) is not retried as if it were Svc failing. Gateways in front of
      // Svc (502-504 while it restarts) are retried as before.
      if (!res.headers.has("x-api-version") && !PROXY_STATUSES.has(res.status)) {
        throw new SvcNetworkError(`the answer at ${this.base + url} is not Svc's API (HTTP ${res.status} without X-API-Version): check --api-url or SVC_API_URL`);
      }
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text === "" ? null : JSON.parse(text);
      } catch {
        json = null;
      }
      if (res.status === 304 && cached) {
        this.remember(url, cached.etag, cached.body, cacheSize);
        return { status: 304, body: cached.body, headers: res.headers };
      }
      if (res.ok || res.status === 304) {
        const etag = res.headers.get("etag");
        if (method === "GET" && cacheSize > 0 && etag !== null && res.status === 200) this.remember(url, etag, json, cacheSize);
        return { status: res.status, body: json, headers: res.headers };
      }
      const err = (json ?? {}) as { code?: unknown; error?: unknown };
      const code = typeof err.code === "string" ? err.code : "server";
      const after = Number(res.headers.get("retry-after"));
      const retryAfter = res.headers.has("retry-after") && Number.isFinite(after) && after >= 0 ? after : null;
      const failure = new SvcApiError(res.status, code, typeof err.error === "string" ? err.error : `HTTP ${res.status}`, json, retryAfter);
      if (!failure.retryable || attempt >= maxAttempts) throw failure;
      const wait = retryAfter !== null && retryAfter > 0 ? retryAfter : 2 ** (attempt - 1);
      if (wait > (this.options.maxRetryWaitSeconds ?? 30)) throw failure;
      this.options.onRetry?.({ attempt, waitSeconds: wait, code });
      await this.sleep(wait * 1000);
    }
  }

  private remember(url: string, etag: string, body: unknown, size: number): void {
    this.etags.delete(url);
    this.etags.set(url, { etag, body });
    while (this.etags.size > size) this.etags.delete(this.etags.keys().next().value as string);
  }
}
