// What the monitoring truth scenarios share: a test gateway probing loopback sites on a clock the
// scenario moves slot by slot, and the reads a user makes of it (GET /uptime, /incidents, /events).
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import type { ServerCertificate } from "../harness/fixture-web/ca.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

/** The default plan's interval: one probe per host every 5 minutes. */
export const SLOT_S = 300;

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export const page = (title: string): Handler => (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<!DOCTYPE html><html lang=en><title>${title}</title><h1>${title}</h1></html>`);

/** A gateway that probes loopback sites (and trusts the test CA when given). */
export function startMonitoringGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  return startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_UPTIME_PLAN_EVERY_MS: "50", SVC_PLAN_EVERY_S: "0", SVC_PAGE_SAMPLE: "0", SVC_CONFIRM_DELAY_MS: "0", ...env } });
}

export interface LoopbackSite {
  readonly port: number;
  /** Stops listening (connections are refused) or listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function listen(server: Server | ReturnType<typeof createTcpServer>, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server | ReturnType<typeof createTcpServer>): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    (server as Server).closeAllConnections?.();
    server.close(() => resolve());
  });
}

function loopback(make: () => Server | ReturnType<typeof createTcpServer>, port: number, first: Server | ReturnType<typeof createTcpServer>): LoopbackSite {
  let server = first;
  return {
    port,
    stop: () => closeServer(server),
    async start() {
      server = make();
      await listen(server, port);
    },
    close: () => closeServer(server),
  };
}

/** A plain HTTP site on 127.0.0.1. */
export async function httpSite(handler: Handler): Promise<LoopbackSite> {
  const make = () => createHttpServer(handler);
  const server = make();
  return loopback(make, await listen(server), server);
}

/** An HTTPS site on 127.0.0.1 with the given certificate. */
export async function httpsSite(cert: ServerCertificate, handler: Handler): Promise<LoopbackSite> {
  const make = () => createHttpsServer({ key: cert.key, cert: cert.cert }, handler);
  const server = make();
  return loopback(make, await listen(server), server);
}

/**
 * One port that speaks both: TLS when the client opens with a handshake, plain HTTP otherwise
 * (what a server with both listeners behind one port does); plain HTTP redirects to https.
 */
export async function mixedSite(cert: ServerCertificate, name: string, handler: Handler): Promise<LoopbackSite> {
  const tls = createHttpsServer({ key: cert.key, cert: cert.cert }, handler);
  let port = 0;
  const plain = createHttpServer((req, res) => res.writeHead(301, { location: `https://${name}:${port}${req.url ?? "/"}` }).end());
  const make = () =>
    createTcpServer((socket: Socket) => {
      socket.once("readable", () => {
        const first = socket.read(1) as Buffer | null;
        if (!first) return void socket.destroy();
        socket.unshift(first);
        (first[0] === 0x16 ? tls : plain).emit("connection", socket);
      });
    });
  const server = make();
  port = await listen(server);
  return loopback(make, port, server);
}

export interface Uptime {
  up: boolean | null;
  state: string;
  since: number | null;
  uptime_24h: number | null;
  probes: { last_24h: { probes: number; failed: number } };
  incidents: { kind: string; status: string; first_seen: number; resolved_at: number | null; duration: number; cause: string }[];
}

export const nowS = (gw: TestGateway): number => Math.floor(gw.clock.nowMs() / 1000);

/**
 * Waits (reading the store, not the API: polling would spend the key's hourly limit) until every
 * host's probe of the current clock time has been settled (and its confirmation, if any).
 */
export async function settled(gw: TestGateway, hosts: readonly string[], until: (state: string) => boolean = () => true): Promise<void> {
  const at = nowS(gw);
  for (let i = 0; i < 600; i++) {
    const targets = await Promise.all(hosts.map((h) => gw.store.uptime.target(h)));
    if (targets.every((t) => t && Number(t.last_check) === at && t.state !== "suspect" && until(t.state))) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no settled probe at ${at}: ${JSON.stringify(await Promise.all(hosts.map((h) => gw.store.uptime.target(h))))}`);
}

/** Moves the clock one slot on and waits for every host's probe of it; returns the slot's time. */
export async function nextSlot(gw: TestGateway, hosts: readonly string[], until?: (state: string) => boolean): Promise<number> {
  gw.clock.advance(SLOT_S * 1000);
  await settled(gw, hosts, until);
  return nowS(gw);
}

/** Waits until the planner has brought every host into the uptime targets. */
export async function targetsSynced(gw: TestGateway, hosts: readonly string[]): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await Promise.all(hosts.map((h) => gw.store.uptime.target(h)))).every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the uptime targets were not synced");
}

export const uptime = async (gw: TestGateway, host: string): Promise<Uptime> => (await gw.call("GET", `/api/v1/uptime/${host}`)).json<Uptime>();

export async function events(gw: TestGateway, host: string, type?: string): Promise<{ kind: string; level: string; text: string }[]> {
  const q = type ? `&type=${type}` : "";
  return (await gw.call("GET", `/api/v1/events?host=${encodeURIComponent(host)}${q}&days=30`)).json<{ events: { kind: string; level: string; text: string }[] }>().events.reverse();
}
