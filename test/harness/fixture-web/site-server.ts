import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import { gzipSync } from "node:zlib";
import type { ServerCertificate } from "./ca.ts";

// The web servers of one fixture site: node:http on <address>:80 and node:https on <address>:443
// (keep-alive on), answering by Host like a virtual host would: http→https and www→apex redirects,
// HSTS, gzip, a proper or a soft 404, and an optional delay on every answer.

export interface Resource {
  /** Default 200. */
  readonly status?: number;
  readonly type: string;
  readonly body: string | Buffer;
}

/** What the www name does: redirect to the apex (301 or 302), serve the same pages, or not exist in DNS. */
export type WwwPolicy = "redirect-301" | "redirect-302" | "duplicate" | "absent";

export interface SiteBehaviour {
  readonly domain: string;
  readonly address: string;
  readonly certificate: ServerCertificate;
  /** http:// answers 301 to the same path on https:// of the apex. */
  readonly httpToHttps: boolean;
  readonly www: WwwPolicy;
  /** Strict-Transport-Security on https answers, or null. */
  readonly hsts: string | null;
  /** Text answers of 256 bytes or more are gzipped for clients that accept it. */
  readonly gzip: boolean;
  /** Every answer waits this long (a slow backend). */
  readonly delayMs: number;
  /**
   * The pages and files by path (no query), and the answer to unknown paths (a 404 page, or a soft
   * 404 with 200), built once the port suffix of the site's URLs is known.
   */
  content(portSuffix: string): SiteContent;
}

export interface SiteContent {
  readonly resources: ReadonlyMap<string, Resource>;
  readonly notFound: Resource;
}

export interface RequestLogEntry {
  readonly scheme: "http" | "https";
  readonly host: string;
  readonly path: string;
  readonly status: number;
  readonly userAgent: string;
}

/** "standard": ports 80 and 443; "high": one free port speaking both http and https (first byte decides). */
export type PortMode = "standard" | "high";

export interface RunningSite {
  /** "" on 80/443, ":<port>" in high-port mode: what follows the host name in URLs and site names. */
  readonly portSuffix: string;
  readonly log: RequestLogEntry[];
  close(): Promise<void>;
}

const TEXTUAL = /^(text\/|application\/(xml|json|ld\+json|javascript)|image\/svg\+xml)/;

/** Starts the site's servers; in standard mode a port that cannot be bound rejects (EADDRINUSE, EACCES). */
export async function startSiteServers(site: SiteBehaviour, mode: PortMode): Promise<RunningSite> {
  const log: RequestLogEntry[] = [];
  let content: SiteContent = { resources: new Map(), notFound: { status: 503, type: "text/plain", body: "starting" } };
  const current = () => content;
  const http = createHttpServer({ keepAlive: true, keepAliveTimeout: 5_000 }, handler(site, current, "http", log));
  const https = createHttpsServer({ key: site.certificate.key, cert: site.certificate.cert, keepAlive: true, keepAliveTimeout: 5_000 }, handler(site, current, "https", log));
  if (mode === "standard") {
    content = site.content("");
    await listen(http, 80, site.address);
    try {
      await listen(https, 443, site.address);
    } catch (err) {
      await closeServer(http);
      throw err;
    }
    return { portSuffix: "", log, close: async () => void (await Promise.all([closeServer(http), closeServer(https)])) };
  }
  const dual = dualProtocol(http, https);
  await listen(dual, 0, site.address);
  const portSuffix = `:${(dual.address() as { port: number }).port}`;
  content = site.content(portSuffix);
  return { portSuffix, log, close: async () => void (await Promise.all([closeServer(dual), closeServer(http), closeServer(https)])) };
}

function handler(site: SiteBehaviour, content: () => SiteContent, scheme: "http" | "https", log: RequestLogEntry[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const hostHeader = (req.headers.host ?? site.domain).toLowerCase();
    const colon = hostHeader.lastIndexOf(":");
    const hostname = colon > 0 ? hostHeader.slice(0, colon) : hostHeader;
    const portPart = colon > 0 ? hostHeader.slice(colon) : "";
    const path = req.url ?? "/";
    const pathname = path.split("?")[0] ?? "/";
    const send = (status: number, headers: Record<string, string>, body: string | Buffer) => {
      log.push({ scheme, host: hostHeader, path, status, userAgent: req.headers["user-agent"] ?? "" });
      const common: Record<string, string> = { server: "nginx/1.24.0", "cache-control": "public, max-age=300" };
      if (scheme === "https" && site.hsts) common["strict-transport-security"] = site.hsts;
      res.writeHead(status, { ...common, ...headers, "content-length": String(Buffer.byteLength(body)) });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    const redirect = (status: 301 | 302, location: string) =>
      send(status, { location, "content-type": "text/html; charset=utf-8" }, `<html><head><title>${status} Moved</title></head><body><h1>Moved</h1><a href="${location}">${location}</a></body></html>`);

    const respond = () => {
      const onWww = hostname === `www.${site.domain}`;
      if (scheme === "http" && site.httpToHttps) return redirect(301, `https://${onWww && site.www === "redirect-301" ? site.domain : hostname}${portPart}${path}`);
      if (onWww && (site.www === "redirect-301" || site.www === "redirect-302")) return redirect(site.www === "redirect-301" ? 301 : 302, `${scheme}://${site.domain}${portPart}${path}`);
      const { resources, notFound } = content();
      const resource = resources.get(pathname) ?? notFound;
      const headers: Record<string, string> = { "content-type": resource.type };
      let body = typeof resource.body === "string" ? Buffer.from(resource.body) : resource.body;
      if (site.gzip && TEXTUAL.test(resource.type)) {
        headers.vary = "Accept-Encoding";
        if (body.length >= 256 && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
          body = gzipSync(body);
          headers["content-encoding"] = "gzip";
        }
      }
      send(resource.status ?? 200, headers, body);
    };
    if (site.delayMs > 0) setTimeout(respond, site.delayMs);
    else respond();
  };
}

/** One port for both schemes: a TLS ClientHello starts with 0x16, anything else is plain HTTP. */
function dualProtocol(http: HttpServer, https: HttpsServer): NetServer {
  return createNetServer((socket) => {
    socket.once("data", (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? https : http).emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
  });
}

function listen(server: NetServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

function closeServer(server: NetServer | HttpServer | HttpsServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    if ("closeAllConnections" in server) server.closeAllConnections();
  });
}
