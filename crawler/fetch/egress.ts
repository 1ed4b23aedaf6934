import { promises as dnsPromises } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { nameRefused, refusedRange, type TargetPolicy } from "../../runtime/index.ts";
import { Agent, buildConnector, request as undiciRequest, type Dispatcher } from "undici";
import { createDial, secureContexts, type Dial, type ResolvedAddress } from "./dial.ts";

export type { ResolvedAddress } from "./dial.ts";

// The one egress of a crawler node: one policy (resolveTarget: which names and addresses may be
// reached), one dialler (dial.ts) and the undici dispatchers over them. Page fetches, uptime
// probes, webhook sends, the browser's proxy, TLS and DNS facts and the network utilities all
// connect through an Egress; nothing else in crawler/ opens a socket (eslint enforces it).

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

/** undici's request options, without a dispatcher of one's own. */
export type EgressRequestInit = Omit<NonNullable<Parameters<typeof undiciRequest>[1]>, "dispatcher">;

export interface Egress {
  /** An undici dispatcher that connects only to validated addresses. */
  readonly dispatcher: Dispatcher;
  /** One HTTP request through `dispatcher` (undici's `request`; redirects are not followed). */
  request(url: string | URL, init?: EgressRequestInit): ReturnType<typeof undiciRequest>;
  /**
   * A socket to host:port (TLS over it with `tls`): the host resolved once, judged by the policy
   * and dialled at the judged address. Throws EgressBlockedError for a refused target.
   */
  readonly dial: Dial;
  /**
   * A dispatcher for one measurement (an uptime probe): the same guard, no connection shared with
   * other requests, connect and TLS times of its first connection recorded. Close it after use.
   */
  timed(): TimedDispatcher;
  readonly options: EgressOptions;
  /** Resolves once and returns the first address the policy allows; throws EgressBlockedError otherwise. */
  resolve(host: string): Promise<ResolvedAddress>;
  /** Every address of a host the policy allows, in the resolver's order; throws EgressBlockedError when none is. */
  resolveAll(host: string): Promise<ResolvedAddress[]>;
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
 * The address an IPv4 literal in any form inet_aton reads stands for (`127.1`, `0x7f.1`,
 * `0177.0.0.1`, `2130706433`), or null. The WHATWG URL parser turns these into dotted quads, but a
 * host that arrives bare (a utility's input, a CONNECT line) would otherwise be taken for a name,
 * and getaddrinfo would answer it with the very address.
 */
export function numericIPv4(host: string): string | null {
  if (!/^[0-9a-fA-FxX.]+$/.test(host) || !/^[0-9]/.test(host) || !ipaddr.IPv4.isValid(host)) return null;
  return ipaddr.IPv4.parse(host).toString();
}

/**
 * Every address of `host` the policy allows (an IP literal, in any IPv4 form, is judged as is;
 * a metadata service's name is refused before it is resolved). Throws EgressBlockedError when
 * none is allowed.
 */
export async function admittedAddresses(host: string, resolver: Resolver, policy: TargetPolicy): Promise<ResolvedAddress[]> {
  const bare = (host.startsWith("[") ? host.slice(1, -1) : host).replace(/\.$/, "");
  const numeric = isIP(bare) !== 0 ? bare : numericIPv4(bare);
  if (numeric === null && nameRefused(bare, policy)) throw new EgressBlockedError(bare, bare, "metadata");
  const addresses: ResolvedAddress[] = numeric !== null ? [{ address: numeric, family: isIP(numeric) as 4 | 6 }] : await resolver(bare);
  if (addresses.length === 0) throw dnsError(bare, "ENODATA");
  const allowed = addresses.filter((candidate) => refusedRange(candidate.address, policy) === null);
  if (allowed.length > 0) return allowed;
  const first = addresses[0] as ResolvedAddress;
  throw new EgressBlockedError(bare, first.address, refusedRange(first.address, policy) ?? "refused");
}

/**
 * Resolves `host` and returns the first address the policy allows (admittedAddresses).
 * Connecting to exactly this address is what prevents DNS rebinding.
 */
export async function resolveTarget(host: string, resolver: Resolver, policy: TargetPolicy): Promise<ResolvedAddress> {
  return (await admittedAddresses(host, resolver, policy))[0] as ResolvedAddress;
}

/** Builds the guarded egress: resolver, policy, the dialler and an undici Agent that pins each connection. */
export function createEgress(options: EgressOptions, deps: EgressDeps = {}): Egress {
  const resolver = deps.resolver ?? dnsResolver(options.dnsServers, options.connectTimeoutMs);
  const policy: TargetPolicy = { allowPrivateTargets: options.allowPrivateTargets, allowLinkLocal: options.allowLinkLocal ?? [] };
  const resolveAll = (host: string) => admittedAddresses(host, resolver, policy);
  const resolve = (host: string) => resolveTarget(host, resolver, policy);
  // One secure context per kind of handshake: passing `ca` to each tls.connect would parse the
  // whole root store again per connection (about 20 ms of CPU each, measured by bench:uptime).
  const contexts = secureContexts(options.extraCa);
  const dial = createDial(resolve, contexts, options.connectTimeoutMs);
  const inner = buildConnector({ timeout: options.connectTimeoutMs, ...(options.extraCa ? { secureContext: contexts.get({}) } : {}) });

  // A connector rather than `connect.lookup`: Node skips `lookup` for IP-literal hosts, which would
  // let http://127.0.0.1/ through. Here every connection, named or literal, is resolved once and
  // dialled at the validated address, with SNI (and undici's Host header) kept on the name. It is
  // undici's own connector (keep-alive, TLS session reuse) for the many connections of a crawl.
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
    // The dialler, so that TCP and TLS are timed apart: a TCP connection, then TLS over that socket.
    const timedConnector: buildConnector.connector = (opts, callback) => {
      const https = opts.protocol === "https:";
      const port = Number(opts.port) || (https ? 443 : 80);
      dial(opts.hostname, port, https ? { tls: { alpn: ["http/1.1"] } } : {}).then(
        (dialled) => {
          if (timings.connectMs === null) {
            timings.connectMs = dialled.connectMs;
            timings.tlsMs = dialled.tlsMs;
          }
          callback(null, dialled.socket);
        },
        (err: Error) => callback(err, null),
      );
    };
    const own = new Agent({ connect: timedConnector, pipelining: 0 });
    return { dispatcher: own, timings, close: () => own.close() };
  };
  return {
    dispatcher: agent,
    request: (url, init) => undiciRequest(url, { ...init, dispatcher: agent }),
    dial,
    timed,
    options,
    resolve,
    resolveAll,
    close: () => agent.close(),
  };
}
