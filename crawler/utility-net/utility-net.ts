import { promises as dnsPromises } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect as tcpConnect, isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { connect as tlsConnect, type ConnectionOptions } from "node:tls";
import { performance } from "node:perf_hooks";
import { brotliDecompressSync, constants as zlibConstants, gunzipSync, inflateSync } from "node:zlib";
import { refusedRange, type TargetPolicy } from "../../runtime/index.ts";
import { HttpResponse } from "../../proto/index.ts";
import {
  UnreachableError,
  UtilityError,
  type NetConnect,
  type NetFetchInit,
  type NetRecord,
  type NetResponse,
  type PageReading,
  type SmtpReply,
  type TlsProbe,
  type TlsProbeInit,
  type UtilityNet,
} from "../../utilities/index.ts";
import { dnsResolver, type Resolver } from "../fetch/egress.ts";
import { parseContentType } from "../fetch/fetch-page.ts";
import { extractPage } from "../page/extract.ts";
import { technologyDetails } from "../page/tech-detect.ts";
import { parseSitemap } from "../site/sitemaps.ts";

// The network of a network-utility run (docs/utilities.md): the crawler node's egress policy
// applied to HTTP, DNS, TCP and WHOIS alike (utilities-catalogue.md §6), with the run's budgets of
// requests and bytes (§5). Every address a utility connects to is resolved here, checked against
// the policy and dialled as checked (no second lookup that DNS rebinding could answer).

/** The catalogue's budgets of one run (§5). */
export const NET_BUDGET = {
  /** Wall time of the whole run. */
  runMs: 20_000,
  connectMs: 5_000,
  ttfbMs: 10_000,
  /** Outbound requests (HTTP, DNS, TCP, WHOIS) of one run. */
  requests: 120,
  /** Body bytes kept of one HTTP answer, after decoding. */
  bodyBytes: 5 * 1024 * 1024,
  /** A WHOIS reply. */
  whoisBytes: 256 * 1024,
} as const;

/** The ports a utility may connect to (catalogue §6: port_check and the TLS probes). */
export const DEFAULT_UTILITY_PORTS = [21, 22, 25, 53, 80, 110, 143, 443, 465, 587, 993, 995, 3306, 5432, 8080, 8443] as const;

export interface UtilityNetOptions {
  readonly policy: TargetPolicy;
  /** The node's DNS servers (empty: the system's): the "system" resolver. */
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
  /** CA list for TLS (undefined: Node's defaults). */
  readonly ca: string[] | undefined;
  readonly userAgent: string;
  /** Aborted when the run is over (deadline, lost lease): every pending request stops. */
  readonly signal: AbortSignal;
  /** A resolver for tests; default node:dns on dnsServers. */
  readonly resolver?: Resolver;
}

const RECORD_TYPES = new Set(["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SOA", "CAA", "SRV", "PTR"]);

function refused(host: string, address: string, range: string): UtilityError {
  return new UtilityError("tool_failed", `${host} resolves to ${address} (${range}), which is not a public address`);
}

function dnsFailure(host: string, err: unknown): UtilityError {
  const code = (err as NodeJS.ErrnoException).code ?? "failed";
  const why = code === "ENOTFOUND" ? "does not exist (NXDOMAIN)" : code === "ENODATA" ? "has no address" : `could not be resolved (${code})`;
  return new UnreachableError(`${host} ${why}`);
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
  const resolver = o.resolver ?? dnsResolver(o.dnsServers, NET_BUDGET.connectMs);
  let requests = 0;

  const spend = (what: string) => {
    if (o.signal.aborted) throw new UtilityError("tool_failed", `the run took longer than ${NET_BUDGET.runMs / 1000} s`);
    requests += 1;
    if (requests > NET_BUDGET.requests) throw new UtilityError("tool_failed", `the run needed more than ${NET_BUDGET.requests} requests (${what})`);
  };

  /** Every address of a host the policy allows (an IP literal as is); none allowed is a refusal. */
  async function addresses(host: string): Promise<string[]> {
    const bare = host.startsWith("[") ? host.slice(1, -1) : host;
    let found: string[];
    if (isIP(bare) !== 0) found = [bare];
    else {
      spend(`DNS ${bare}`);
      try {
        found = (await resolver(bare)).map((a) => a.address);
      } catch (err) {
        throw dnsFailure(bare, err);
      }
    }
    const allowed = found.filter((a) => refusedRange(a, o.policy) === null);
    if (allowed.length === 0) {
      const first = found[0] ?? bare;
      throw refused(bare, first, refusedRange(first, o.policy) ?? "refused");
    }
    return allowed;
  }

  async function fetch(url: string, init: NetFetchInit = {}): Promise<NetResponse> {
    const target = new URL(url);
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new UtilityError("tool_failed", `${url} is not an http(s) URL`);
    const started = performance.now();
    const hostname = target.hostname.startsWith("[") ? target.hostname.slice(1, -1) : target.hostname;
    const ip = (await addresses(hostname))[0] as string;
    const dnsDone = performance.now();
    spend(`GET ${target.host}`);
    const maxBytes = Math.min(init.maxBytes ?? NET_BUDGET.bodyBytes, NET_BUDGET.bodyBytes);
    const secure = target.protocol === "https:";
    const method = init.method ?? "GET";
    const headers: Record<string, string> = {
      "user-agent": o.userAgent,
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-encoding": "gzip, deflate, br",
      ...Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      host: target.host,
    };
    return new Promise<NetResponse>((resolve, reject) => {
      let connected = dnsDone;
      let secured = dnsDone;
      let firstByte = 0;
      const fail = (err: Error) => {
        clearTimeout(timer);
        clearTimeout(ttfbTimer);
        reject(err instanceof UtilityError ? err : new UnreachableError(`${target.host} did not answer: ${describeError(err)}`));
      };
      const req = (secure ? httpsRequest : httpRequest)({
        host: ip,
        port: target.port || (secure ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        method,
        headers,
        agent: false,
        signal: o.signal,
        ...(secure ? { servername: isIP(hostname) === 0 ? hostname : undefined, ca: o.ca, ALPNProtocols: ["http/1.1"] } : {}),
      });
      const timer = setTimeout(() => req.destroy(new Error(`no connection within ${NET_BUDGET.connectMs / 1000} s`)), NET_BUDGET.connectMs);
      req.on("socket", (socket) => {
        socket.once("connect", () => {
          connected = performance.now();
          secured = connected;
          clearTimeout(timer);
          setTimeoutAgain();
        });
        socket.once("secureConnect", () => {
          secured = performance.now();
        });
      });
      let ttfbTimer: NodeJS.Timeout | undefined;
      const setTimeoutAgain = () => {
        ttfbTimer = setTimeout(() => req.destroy(new Error(`no answer within ${NET_BUDGET.ttfbMs / 1000} s`)), NET_BUDGET.ttfbMs);
      };
      req.on("error", fail);
      req.on("response", (res: IncomingMessage) => {
        firstByte = performance.now();
        clearTimeout(ttfbTimer);
        const chunks: Buffer[] = [];
        let encoded = 0;
        let truncated = false;
        res.on("data", (chunk: Buffer) => {
          encoded += chunk.length;
          if (encoded > maxBytes) {
            truncated = true;
            chunks.push(chunk.subarray(0, chunk.length - (encoded - maxBytes)));
            encoded = maxBytes;
            res.destroy();
            finish();
            return;
          }
          chunks.push(chunk);
        });
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          const raw = Buffer.concat(chunks);
          const decoded = decode(raw, String(res.headers["content-encoding"] ?? ""), maxBytes);
          const pairs: [string, string][] = [];
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([(res.rawHeaders[i] as string).toLowerCase(), res.rawHeaders[i + 1] as string]);
          const end = performance.now();
          const ms = (a: number, b: number) => Math.max(0, Math.round(b - a));
          resolve({
            url: target.href,
            status: res.statusCode ?? 0,
            status_text: res.statusMessage ?? "",
            http_version: res.httpVersion,
            ip,
            headers: pairs,
            body: new Uint8Array(decoded.body),
            encoded_bytes: raw.length,
            truncated: truncated || decoded.truncated,
            timings_ms: { dns: ms(started, dnsDone), connect: ms(dnsDone, connected), tls: secure ? ms(connected, secured) : 0, ttfb: ms(started, firstByte), total: ms(started, end) },
          });
        };
        res.on("end", finish);
        res.on("error", (err) => (finished ? undefined : fail(err)));
      });
      req.end();
    });
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
    const r = new dnsPromises.Resolver({ timeout: 3000, tries: 2 });
    if (servers.length > 0) r.setServers([...servers]);
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
    if (isIP(ip) === 0) throw new UtilityError("tool_failed", `${ip} is not an address`);
    if (!o.ports.includes(port)) throw new UtilityError("bad_param", `port ${port} is not one a check may connect to (${o.ports.join(", ")})`, "input.ports");
    const range = refusedRange(ip, o.policy);
    if (range !== null) throw refused(ip, ip, range);
    spend(`TCP ${ip}:${port}`);
    const started = performance.now();
    return new Promise<NetConnect>((done) => {
      const socket = tcpConnect({ host: ip, port, signal: o.signal });
      const end = (state: NetConnect["state"]) => {
        clearTimeout(timer);
        socket.destroy();
        done({ state, ms: Math.round((performance.now() - started) * 10) / 10 });
      };
      const timer = setTimeout(() => end("filtered"), Math.min(timeoutMs, NET_BUDGET.connectMs));
      socket.once("connect", () => end("open"));
      socket.once("error", (err: NodeJS.ErrnoException) => end(err.code === "ECONNREFUSED" ? "closed" : "filtered"));
    });
  }

  async function whois(server: string, query: string): Promise<string> {
    const { host } = splitServer(server, o.whoisPort);
    const ip = (await addresses(host))[0] as string;
    spend(`WHOIS ${host}`);
    return new Promise<string>((done, reject) => {
      const socket = tcpConnect({ host: ip, port: o.whoisPort, signal: o.signal });
      const chunks: Buffer[] = [];
      let size = 0;
      const timer = setTimeout(() => socket.destroy(new Error("no answer within 10 s")), NET_BUDGET.ttfbMs);
      socket.once("connect", () => socket.write(`${query}\r\n`));
      socket.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > NET_BUDGET.whoisBytes) socket.end();
        else chunks.push(chunk);
      });
      socket.once("close", () => {
        clearTimeout(timer);
        done(Buffer.concat(chunks).toString("utf8"));
      });
      socket.once("error", (err) => {
        clearTimeout(timer);
        reject(new UnreachableError(`the WHOIS server ${host} did not answer: ${describeError(err)}`));
      });
    });
  }

  /** A checked address and allow-listed port, or a refusal (field: the input field that named the port). */
  function dialable(ip: string, port: number, field: string): void {
    if (isIP(ip) === 0) throw new UtilityError("tool_failed", `${ip} is not an address`);
    if (!o.ports.includes(port)) throw new UtilityError("bad_param", `port ${port} is not one a check may connect to (${o.ports.join(", ")})`, field);
    const range = refusedRange(ip, o.policy);
    if (range !== null) throw refused(ip, ip, range);
  }

  async function tls(ip: string, port: number, init: TlsProbeInit): Promise<TlsProbe> {
    dialable(ip, port, "input.port");
    spend(`TLS ${ip}:${port} ${init.version}`);
    return new Promise<TlsProbe>((done) => {
      const failed = (error: string): TlsProbe => ({ ok: false, error, protocol: null, cipher: null, alpn: null, ocsp_stapled: false, cert_valid_to: null, authorized: false });
      let stapled = false;
      // requestOCSP is a documented option of tls.connect that @types/node leaves out.
      const socket = tlsConnect({
        requestOCSP: true,
        host: ip,
        port,
        servername: isIP(init.servername) === 0 ? init.servername : undefined,
        minVersion: init.version,
        maxVersion: init.version,
        // TLS 1.0 and 1.1 need OpenSSL's security level 0 to be offered at all; what the server accepts is the question.
        ciphers: init.version === "TLSv1" || init.version === "TLSv1.1" ? "DEFAULT@SECLEVEL=0" : undefined,
        ALPNProtocols: [...(init.alpn ?? ["h2", "http/1.1"])],
        rejectUnauthorized: false,
        ca: o.ca,
        signal: o.signal,
      } as ConnectionOptions);
      const timer = setTimeout(() => {
        socket.destroy();
        done(failed("no handshake within 5 s"));
      }, NET_BUDGET.connectMs);
      socket.once("OCSPResponse", (response: Buffer) => {
        stapled = response !== null && response.length > 0;
      });
      socket.once("secureConnect", () => {
        clearTimeout(timer);
        const cert = socket.getPeerCertificate();
        const validTo = cert && cert.valid_to ? new Date(cert.valid_to).toISOString() : null;
        const out: TlsProbe = {
          ok: true,
          error: null,
          protocol: socket.getProtocol() ?? null,
          cipher: socket.getCipher()?.name ?? null,
          alpn: typeof socket.alpnProtocol === "string" ? socket.alpnProtocol : null,
          ocsp_stapled: stapled,
          cert_valid_to: validTo,
          authorized: socket.authorized,
        };
        socket.end();
        socket.destroy();
        done(out);
      });
      socket.once("error", (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        done(failed(err.code === "ECONNREFUSED" ? "connection refused" : (err.code ?? err.message)));
      });
    });
  }

  async function smtp(ip: string, rcpt: string): Promise<SmtpReply[]> {
    const port = o.smtpPort ?? 25;
    const range = refusedRange(ip, o.policy);
    if (isIP(ip) === 0) throw new UtilityError("tool_failed", `${ip} is not an address`);
    if (range !== null) throw refused(ip, ip, range);
    if (/[\r\n<>]/.test(rcpt)) throw new UtilityError("tool_failed", "the address cannot be sent in an SMTP command");
    spend(`SMTP ${ip}`);
    const commands = ["", `EHLO ${o.smtpHelo ?? "svc.invalid"}`, "MAIL FROM:<>", `RCPT TO:<${rcpt}>`, "QUIT"];
    return new Promise<SmtpReply[]>((done, reject) => {
      const replies: SmtpReply[] = [];
      const socket = tcpConnect({ host: ip, port, signal: o.signal });
      let buffer = "";
      let step = 0;
      const timer = setTimeout(() => socket.destroy(new Error("no answer within 10 s")), NET_BUDGET.ttfbMs);
      const finish = () => {
        clearTimeout(timer);
        socket.destroy();
        done(replies);
      };
      socket.on("data", (chunk: Buffer) => {
        buffer += chunk.toString("latin1");
        if (buffer.length > 64 * 1024) return finish();
        // A reply ends with a line "NNN text" (a dash after the code continues it).
        for (;;) {
          const lines = buffer.split("\r\n");
          const last = lines.findIndex((l) => /^\d{3}(?: |$)/.test(l));
          if (last < 0) return;
          const reply = lines.slice(0, last + 1);
          buffer = lines.slice(last + 1).join("\r\n");
          const code = Number((reply[last] as string).slice(0, 3));
          replies.push({ command: commands[step] === "" ? "(greeting)" : (commands[step] as string), code, text: reply.map((l) => l.slice(4)).join("\n") });
          step += 1;
          if (step >= commands.length || code >= 400) {
            if (code >= 400 && step < commands.length) socket.write("QUIT\r\n");
            return finish();
          }
          socket.write(`${commands[step]}\r\n`);
        }
      });
      socket.once("close", () => finish());
      socket.once("error", (err) => {
        clearTimeout(timer);
        if (replies.length > 0) done(replies);
        else reject(new UnreachableError(`the mail server ${ip} did not answer: ${describeError(err)}`));
      });
    });
  }

  function page(res: NetResponse): PageReading {
    const ct = parseContentType(res.headers.find(([n]) => n === "content-type")?.[1] ?? "");
    const response = HttpResponse.fromPartial({
      requestedUrl: res.url,
      finalUrl: res.url,
      status: res.status,
      headers: res.headers.map(([name, value]) => ({ name, value })),
      ttfbMs: res.timings_ms.ttfb,
      totalMs: res.timings_ms.total,
      wireBytes: res.encoded_bytes,
      bodyBytes: res.body.length,
      contentEncoding: (res.headers.find(([n]) => n === "content-encoding")?.[1] ?? "").toLowerCase(),
      contentType: ct.mediaType,
      charset: ct.charset,
      bodyTruncated: res.truncated,
    });
    const html = bodyText(res.body, ct.charset);
    const { facts, generator, scriptSrcs, text } = extractPage({ url: res.url, response, html });
    const technologies = technologyDetails({ generator, headers: response.headers, scriptSrcs });
    return { facts, generator, scriptSrcs, text, technologies };
  }

  async function sitemap(url: string, body: Uint8Array, siteHost: string, sample: number) {
    const parsed = await parseSitemap(url, Buffer.from(body.buffer, body.byteOffset, body.byteLength), siteHost, sample);
    return { facts: parsed.facts, children: parsed.children };
  }

  function interfaces() {
    const out: { name: string; address: string; family: 4 | 6 }[] = [];
    for (const [name, list] of Object.entries(networkInterfaces())) {
      for (const a of list ?? []) if (!a.internal) out.push({ name, address: a.address, family: a.family === "IPv6" ? 6 : 4 });
    }
    return out;
  }

  return { fetch, addresses, resolve, connect, whois, tls, smtp, page, sitemap, interfaces, echoUrl: o.echoUrl ?? null, whoisRoot: o.whoisRoot };
}

/** HTML bytes as text: the charset the answer declares, else UTF-8. */
function bodyText(body: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset || "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function describeError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET") return "connection reset";
  if (code === "ABORT_ERR") return "the run's time is over";
  if (code && /CERT|SELF_SIGNED|UNABLE_TO/.test(code)) return `certificate error (${code})`;
  return err.message;
}

/** Undoes Content-Encoding (gzip, deflate, br) within maxBytes; an unknown or broken one leaves the bytes as sent. */
function decode(raw: Buffer, encoding: string, maxBytes: number): { body: Buffer; truncated: boolean } {
  const enc = encoding.trim().toLowerCase();
  if (raw.length === 0 || !["gzip", "x-gzip", "deflate", "br"].includes(enc)) return { body: raw, truncated: false };
  try {
    const opts = { maxOutputLength: maxBytes };
    if (enc === "br") return { body: brotliDecompressSync(raw, { ...opts, finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH }), truncated: false };
    if (enc === "deflate") return { body: inflateSync(raw, { ...opts, finishFlush: zlibConstants.Z_SYNC_FLUSH }), truncated: false };
    return { body: gunzipSync(raw, { ...opts, finishFlush: zlibConstants.Z_SYNC_FLUSH }), truncated: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") return { body: Buffer.alloc(0), truncated: true };
    return { body: raw, truncated: false };
  }
}

async function records(r: dnsPromises.Resolver, name: string, t: string): Promise<NetRecord[]> {
  const rec = (value: string, ttl: number | null = null): NetRecord => ({ type: t, value, ttl });
  switch (t) {
    case "A":
      return (await r.resolve4(name, { ttl: true })).map((a) => rec(a.address, a.ttl));
    case "AAAA":
      return (await r.resolve6(name, { ttl: true })).map((a) => rec(a.address, a.ttl));
    case "CNAME":
      return (await r.resolveCname(name)).map((v) => rec(v));
    case "MX":
      return (await r.resolveMx(name)).sort((a, b) => a.priority - b.priority).map((m) => rec(`${m.priority} ${m.exchange}`));
    case "NS":
      return (await r.resolveNs(name)).sort().map((v) => rec(v));
    case "TXT":
      return (await r.resolveTxt(name)).map((parts) => rec(parts.join("")));
    case "SOA": {
      const s = await r.resolveSoa(name);
      return [rec(`${s.nsname} ${s.hostmaster} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minttl}`)];
    }
    case "CAA":
      return (await r.resolveCaa(name)).map((c) => {
        const entry: [string, unknown] = Object.entries(c).find(([k]) => k !== "critical") ?? ["", ""];
        return rec(`${c.critical} ${entry[0]} "${String(entry[1])}"`);
      });
    case "SRV":
      return (await r.resolveSrv(name)).map((s) => rec(`${s.priority} ${s.weight} ${s.port} ${s.name}`));
    default:
      return (await r.resolvePtr(name)).map((v) => rec(v));
  }
}
