import type { CrawlSite, RequestLogEntry } from "./serve-crawl-site.ts";
import { smallPages, smallSiteRoutes } from "./small-site.ts";

// A small site that first asks to be left alone: every request among the first N, or within the
// first T ms after the first request, gets 429 (or 503) with Retry-After; then it serves normally.
// `violations` reads the server's request log and names the requests that came back too early.

export interface ThrottlingOptions {
  /** Requests answered with `status` before the site serves normally (exempt paths count too). Default 3. */
  readonly throttleRequests?: number;
  /** Also throttle every request arriving within this many ms of the first. Default 0. */
  readonly throttleMs?: number;
  /** Default 429. */
  readonly status?: 429 | 503;
  /** The Retry-After value in seconds. Default 1. */
  readonly retryAfterS?: number;
  /** Paths never throttled (e.g. "/robots.txt"). Default none. */
  readonly exemptPaths?: readonly string[];
  /** HTML pages (the home page included). Default 20. */
  readonly pages?: number;
}

export interface ThrottlingManifest {
  readonly origin: string;
  /** Every page, all linked from `/`, sorted. */
  readonly pages: string[];
  readonly throttleRequests: number;
  readonly throttleMs: number;
  readonly status: 429 | 503;
  readonly retryAfterS: number;
}

export interface ThrottlingSite {
  readonly site: CrawlSite;
  manifest(origin: string): ThrottlingManifest;
}

export function throttlingSite(opts: ThrottlingOptions = {}): ThrottlingSite {
  const throttleRequests = opts.throttleRequests ?? 3;
  const throttleMs = opts.throttleMs ?? 0;
  const status = opts.status ?? 429;
  const retryAfterS = opts.retryAfterS ?? 1;
  const exempt = new Set(opts.exemptPaths ?? []);
  const pages = smallPages(429, Array.from({ length: (opts.pages ?? 20) - 1 }, (_, i) => `/p/${i + 1}`));
  const text = status === 429 ? "Too Many Requests" : "Service Unavailable";
  return {
    site: {
      name: `throttling-${status}`,
      routes: (origin) => smallSiteRoutes(pages, origin),
      handle: (req) =>
        !exempt.has(req.url.pathname) && (req.index < throttleRequests || req.sinceFirstMs < throttleMs)
          ? { status, type: "text/plain; charset=utf-8", headers: { "retry-after": String(retryAfterS) }, body: `${status} ${text}: slow down.\n` }
          : undefined,
    },
    manifest: (origin) => ({ origin, pages: pages.map((p) => new URL(p.path, origin).href).sort(), throttleRequests, throttleMs, status, retryAfterS }),
  };
}

export interface Violation {
  /** The request that came too early. */
  readonly request: RequestLogEntry;
  /** The throttling answer whose Retry-After it did not wait for. */
  readonly throttledBy: RequestLogEntry;
  /** How much sooner than allowed it arrived. */
  readonly earlyByMs: number;
}

/**
 * Requests that arrived before the Retry-After of an earlier answer to the same user agent had
 * elapsed. Only order and lower bounds: a request counts only if it arrived after that answer
 * was sent and the client must have seen the answer first, so the one request per other
 * connection that may have been in flight when the answer went out is forgiven (HTTP/1.1 sends
 * one request at a time per connection). Retry-After is read as delay-seconds. `toleranceMs`
 * allows for timers that fire a millisecond early.
 */
export function violations(log: readonly RequestLogEntry[], opts: { toleranceMs?: number } = {}): Violation[] {
  const tolerance = opts.toleranceMs ?? 5;
  const byArrival = [...log].sort((a, b) => a.time - b.time);
  const out: Violation[] = [];
  for (const request of byArrival) {
    let worst: Violation | null = null;
    for (const answer of log) {
      const seconds = Number(answer.retryAfter);
      if (answer === request || answer.retryAfter === undefined || !Number.isFinite(seconds) || answer.userAgent !== request.userAgent) continue;
      if (answer.sentAt >= request.time) continue;
      const earlyByMs = answer.sentAt + seconds * 1000 - tolerance - request.time;
      if (earlyByMs <= 0) continue;
      const inFlight =
        request.connection !== answer.connection &&
        !byArrival.some((r) => r !== request && r.connection === request.connection && r.time > answer.sentAt && r.time < request.time);
      if (inFlight) continue;
      if (!worst || earlyByMs > worst.earlyByMs) worst = { request, throttledBy: answer, earlyByMs };
    }
    if (worst) out.push(worst);
  }
  return out;
}
