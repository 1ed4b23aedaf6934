import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { parse as parseDomain } from "tldts";
import ipaddr from "ipaddr.js";
import { nameRefused, refusedRange, type TargetPolicy } from "../../runtime/index.ts";

/**
 * allowPrivateTargets: accept .test/.local names, localhost and private or loopback address
 * literals. allowLinkLocal: the only link-local and metadata addresses or names accepted.
 */
export type HostPolicy = TargetPolicy;

export type HostResult = { readonly ok: true; readonly host: string } | { readonly ok: false; readonly reason: string };

// Reserved names that never resolve on the public internet (RFC 2606, RFC 6761, RFC 6762).
const PRIVATE_TLDS = new Set(["test", "localhost", "local", "internal", "invalid", "example", "lan", "home", "corp"]);

/**
 * Normalises what a user typed as a site to the host Svc stores: lower case, IDN to punycode,
 * an explicit non-default port kept. Accepts a bare host, host:port, or an http(s) URL (its path is
 * dropped). Only syntax and the public suffix are checked; the name is never resolved here.
 */
export function normalizeHost(input: string, policy: HostPolicy): HostResult {
  let text = input.trim();
  let defaultPort = "";
  const scheme = /^(https?):\/\//i.exec(text);
  if (scheme) {
    defaultPort = (scheme[1] as string).toLowerCase() === "https" ? "443" : "80";
    text = text.slice(scheme[0].length).replace(/[/?#].*$/s, "");
  }
  if (text === "" || /[\s/?#@\\]/.test(text)) return fail("not a host name or address");
  const { name, port } = splitPort(text);
  if (name === null) return fail("malformed address or port");
  if (port !== null && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) return fail("port must be 1-65535");
  const keepPort = port !== null && port !== defaultPort && !(defaultPort === "" && (port === "80" || port === "443")) ? `:${Number(port)}` : "";

  if (isIP(name) !== 0) {
    const addr = ipaddr.parse(name);
    const range = refusedRange(name, policy);
    if (range === "linkLocal" || range === "metadata") return fail("link-local and cloud metadata addresses are not allowed");
    if (range !== null) return fail("private, loopback or reserved addresses are not allowed");
    const printed = addr.kind() === "ipv6" ? `[${addr.toString()}]` : addr.toString();
    return { ok: true, host: printed + keepPort };
  }

  const ascii = domainToASCII(name.replace(/\.$/, "").toLowerCase());
  if (ascii === "" || ascii.length > 253) return fail("not a valid domain name");
  const labels = ascii.split(".");
  if (labels.some((l) => !/^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(l))) return fail("not a valid domain name");
  const tld = labels[labels.length - 1] as string;
  if (nameRefused(ascii, policy)) return fail("cloud metadata names are not allowed");
  if (/^\d+$/.test(tld)) return fail("not a valid domain name");
  if (PRIVATE_TLDS.has(tld) || ascii === "localhost") {
    if (!policy.allowPrivateTargets) return fail(`.${tld} names are not reachable on the internet`);
    return { ok: true, host: ascii + keepPort };
  }
  const parsed = parseDomain(ascii, { allowPrivateDomains: true });
  if (!parsed.publicSuffix || (!parsed.isIcann && !parsed.isPrivate)) return fail(`unknown top-level domain .${tld}`);
  if (parsed.domain === null) return fail(`${ascii} is a public suffix, not a site`);
  return { ok: true, host: ascii + keepPort };
}

function splitPort(text: string): { name: string | null; port: string | null } {
  if (text.startsWith("[")) {
    const m = /^\[([0-9a-fA-F:.]+)\](?::(\d*))?$/.exec(text);
    if (!m || isIP(m[1] as string) !== 6) return { name: null, port: null };
    return { name: m[1] as string, port: m[2] ?? null };
  }
  if (isIP(text) === 6) return { name: text, port: null };
  const parts = text.split(":");
  if (parts.length > 2) return { name: null, port: null };
  return { name: parts[0] as string, port: parts[1] ?? null };
}

function fail(reason: string): HostResult {
  return { ok: false, reason };
}

/** The host policy of the operator's settings. */
export function hostPolicyOf(config: { readonly allowPrivateTargets: boolean; readonly allowLinkLocalTargets: readonly string[] }): HostPolicy {
  return { allowPrivateTargets: config.allowPrivateTargets, allowLinkLocal: config.allowLinkLocalTargets };
}
