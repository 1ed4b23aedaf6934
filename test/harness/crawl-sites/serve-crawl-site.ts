import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";

// One HTTP server for any crawl fixture site: node:http on 127.0.0.1 (a free port, keep-alive),
// answering from the site's data and logging every request with a monotonic time and the
// connection it came on, so tests can check a crawler's order and pauses without wall clocks.

/** One answer. */
export interface Route {
  /** Default 200. */
  readonly status?: number;
  /** Content-Type; default text/html; charset=utf-8. */
  readonly type?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** What a dynamic handler is told about a request. */
export interface SiteRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly target: string;
  readonly url: URL;
  readonly userAgent: string;
  /** 0 for the first request this server received. */
  readonly index: number;
  /** Milliseconds since this server's first request (0 for the first). */
  readonly sinceFirstMs: number;
}

/** A site as data, plus an optional handler for what data cannot list (traps, throttling). */
export interface CrawlSite {
  readonly name: string;
  /** Answers by request target (path and query) or, failing that, by path alone; built once per server. */
  routes(origin: string): ReadonlyMap<string, Route>;
  /** Asked before the routes; undefined falls through to them. Must be a pure function of its arguments. */
  readonly handle?: (req: SiteRequest, origin: string) => Route | undefined;
  /** What unknown URLs get; default a small 404 page. */
  readonly notFound?: Route;
}

export interface RequestLogEntry {
  readonly method: string;
  /** Path and query as sent. */
  readonly path: string;
  /** When the request arrived: ms on a monotonic clock (performance.now()). */
  readonly time: number;
  /** When the answer was written (later than `time` only with `delayMs`). */
  readonly sentAt: number;
  readonly status: number;
  readonly userAgent: string;
  /** 1, 2, …: which TCP connection carried it. */
  readonly connection: number;
  /** The Retry-After header sent, if any. */
  readonly retryAfter?: string;
}

export interface ServeOptions {
  /** Every answer waits this long (a slow backend). Default 0. */
  readonly delayMs?: number;
}

export interface CrawlSiteServer {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** 127.0.0.1:PORT */
  readonly host: string;
  /** Every request, in the order answered. */
  readonly requests: RequestLogEntry[];
  close(): Promise<void>;
}

export const HTML_TYPE = "text/html; charset=utf-8";

const NOT_FOUND: Route = {
  status: 404,
  body: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head><body><h1>Page not found</h1><p><a href="/">Home</a></p></body></html>\n`,
};

/** The static route a request target answers with: exact target first, then its path without the query. */
export function lookupRoute(routes: ReadonlyMap<string, Route>, target: string): { key: string; route: Route } | undefined {
  const exact = routes.get(target);
  if (exact) return { key: target, route: exact };
  const path = target.split("?")[0] ?? target;
  const byPath = routes.get(path);
  return byPath ? { key: path, route: byPath } : undefined;
}

/** Serves the site on 127.0.0.1 at a free port. */
export async function serveCrawlSite(site: CrawlSite, opts: ServeOptions = {}): Promise<CrawlSiteServer> {
  const requests: RequestLogEntry[] = [];
  const connections = new WeakMap<Socket, number>();
  // Bodies are encoded once: the oversized page is megabytes of string.
  const encoded = new WeakMap<Route, Buffer>();
  const bodyOf = (route: Route): Buffer => {
    if (Buffer.isBuffer(route.body)) return route.body;
    let body = encoded.get(route);
    if (!body) encoded.set(route, (body = Buffer.from(route.body ?? "")));
    return body;
  };
  let connectionCount = 0;
  let firstAt: number | null = null;
  let origin = "";
  let routes: ReadonlyMap<string, Route> = new Map();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const time = performance.now();
    firstAt ??= time;
    const target = req.url ?? "/";
    const userAgent = req.headers["user-agent"] ?? "";
    const request: SiteRequest = { method: req.method ?? "GET", target, url: new URL(target, origin), userAgent, index: requests.length, sinceFirstMs: time - firstAt };
    const route = site.handle?.(request, origin) ?? lookupRoute(routes, target)?.route ?? site.notFound ?? NOT_FOUND;
    const connection = connections.get(req.socket) ?? 0;
    const answer = () => {
      const status = route.status ?? 200;
      const body = bodyOf(route);
      const headers: Record<string, string> = { "content-type": route.type ?? HTML_TYPE, ...route.headers, "content-length": String(body.length) };
      const retryAfter = headers["retry-after"];
      requests.push({ method: request.method, path: target, time, sentAt: performance.now(), status, userAgent, connection, ...(retryAfter === undefined ? {} : { retryAfter }) });
      res.writeHead(status, headers);
      res.end(request.method === "HEAD" ? undefined : body);
    };
    if (opts.delayMs && opts.delayMs > 0) setTimeout(answer, opts.delayMs);
    else answer();
  });
  server.keepAliveTimeout = 5_000;
  server.on("connection", (socket: Socket) => connections.set(socket, ++connectionCount));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  const host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  routes = site.routes(origin);
  return {
    origin,
    host,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
