import { performance } from "node:perf_hooks";
import { request, type Dispatcher } from "undici";
import { Header, HttpResponse, Redirect } from "../../proto/index.ts";
import { bytesToText, decodeBody, readWire, sniffHtmlCharset } from "./body.ts";
import { classifyFetchError } from "./fetch-errors.ts";

export const DEFAULT_USER_AGENT = "SvcBot/0.1 (+https://github.com/svc)";

export interface FetchOptions {
  /** The egress dispatcher (the SSRF guard); never the global one. */
  readonly dispatcher: Dispatcher;
  readonly userAgent?: string;
  /** Budget for the whole exchange, redirects included. Default 30 s. */
  readonly timeoutMs?: number;
  /** Default 10. */
  readonly maxRedirects?: number;
  /** Cap on wire and on decoded bytes. Default 5 MiB. */
  readonly maxBodyBytes?: number;
  readonly method?: "GET" | "HEAD";
  readonly headers?: Readonly<Record<string, string>>;
  /** Cancels the exchange (e.g. the job's lease was lost); reported like a timeout. */
  readonly signal?: AbortSignal;
  /** Whether to follow a redirect to `target`; when false the 3xx answer is the result (its hop recorded). */
  readonly followRedirect?: (target: string) => boolean;
  /** False: `text` stays empty and the caller decodes `body` (bodyText) where it parses, e.g. on a parse thread. Default true. */
  readonly decodeText?: boolean;
}

export interface FetchResult {
  readonly response: HttpResponse;
  /** Decoded body (empty on error or HEAD). */
  readonly body: Buffer;
  /** The body as text, decoded by the declared (or, for HTML, sniffed) charset. */
  readonly text: string;
  /** The error behind `response.error`, for logs and for callers that rethrow it (EgressBlockedError). */
  readonly cause?: unknown;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const TEXTUAL = /^(text\/|application\/(xhtml\+xml|xml|json|ld\+json|javascript|rss\+xml|atom\+xml)|image\/svg\+xml)/;

/**
 * Fetches a URL through the guarded egress, following redirects by hand so that each hop is
 * recorded (and each hop's address checked). Never throws for network outcomes: they are classified
 * into `response.error`. TTFB is the final hop's request start to its response headers; total is
 * the first request start to the end of the final body.
 */
export async function fetchUrl(url: string, opts: FetchOptions): Promise<FetchResult> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxRedirects = opts.maxRedirects ?? 10;
  const maxBodyBytes = opts.maxBodyBytes ?? 5 * 1024 * 1024;
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no complete response within ${timeoutMs} ms`)), timeoutMs);
  const response = HttpResponse.fromPartial({ requestedUrl: url, finalUrl: url });
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const hopStart = performance.now();
      const init = {
        dispatcher: opts.dispatcher,
        method: opts.method ?? "GET",
        headers: {
          "user-agent": opts.userAgent ?? DEFAULT_USER_AGENT,
          "accept-encoding": "br, gzip",
          accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
          ...opts.headers,
        },
        signal: opts.signal ? AbortSignal.any([controller.signal, opts.signal]) : controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      };
      const res = await request(current, init).catch((err: unknown) => {
        // A connection closed before any answer is, most often, a kept-alive connection the server
        // had just timed out (Apache's 5 s, Node's 5 s) racing our request: the GET is sent again,
        // once, as browsers do, rather than reporting a healthy page as broken.
        if (controller.signal.aborted || opts.signal?.aborted || classifyFetchError(err, false).code !== "reset") throw err;
        return request(current, init);
      });
      const ttfb = performance.now() - hopStart;
      fillHead(response, current, res);
      response.ttfbMs = round(ttfb);
      const location = headerValue(res.headers, "location");
      const target = REDIRECT_STATUSES.has(res.statusCode) && location ? resolveHttp(location, current) : null;
      if (target) {
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        response.redirects.push(Redirect.fromPartial({ url: current, status: res.statusCode, location: target }));
        if (opts.followRedirect && !opts.followRedirect(target)) {
          response.finalUrl = target;
          response.totalMs = round(performance.now() - started);
          return { response, body: Buffer.alloc(0), text: "" };
        }
        if (hop >= maxRedirects) {
          response.error = "too_many_redirects";
          response.errorDetail = `more than ${maxRedirects} redirects`;
          response.totalMs = round(performance.now() - started);
          return { response, body: Buffer.alloc(0), text: "" };
        }
        current = target;
        continue;
      }
      const wire = await readWire(res.body, maxBodyBytes);
      const decoded = await decodeBody(wire.bytes, response.contentEncoding, maxBodyBytes);
      response.wireBytes = wire.bytes.length;
      response.bodyBytes = decoded.body.length;
      response.totalMs = round(performance.now() - started);
      if (wire.truncated || decoded.truncated) {
        response.bodyTruncated = true;
        response.error = "too_large";
        response.errorDetail = `body larger than ${maxBodyBytes} bytes; the first ${maxBodyBytes} were kept`;
      } else if (decoded.error) {
        response.errorDetail = `content-encoding ${response.contentEncoding}: ${decoded.error}`;
      }
      return { response, body: decoded.body, text: opts.decodeText === false ? "" : bodyText(response, decoded.body) };
    }
  } catch (err) {
    const { code, detail } = classifyFetchError(err, controller.signal.aborted);
    response.finalUrl = current;
    response.error = code;
    response.errorDetail = detail;
    response.totalMs = round(performance.now() - started);
    return { response, body: Buffer.alloc(0), text: "", cause: err };
  } finally {
    clearTimeout(timer);
  }
}

function fillHead(response: HttpResponse, url: string, res: Dispatcher.ResponseData): void {
  response.finalUrl = url;
  response.status = res.statusCode;
  response.headers = toHeaders(res.headers);
  response.contentEncoding = (headerValue(res.headers, "content-encoding") ?? "").toLowerCase().trim();
  const { mediaType, charset } = parseContentType(headerValue(res.headers, "content-type") ?? "");
  response.contentType = mediaType;
  response.charset = charset;
}

/** `text/html; charset="UTF-8"` → media type and charset, both lower case. */
export function parseContentType(value: string): { mediaType: string; charset: string } {
  const [type, ...params] = value.split(";");
  let charset = "";
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m) charset = (m[1] as string).toLowerCase();
  }
  return { mediaType: (type ?? "").trim().toLowerCase(), charset };
}

function toHeaders(headers: Dispatcher.ResponseData["headers"]): Header[] {
  const out: Header[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push({ name: name.toLowerCase(), value: v });
  }
  return out;
}

function headerValue(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** A Location resolved against the current URL; null unless it is http(s). */
function resolveHttp(location: string, base: string): string | null {
  try {
    const u = new URL(location, base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** A body as text by the declared (or, for HTML, sniffed) charset; empty for a non-textual type. */
export function bodyText(response: HttpResponse, body: Buffer): string {
  const isHtml = response.contentType === "text/html" || response.contentType === "application/xhtml+xml";
  if (body.length === 0 || (response.contentType !== "" && !TEXTUAL.test(response.contentType))) return "";
  const charset = response.charset || (isHtml || response.contentType === "" ? sniffHtmlCharset(body) : "");
  return bytesToText(body, charset);
}

/** A header of a recorded response (names are lower case); multiple values joined by ", ". */
export function responseHeader(response: HttpResponse, name: string): string {
  return response.headers
    .filter((h) => h.name === name)
    .map((h) => h.value)
    .join(", ");
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
