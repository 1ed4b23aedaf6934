import { isIP, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { UnreachableError, UtilityError, type NetConnect, type NetFetchInit, type NetRecord, type NetResponse, type SmtpReply, type TlsProbe, type TlsProbeInit, type UtilityNet } from "../../utilities/index.ts";
import { createDnsClient, EgressBlockedError, type Egress } from "../fetch/egress.ts";
import { exchange } from "../fetch/exchange.ts";
import { describeError, smtpConversation, tlsProbeOf, whoisConversation } from "./conversations.ts";
import { records, RECORD_TYPES } from "./dns-records.ts";
import { NET_BUDGET } from "./net-budget.ts";
import { nodeInterfaces, readPage, readSitemap } from "./utility-readers.ts";

// The network of a network-utility run (docs/utilities.md): the conversations the utilities hold
// (HTTP, DNS records, TCP, WHOIS, TLS, SMTP) over the crawler node's one egress, within the run's
// budgets of requests and bytes (utilities-catalogue.md §5). It opens no socket itself: every
// connection is the egress's dial (crawler/fetch/dial.ts), which resolves the target once, judges
// it by the node's policy (metadata names included) and connects to the address it judged. What
// is read off those connections is read elsewhere: the protocols' conversations
// (conversations.ts), DNS records (dns-records.ts), pages and sitemaps by the crawl's own readers
// (utility-readers.ts).

export { DEFAULT_UTILITY_PORTS, NET_BUDGET } from "./net-budget.ts";

export interface UtilityNetOptions {
  /** The node's egress: every address judged and dialled there. */
  readonly egress: Pick<Egress, "dial" | "resolveAll">;
  /** The node's DNS servers (empty: the system's): the "system" resolver of record look-ups. */
  readonly dnsServers: readonly string[];
  /** Named public resolvers a utility may ask (name → address[:port]). */
  readonly resolvers: Readonly<Record<string, string>>;
  /** Ports a TCP connect may reach. */
  readonly ports: readonly number[];
  /** The first WHOIS server asked, and the port of every WHOIS query. */
  readonly whoisRoot: string;
  readonly whoisPort: number;
  /** The port of SMTP probes (25; another only for test servers). */
  readonly smtpPort?: number;
  /** The name an SMTP probe greets with (EHLO). */
  readonly smtpHelo?: string;
  /** The operator's echo service for my_ip (none: null). */
  readonly echoUrl?: string | null;
  readonly userAgent: string;
  /** Aborted when the run is over (deadline, lost lease): every pending request stops. */
  readonly signal: AbortSignal;
}

/**
 * What a refused or failed dial means to a utility: a refusal by the policy is the run's
 * tool_failed (never "unreachable"), a name without an address is unreachable, like a dead host.
 */
function dialFailure(host: string, err: unknown, unreachable: (err: Error) => string): UtilityError {
  if (err instanceof UtilityError) return err;
  if (err instanceof EgressBlockedError) return new UtilityError("tool_failed", err.message);
  const e = err as NodeJS.ErrnoException & { syscall?: string };
  if (String(e.syscall ?? "").startsWith("query") || e.syscall === "getaddrinfo" || e.code === "ENOTFOUND" || e.code === "ENODATA") {
    const code = e.code ?? "failed";
    const why = code === "ENOTFOUND" ? "does not exist (NXDOMAIN)" : code === "ENODATA" ? "has no address" : `could not be resolved (${code})`;
    return new UnreachableError(`${host} ${why}`);
  }
  return new UnreachableError(unreachable(e));
}

/** Splits "host", "host:port", "[v6]:port" or a bare IPv6 address. */
function splitServer(server: string, defaultPort: number): { host: string; port: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (v6) return { host: v6[1] as string, port: v6[2] ? Number(v6[2]) : defaultPort };
  if (isIP(server) === 6) return { host: server, port: defaultPort };
  const m = /^([^:]+)(?::(\d+))?$/.exec(server);
  if (!m) throw new UtilityError("tool_failed", `"${server}" is not a server name`);
  return { host: m[1] as string, port: m[2] ? Number(m[2]) : defaultPort };
}

export function createUtilityNet(o: UtilityNetOptions): UtilityNet {
  let requests = 0;

  const spend = (what: string) => {
    if (o.signal.aborted) throw new UtilityError("tool_failed", `the run took longer than ${NET_BUDGET.runMs / 1000} s`);
    requests += 1;
    if (requests > NET_BUDGET.requests) throw new UtilityError("tool_failed", `the run needed more than ${NET_BUDGET.requests} requests (${what})`);
  };
  const unbracket = (host: string) => (host.startsWith("[") ? host.slice(1, -1) : host);
  /** A name costs a DNS request of the budget; an address literal none. */
  const spendLookup = (host: string) => {
    if (isIP(host) === 0) spend(`DNS ${host}`);
  };

  /** Every address of a host the policy allows (an IP literal as is); none allowed is a refusal. */
  async function addresses(host: string): Promise<string[]> {
    const bare = unbracket(host);
    spendLookup(bare);
    try {
      return (await o.egress.resolveAll(bare)).map((a) => a.address);
    } catch (err) {
      throw dialFailure(bare, err, (e) => e.message);
    }
  }

  /** An address literal and an allow-listed port, or a refusal (`field`: the input that named the port); the egress judges the address. */
  function dialable(ip: string, port: number, field: string): void {
    if (isIP(ip) === 0) throw new UtilityError("tool_failed", `${ip} is not an address`);
    if (!o.ports.includes(port)) throw new UtilityError("bad_param", `port ${port} is not one a check may connect to (${o.ports.join(", ")})`, field);
  }

  async function fetch(url: string, init: NetFetchInit = {}): Promise<NetResponse> {
    const target = new URL(url);
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new UtilityError("tool_failed", `${url} is not an http(s) URL`);
    spendLookup(unbracket(target.hostname));
    spend(`GET ${target.host}`);
    const headers: Record<string, string> = {
      "user-agent": o.userAgent,
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-encoding": "gzip, deflate, br",
      ...Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      host: target.host,
    };
    try {
      return await exchange(o.egress, target, {
        method: init.method ?? "GET",
        headers,
        maxBytes: Math.min(init.maxBytes ?? NET_BUDGET.bodyBytes, NET_BUDGET.bodyBytes),
        connectTimeoutMs: NET_BUDGET.connectMs,
        ttfbMs: NET_BUDGET.ttfbMs,
        signal: o.signal,
      });
    } catch (err) {
      throw dialFailure(unbracket(target.hostname), err, (e) => `${target.host} did not answer: ${describeError(e)}`);
    }
  }

  async function resolve(name: string, type: string, resolverName = "system"): Promise<NetRecord[]> {
    const t = type.toUpperCase();
    if (!RECORD_TYPES.has(t)) throw new UtilityError("tool_failed", `the record type ${type} is not supported`);
    let servers: readonly string[];
    if (resolverName === "system") servers = o.dnsServers;
    else {
      const server = o.resolvers[resolverName];
      if (!server) throw new UtilityError("tool_failed", `no resolver named ${resolverName} is configured`);
      servers = [server];
    }
    spend(`DNS ${t} ${name}`);
    const r = createDnsClient(servers, 3000);
    const cancel = () => r.cancel();
    o.signal.addEventListener("abort", cancel, { once: true });
    try {
      return await records(r, name, t);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOTFOUND" || code === "ENODATA") return [];
      throw new UtilityError("tool_failed", `the ${resolverName} resolver gave no answer for ${name} ${t} (${code ?? "failed"})`);
    } finally {
      o.signal.removeEventListener("abort", cancel);
    }
  }

  async function connect(ip: string, port: number, timeoutMs: number): Promise<NetConnect> {
    dialable(ip, port, "input.ports");
    spend(`TCP ${ip}:${port}`);
    const started = performance.now();
    const ms = () => Math.round((performance.now() - started) * 10) / 10;
    try {
      const { socket } = await o.egress.dial(ip, port, { timeoutMs: Math.min(timeoutMs, NET_BUDGET.connectMs), signal: o.signal });
      socket.destroy();
      return { state: "open", ms: ms() };
    } catch (err) {
      if (err instanceof UtilityError) throw err;
      if (err instanceof EgressBlockedError) throw new UtilityError("tool_failed", err.message);
      return { state: (err as NodeJS.ErrnoException).code === "ECONNREFUSED" ? "closed" : "filtered", ms: ms() };
    }
  }

  async function whois(server: string, query: string): Promise<string> {
    const { host } = splitServer(server, o.whoisPort);
    const ip = (await addresses(host))[0] as string;
    spend(`WHOIS ${host}`);
    let socket: Socket;
    try {
      socket = (await o.egress.dial(ip, o.whoisPort, { timeoutMs: NET_BUDGET.connectMs, signal: o.signal })).socket;
    } catch (err) {
      throw dialFailure(host, err, (e) => `the WHOIS server ${host} did not answer: ${describeError(e)}`);
    }
    return whoisConversation(socket, query, host);
  }

  async function tls(ip: string, port: number, init: TlsProbeInit): Promise<TlsProbe> {
    dialable(ip, port, "input.port");
    spend(`TLS ${ip}:${port} ${init.version}`);
    const failed = (error: string): TlsProbe => ({ ok: false, error, protocol: null, cipher: null, alpn: null, ocsp_stapled: false, cert_valid_to: null, authorized: false });
    try {
      const { socket, ocspStapled } = await o.egress.dial(ip, port, {
        timeoutMs: NET_BUDGET.connectMs,
        signal: o.signal,
        tls: {
          servername: isIP(init.servername) === 0 ? init.servername : undefined,
          minVersion: init.version,
          maxVersion: init.version,
          // TLS 1.0 and 1.1 need OpenSSL's security level 0 to be offered at all; what the server accepts is the question.
          ciphers: init.version === "TLSv1" || init.version === "TLSv1.1" ? "DEFAULT@SECLEVEL=0" : undefined,
          alpn: init.alpn ?? ["h2", "http/1.1"],
          rejectUnauthorized: false,
          requestOCSP: true,
        },
      });
      return tlsProbeOf(socket, ocspStapled);
    } catch (err) {
      if (err instanceof UtilityError) throw err;
      if (err instanceof EgressBlockedError) throw new UtilityError("tool_failed", err.message);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ECONNREFUSED") return failed("connection refused");
      if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "ETIMEDOUT") return failed(`no handshake within ${NET_BUDGET.connectMs / 1000} s`);
      return failed(code ?? (err as Error).message);
    }
  }

  async function smtp(ip: string, rcpt: string): Promise<SmtpReply[]> {
    const port = o.smtpPort ?? 25;
    if (isIP(ip) === 0) throw new UtilityError("tool_failed", `${ip} is not an address`);
    if (/[\r\n<>]/.test(rcpt)) throw new UtilityError("tool_failed", "the address cannot be sent in an SMTP command");
    spend(`SMTP ${ip}`);
    let socket: Socket;
    try {
      socket = (await o.egress.dial(ip, port, { timeoutMs: NET_BUDGET.connectMs, signal: o.signal })).socket;
    } catch (err) {
      throw dialFailure(ip, err, (e) => `the mail server ${ip} did not answer: ${describeError(e)}`);
    }
    return smtpConversation(socket, ["", `EHLO ${o.smtpHelo ?? "svc.invalid"}`, "MAIL FROM:<>", `RCPT TO:<${rcpt}>`, "QUIT"], ip);
  }

  return { fetch, addresses, resolve, connect, whois, tls, smtp, page: readPage, sitemap: readSitemap, interfaces: nodeInterfaces, echoUrl: o.echoUrl ?? null, whoisRoot: o.whoisRoot };
}


