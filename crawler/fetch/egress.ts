import { promises as dnsPromises } from "node:dns";
import { connect as netConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect, createSecureContext, rootCertificates } from "node:tls";
import { nameRefused, refusedRange, type TargetPolicy } from "../../runtime/index.ts";
import { Agent, buildConnector, type Dispatcher } from "undici";

/** The one SSRF guard: every connection to a user-supplied address goes through an Egress. */
export interface EgressOptions {
  /** Allow private, loopback and other non-public addresses (tests, intranets); never link-local or metadata ones. */
  readonly allowPrivateTargets: boolean;
  /** Link-local and metadata addresses, networks and names allowed anyway (SVC_ALLOW_LINK_LOCAL_TARGETS). */
  readonly allowLinkLocal?: readonly string[];
  /** DNS servers as `ip` or `ip:port` (`[ipv6]:port`); empty = the system's. */
  readonly dnsServers: readonly string[];
  /** PEM certificates trusted in addition to the default CAs. */
  readonly extraCa: string | null;
  readonly connectTimeoutMs: number;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** DNS as a port: all A and AAAA addresses of a name. Rejects with a Node DNS error (code ENOTFOUND, ETIMEOUT…). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const BLOCKED_PRIVATE_ADDRESS = "blocked_private_address";

/** A target that resolves only to addresses the egress policy refuses. */
export class EgressBlockedError extends Error {
  readonly reason = BLOCKED_PRIVATE_ADDRESS;
  readonly code = BLOCKED_PRIVATE_ADDRESS;
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host} resolves to ${address} (${range}), which is not a public address`);
    this.name = "EgressBlockedError";
  }
}

/** Connection timings of a dispatcher's first connection (ms), null until it connected. */
export interface ConnectTimings {
  /** From dialling the validated address to the TCP connection. */
  connectMs: number | null;
  /** From the TCP connection to the end of the TLS handshake; 0 for http://. */
  tlsMs: number | null;
}

/** A guarded dispatcher of its own, fresh connections only, that times its first connection. */
export interface TimedDispatcher {
  readonly dispatcher: Dispatcher;
  readonly timings: ConnectTimings;
  close(): Promise<void>;
}

export interface Egress {
  /** An undici dispatcher that connects only to validated addresses. */
  readonly dispatcher: Dispatcher;
  /**
   * A dispatcher for one measurement (an uptime probe): the same guard, no connection shared with
   * other requests, connect and TLS times of its first connection recorded. Close it after use.
   */
  timed(): TimedDispatcher;
  readonly options: EgressOptions;
  /** The CA list for node:tls (undefined = Node's defaults). */
  readonly ca: string[] | undefined;
  /** Resolves once and returns the first address the policy allows; throws EgressBlockedError otherwise. */
  resolve(host: string): Promise<ResolvedAddress>;
  close(): Promise<void>;
}

export interface EgressDeps {
  readonly resolver?: Resolver;
}

/**
 * Why an address is refused as a target when private targets are not allowed, or null when it is
 * public unicast. IPv4 embedded in IPv6 (mapped, ::/96, 6to4, NAT64, Teredo) is judged by the
 * IPv4 address it carries (runtime/target-address.ts, shared with the gateway's host check).
 */
export function blockedRange(address: string): string | null {
  return refusedRange(address, { allowPrivateTargets: false, allowLinkLocal: [] });
}

/** A Resolver on node:dns (c-ares): A and AAAA from the given servers, or the system's when empty. */
export function dnsResolver(dnsServers: readonly string[], timeoutMs = 5000): Resolver {
  const resolver = createDnsClient(dnsServers, timeoutMs);
  return async (host) => {
    // RFC 6761: localhost names never leave the machine.
    if (host === "localhost" || host.endsWith(".localhost")) {
      return [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }];
    }
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const out: ResolvedAddress[] = [];
    if (v4.status === "fulfilled") out.push(...v4.value.map((address) => ({ address, family: 4 as const })));
    if (v6.status === "fulfilled") out.push(...v6.value.map((address) => ({ address, family: 6 as const })));
    if (out.length > 0) return out;
    // On the system's servers, names the system itself resolves (/etc/hosts: intranets, test
    // machines) resolve here too, as they do for the DNS facts (systemAddresses).
    if (dnsServers.length === 0) {
      const local = await systemAddresses(host);
      if (local.length > 0) return local;
    }
    // Both failed or were empty: report the more telling error (NXDOMAIN over "no data").
    const errors = [v4, v6].flatMap((r) => (r.status === "rejected" ? [r.reason as NodeJS.ErrnoException] : []));
    throw errors.find((e) => e.code !== "ENODATA") ?? errors[0] ?? dnsError(host, "ENODATA");
  };
}

/**
 * The addresses the operating system gives a name (getaddrinfo: /etc/hosts, then its resolver),
 * or none. Asked only when DNS had no answer and no DNS servers were configured, so that the
 * fetcher and the DNS checks agree on names an intranet keeps in /etc/hosts.
 */
export async function systemAddresses(host: string): Promise<ResolvedAddress[]> {
  try {
    const found = await dnsPromises.lookup(host, { all: true, verbatim: true });
    return found.filter((a) => a.family === 4 || a.family === 6).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  } catch {
    return [];
  }
}

/** A c-ares resolver on the configured servers; shared with the DNS facts. */
export function createDnsClient(dnsServers: readonly string[], timeoutMs: number): dnsPromises.Resolver {
  const resolver = new dnsPromises.Resolver({ timeout: timeoutMs, tries: 2 });
  if (dnsServers.length > 0) resolver.setServers([...dnsServers]);
  return resolver;
}

function dnsError(host: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`query ${code} ${host}`), { code, hostname: host });
}

/**
 * Resolves `host` (an IP literal is used as is) and returns the first address the policy allows.
 * Connecting to exactly this address is what prevents DNS rebinding.
 */
export async function resolveTarget(host: string, resolver: Resolver, policy: TargetPolicy): Promise<ResolvedAddress> {
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  const literal = isIP(bare);
  if (literal === 0 && nameRefused(bare, policy)) throw new EgressBlockedError(bare, bare, "metadata");
  const addresses: ResolvedAddress[] = literal !== 0 ? [{ address: bare, family: literal as 4 | 6 }] : await resolver(bare);
  if (addresses.length === 0) throw dnsError(bare, "ENODATA");
  let refused: { address: string; range: string } | null = null;
  for (const candidate of addresses) {
    const range = refusedRange(candidate.address, policy);
    if (range === null) return candidate;
    refused ??= { address: candidate.address, range };
  }
  const first = refused as { address: string; range: string };
  throw new EgressBlockedError(bare, first.address, first.range);
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Builds the guarded egress: resolver, policy and an undici Agent that pins each connection. */
export function createEgress(options: EgressOptions, deps: EgressDeps = {}): Egress {
  const resolver = deps.resolver ?? dnsResolver(options.dnsServers, options.connectTimeoutMs);
  const ca = options.extraCa ? [...rootCertificates, options.extraCa] : undefined;
  const policy: TargetPolicy = { allowPrivateTargets: options.allowPrivateTargets, allowLinkLocal: options.allowLinkLocal ?? [] };
  const resolve = (host: string) => resolveTarget(host, resolver, policy);
  // One secure context for every connection: passing `ca` to each tls.connect would parse the
  // whole root store again per connection (about 20 ms of CPU each, measured by bench:uptime).
  const secureContext = ca ? createSecureContext({ ca }) : undefined;
  const inner = buildConnector({ timeout: options.connectTimeoutMs, ...(secureContext ? { secureContext } : {}) });

  // A connector rather than `connect.lookup`: Node skips `lookup` for IP-literal hosts, which would
  // let http://127.0.0.1/ through. Here every connection, named or literal, is resolved once and
  // dialled at the validated address, with SNI (and undici's Host header) kept on the name.
  const connector: buildConnector.connector = (opts, callback) => {
    resolve(opts.hostname).then(
      ({ address }) => {
        const servername = isIP(opts.hostname) === 0 ? opts.hostname : undefined;
        inner({ ...opts, hostname: address, ...(servername ? { servername } : {}) }, callback);
      },
      (err: Error) => callback(err, null),
    );
  };
  const agent = new Agent({ connect: connector });
  const timed = (): TimedDispatcher => {
    const timings: ConnectTimings = { connectMs: null, tlsMs: null };
    // Its own dialling, so that TCP and TLS are timed apart: net.connect, then tls over that socket.
    const timedConnector: buildConnector.connector = (opts, callback) => {
      resolve(opts.hostname).then(
        ({ address }) => {
          const servername = isIP(opts.hostname) === 0 ? opts.hostname : undefined;
          const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
          const t0 = performance.now();
          let settled = false;
          const finish = (err: Error | null, socket: Socket | null, tcpAt: number) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            if (err || !socket) {
              tcp.destroy();
              callback(err ?? new Error("connect failed"), null);
              return;
            }
            if (timings.connectMs === null) {
              timings.connectMs = round1(tcpAt - t0);
              timings.tlsMs = opts.protocol === "https:" ? round1(performance.now() - tcpAt) : 0;
            }
            callback(null, socket);
          };
          const tcp = netConnect({ host: address, port });
          const timer = setTimeout(() => finish(Object.assign(new Error("connect timeout"), { code: "UND_ERR_CONNECT_TIMEOUT" }), null, 0), options.connectTimeoutMs);
          tcp.once("error", (err) => finish(err, null, 0));
          tcp.once("connect", () => {
            const tcpAt = performance.now();
            if (opts.protocol !== "https:") return finish(null, tcp, tcpAt);
            const secure = tlsConnect({ socket: tcp, host: opts.hostname, ...(servername ? { servername } : {}), ALPNProtocols: ["http/1.1"], ...(secureContext ? { secureContext } : {}) });
            secure.once("error", (err: Error) => finish(err, null, tcpAt));
            secure.once("secureConnect", () => finish(null, secure, tcpAt));
          });
        },
        (err: Error) => callback(err, null),
      );
    };
    const own = new Agent({ connect: timedConnector, pipelining: 0 });
    return { dispatcher: own, timings, close: () => own.close() };
  };
  return {
    dispatcher: agent,
    timed,
    options,
    ca,
    resolve,
    close: () => agent.close(),
  };
}
