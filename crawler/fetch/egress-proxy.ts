// The browser's way out: a forward proxy on loopback through which Chromium makes every connection
// of a measured page. Chromium never resolves a name itself (the proxy does, through the egress
// guard and its DNS servers) and the proxy dials exactly the address it admitted, so a name that
// resolves to a public address for the check and to a private one for the browser (DNS rebinding)
// cannot reach the private one.
//
// It asks for no credentials. Playwright answers a proxy's authentication challenge by pausing every
// request of the context in Node (Fetch.enable with handleAuthRequests over every URL, and the cache
// disabled): a round trip through the driver before each request, which put Svc's TTFB, FCP and
// LCP 13-560 ms behind Lighthouse's on loopback pages (bench:browser, docs/benchmarks.md). What the
// credentials guarded is small: the proxy listens on loopback only, for one measurement, and
// admits only what `admit` allows (the measured site, third parties as configured) at addresses
// the egress guard accepts; a local process gains nothing it could not reach directly.
//
// It lives with the egress because it opens connections: each through the egress's dialler, at the
// address `admit` returned (judged again by the policy as a literal).
import { Agent, createServer, request as httpRequest, type AgentOptions, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { EgressBlockedError, type Egress, type ResolvedAddress } from "./egress.ts";

/** Admits a target (throws to refuse it): the address to dial. */
export type AdmitTarget = (hostname: string, port: number) => Promise<ResolvedAddress>;

export interface EgressProxy {
  /** http://127.0.0.1:<port>, for Chromium's proxy setting. */
  readonly server: string;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  readonly connectTimeoutMs: number;
}

const HOP_BY_HOP = new Set(["proxy-authorization", "proxy-connection", "connection", "keep-alive"]);

/** Starts a proxy that admits each target with `admit` and dials the address it returns through the egress. */
export async function startEgressProxy(admit: AdmitTarget, egress: Pick<Egress, "dial">, options: EgressProxyOptions): Promise<EgressProxy> {
  const sockets = new Set<Socket>();
  const server = createServer();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });

  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    return socket;
  };
  const dialAddress = async (address: string, port: number): Promise<Socket> => track((await egress.dial(address, port, { timeoutMs: options.connectTimeoutMs })).socket);
  const dial = async (hostname: string, port: number): Promise<Socket> => dialAddress((await admit(hostname, port)).address, port);

  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on("error", () => client.destroy());
    const target = authority(req.url ?? "");
    if (!target) return void client.end(refusal(400));
    dial(target.hostname, target.port).then(
      (upstream) => {
        upstream.on("error", () => client.destroy());
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
      (err: unknown) => client.end(refusal(err instanceof EgressBlockedError ? 403 : 502)),
    );
  });

  // Plain http:// requests arrive in absolute form; they go out on a keep-alive pool, each to the
  // admitted address with the Host header of the name.
  const agent = new DialAgent({ keepAlive: true, maxSockets: 6 }, dialAddress);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return void res.writeHead(400).end();
    }
    if (url.protocol !== "http:") return void res.writeHead(400).end();
    const port = Number(url.port || 80);
    admit(url.hostname.replace(/^\[|\]$/g, ""), port).then(
      ({ address }) => forward(req, res, { agent, address, port, path: `${url.pathname}${url.search}`, timeoutMs: options.connectTimeoutMs }),
      (err: unknown) => res.writeHead(err instanceof EgressBlockedError ? 403 : 502).end(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A keep-alive pool whose connections the egress dials (to the admitted address a request names as its host). */
class DialAgent extends Agent {
  constructor(
    options: AgentOptions,
    private readonly dialAddress: (address: string, port: number) => Promise<Socket>,
  ) {
    super(options);
  }

  override createConnection(options: { host?: string | null; port?: number | string | null }, done: (err: Error | null, socket: Duplex) => void): Duplex | undefined {
    this.dialAddress(String(options.host), Number(options.port)).then(
      (socket) => done(null, socket),
      (err: Error) => done(err, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

interface Upstream {
  readonly agent: Agent;
  readonly address: string;
  readonly port: number;
  readonly path: string;
  readonly timeoutMs: number;
}

function forward(req: IncomingMessage, res: ServerResponse, to: Upstream): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  const upstream = httpRequest({ agent: to.agent, host: to.address, port: to.port, method: req.method, path: to.path, headers, setHost: false, timeout: to.timeoutMs });
  upstream.on("response", (answer) => {
    const raw: string[] = [];
    for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
      const name = answer.rawHeaders[i] as string;
      if (!HOP_BY_HOP.has(name.toLowerCase())) raw.push(name, answer.rawHeaders[i + 1] as string);
    }
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, raw);
    answer.pipe(res);
  });
  upstream.on("timeout", () => upstream.destroy(new Error("upstream timed out")));
  upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  req.pipe(upstream);
}

function refusal(status: 400 | 403 | 502): string {
  const reason = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway" }[status];
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
}

/** host:port of a CONNECT request ([v6]:port included); null when it is not one. */
function authority(text: string): { hostname: string; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(text);
  const hostname = m?.[1] ?? m?.[2];
  const port = Number(m?.[3]);
  if (!hostname || !(port >= 1 && port <= 65535)) return null;
  if (m?.[1] && isIP(hostname) !== 6) return null;
  return { hostname, port };
}
