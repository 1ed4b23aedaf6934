import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { ServerCertificate } from "../fixture-web/ca.ts";

// A loopback site for the network utilities: routes are handlers the test writes (status, headers
// and body exactly as a real server would send them), over HTTP or HTTPS with a test-CA certificate.

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface UtilitySite {
  /** http://127.0.0.1:<port> (or https://localhost:<port> with a certificate). */
  readonly origin: string;
  readonly port: number;
  readonly routes: Map<string, Route>;
  /** Every request as "METHOD path user-agent". */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startUtilitySite(opts: { cert?: ServerCertificate; host?: string } = {}): Promise<UtilitySite> {
  const routes = new Map<string, Route>();
  const requests: string[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    requests.push(`${req.method} ${req.url} ${req.headers["user-agent"] ?? ""}`);
    const route = routes.get(path);
    if (route) route(req, res);
    else res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end("<!DOCTYPE html><title>Not found</title><h1>Not found</h1>");
  };
  const server: Server = opts.cert ? createHttpsServer({ key: opts.cert.key, cert: opts.cert.cert }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const host = opts.host ?? "127.0.0.1";
  return {
    origin: `${opts.cert ? "https" : "http"}://${host}:${port}`,
    port,
    routes,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
