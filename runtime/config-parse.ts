// The value types of the SVC_* settings: each parser takes the raw text of one variable and
// returns its value or throws ConfigValueError saying what it must be.
import { isIP } from "node:net";
import { availableParallelism } from "node:os";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export type BrowserProfile = "mobile" | "desktop";
export type BrowserThrottling = "simulate" | "devtools" | "provided";

export type BrowserMode = "auto" | "off";
export type BrowserThirdParty = "auto" | "none" | "all";

/** Politeness for hosts matching a name (exact or *.suffix) or whose address is in a network. */
export interface CrawlOverride {
  readonly match: string;
  readonly connectionsPerHost: number;
  readonly minDelayMs: number;
}

export class ConfigValueError extends Error {}

export function integer(min: number, max: number) {
  return (raw: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigValueError(`must be an integer, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigValueError(`must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

export function flag(raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off", ""].includes(v)) return false;
  throw new ConfigValueError(`must be 1/0, true/false, on/off; got "${raw}"`);
}

export function text(raw: string): string {
  return raw;
}

export function browserMode(raw: string): BrowserMode {
  const v = raw.trim().toLowerCase();
  if (v === "auto" || v === "off") return v;
  throw new ConfigValueError(`must be auto or off, got "${raw}"`);
}

export function thirdParty(raw: string): BrowserThirdParty {
  const v = raw.trim().toLowerCase();
  if (v === "auto") return "auto";
  if (v === "0") return "none";
  if (v === "1") return "all";
  throw new ConfigValueError(`must be auto, 0 or 1, got "${raw}"`);
}

export function browserProfiles(raw: string): BrowserProfile[] {
  const out: BrowserProfile[] = [];
  for (const part of raw.split(",").map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    if (part !== "mobile" && part !== "desktop") throw new ConfigValueError(`must be mobile, desktop or both (comma-separated), got "${raw}"`);
    if (!out.includes(part)) out.push(part);
  }
  if (out.length === 0) throw new ConfigValueError(`must name at least one profile (mobile, desktop), got "${raw}"`);
  return out;
}

export function browserThrottling(raw: string): BrowserThrottling {
  const v = raw.trim().toLowerCase();
  if (v === "simulate" || v === "provided" || v === "devtools") return v;
  throw new ConfigValueError(`must be simulate, devtools or provided, got "${raw}"`);
}

/** Cores less one (the serving thread keeps a core), at least 1, at most 4. */
export function utilityThreads(raw: string): number {
  if (raw.trim().toLowerCase() === "auto") return Math.max(1, Math.min(4, availableParallelism() - 1));
  return integer(1, 64)(raw);
}

/** Comma-separated utility ids. */
export function idList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const item of items) if (!/^[a-z0-9_]{1,64}$/.test(item)) throw new ConfigValueError(`"${item}" is not a utility id`);
  return items;
}

/** Comma-separated search data provider ids (GET /providers names them; an id no provider has turns nothing off). */
export function providerList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const item of items) if (!/^[a-z0-9_]{1,64}$/.test(item)) throw new ConfigValueError(`"${item}" is not a provider id`);
  return [...new Set(items)];
}

export function threadCount(raw: string): number {
  if (raw.trim().toLowerCase() === "auto") return Math.max(1, Math.min(4, availableParallelism()));
  return integer(0, 64)(raw);
}

/** Host patterns: names, *.domain suffixes or CIDRs, comma-separated. */
export function hostPatterns(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const item of items) {
    if (item.includes("/")) {
      const [net, bits] = item.split("/");
      if (isIP(net ?? "") === 0 || !/^\d{1,3}$/.test(bits ?? "")) throw new ConfigValueError(`"${item}" is not a CIDR`);
    } else if (!/^(\*\.)?[a-z0-9.-]+$/.test(item) && isIP(item) === 0) throw new ConfigValueError(`"${item}" is not a host name, *.domain or CIDR`);
  }
  return items;
}

/** Addresses, CIDRs or exact host names (no wildcards), comma-separated. */
export function hostPatternsExact(raw: string): string[] {
  const items = hostPatterns(raw);
  const wild = items.find((i) => i.startsWith("*."));
  if (wild) throw new ConfigValueError(`"${wild}": name each address, network or host exactly (no *.)`);
  return items;
}

/**
 * The owner's first key, when the operator chooses it: it must look like the keys Svc generates
 * ("svc_" and 40 random base62 characters), because only its first 12 characters are shown and the
 * rest is all that stands between the key and its SHA-256; a short or patterned value would be
 * stored and listed nearly in clear.
 */
export function bootstrapKey(raw: string): string | null {
  if (raw === "") return null;
  const hint = "leave it unset to have a key generated and printed once";
  if (!/^svc_[0-9A-Za-z]{40}$/.test(raw)) throw new ConfigValueError(`must be "svc_" followed by 40 letters and digits, as Svc generates keys; ${hint}`);
  const body = raw.slice(4);
  // A random 40-character base62 string has about 30 distinct characters (20 or fewer: p < 1e-6)
  // and about one neighbouring pair that runs up or down the alphabet.
  const distinct = new Set(body).size;
  let runs = 0;
  for (let i = 1; i < body.length; i++) if (Math.abs(body.charCodeAt(i) - body.charCodeAt(i - 1)) <= 1) runs++;
  if (distinct < 20 || runs > 8) throw new ConfigValueError(`does not look random (${distinct} distinct characters); ${hint}`);
  return raw;
}

export function optionalText(raw: string): string | null {
  return raw === "" ? null : raw;
}

export function address(raw: string): string {
  if (isIP(raw) === 0 && raw !== "localhost") throw new ConfigValueError(`must be an IP address, got "${raw}"`);
  return raw;
}

export function postgresUrl(raw: string): string | null {
  if (raw === "") return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigValueError("must start with postgres:// or postgresql://");
  return raw;
}

export function clickhouseUrl(raw: string): string | null {
  if (raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigValueError("must be a URL such as http://clickhouse:8123/svc");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigValueError("must start with http:// or https:// (the HTTP interface)");
  if (!/^\/?[A-Za-z0-9_]*$/.test(url.pathname)) throw new ConfigValueError("the path, if any, is one database name (letters, digits, _)");
  return raw;
}

export function otlpEndpoint(raw: string): string | null {
  if (raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigValueError("must be a URL such as http://otel-collector:4318");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigValueError("must start with http:// or https:// (OTLP over HTTP)");
  return raw;
}

export function level(raw: string): LogLevel {
  const levels: LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
  if (!levels.includes(raw as LogLevel)) throw new ConfigValueError(`must be one of ${levels.join(", ")}`);
  return raw as LogLevel;
}

export function cidrList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const item of items) {
    const [ip, bits, extra] = item.split("/");
    const family = isIP(ip ?? "");
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined) throw new ConfigValueError(`"${item}" is not an address or CIDR network`);
  }
  return items;
}

/** Origins (scheme://host[:port]), comma-separated. */
export function originList(raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const item of items) {
    if (!/^https?:\/\/[^/\s]+$/.test(item)) throw new ConfigValueError(`"${item}" is not an origin such as https://app.example.com`);
  }
  return items;
}

/** name=address[:port], comma-separated (the public resolvers of network utilities). */
export function resolverMap(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of raw.split(",").map((x) => x.trim()).filter(Boolean)) {
    const m = /^([a-z][a-z0-9_]{0,31})=(.+)$/.exec(item);
    if (!m) throw new ConfigValueError(`"${item}" is not name=address[:port]`);
    out[m[1] as string] = serverList(m[2] as string)[0] as string;
  }
  return out;
}

export function portList(raw: string): number[] {
  return raw.split(",").map((x) => x.trim()).filter(Boolean).map((x) => integer(1, 65_535)(x));
}

export function serverList(raw: string): string[] {
  const items = raw.split(",").map((x) => x.trim()).filter((x) => x !== "");
  for (const item of items) {
    const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(item);
    const v6 = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(item);
    const [address, port] = v4 ? [v4[1], v4[2]] : v6 ? [v6[1], v6[2]] : [item, undefined];
    const family = isIP(address ?? "");
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
    if (family === 0 || (v4 && family !== 4) || !portOk) throw new ConfigValueError(`"${item}" is not an address or address:port`);
  }
  return items;
}

export function crawlOverrides(raw: string): CrawlOverride[] {
  const out: CrawlOverride[] = [];
  for (const item of raw.split(",").map((x) => x.trim()).filter((x) => x !== "")) {
    const m = /^([^=]+)=(\d{1,3})\/(\d{1,6})$/.exec(item);
    const match = m?.[1]?.trim().toLowerCase() ?? "";
    const isNet = match.includes("/") && isIP(match.split("/")[0] ?? "") !== 0;
    const isName = /^(\*\.)?[a-z0-9.-]+$/.test(match);
    if (!m || (!isNet && !isName) || Number(m[2]) < 1) {
      throw new ConfigValueError(`"${item}" is not <host, *.domain or CIDR>=<connections>/<delay ms>`);
    }
    out.push({ match, connectionsPerHost: Number(m[2]), minDelayMs: Number(m[3]) });
  }
  return out;
}

/** host:port to listen on; port 0 picks a free one. */
export function listenAddress(raw: string): string {
  if (!/^[A-Za-z0-9.-]+:\d{1,5}$/.test(raw) || Number(raw.slice(raw.lastIndexOf(":") + 1)) > 65535) throw new ConfigValueError("must be host:port, e.g. 0.0.0.0:7070");
  return raw;
}

export function hostPort(raw: string): string | null {
  if (raw === "") return null;
  if (!/^[A-Za-z0-9.-]+:\d{1,5}$/.test(raw)) throw new ConfigValueError("must be host:port");
  return raw;
}

/** Kafka bootstrap servers, host:port comma-separated; empty: none (the embedded bus). */
export function brokerList(raw: string): string[] | null {
  const items = raw.split(",").map((x) => x.trim()).filter((x) => x !== "");
  if (items.length === 0) return null;
  for (const item of items) {
    try {
      hostPort(item);
    } catch {
      throw new ConfigValueError(`"${item}" is not host:port`);
    }
  }
  return items;
}

/** Kafka topic names allow ASCII letters, digits, ".", "_" and "-". */
export function topicPrefix(raw: string): string {
  if (!/^[A-Za-z0-9._-]*$/.test(raw)) throw new ConfigValueError(`may hold only letters, digits, ".", "_" and "-"; got "${raw}"`);
  return raw;
}

export function baseUrl(raw: string): string | null {
  if (raw === "") return null;
  if (!/^https?:\/\/[^/]+$/.test(raw)) throw new ConfigValueError("must be an origin such as https://svc.example.com (no path)");
  return raw;
}

