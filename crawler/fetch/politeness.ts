import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { CrawlSettings } from "../../runtime/index.ts";
import type { Egress } from "./egress.ts";

export interface Politeness {
  readonly connectionsPerHost: number;
  readonly minDelayMs: number;
}

/** A host[:port] (IPv6 literals in brackets) as its name and port. */
export function splitHost(host: string): { hostname: string; port: number | null } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(host);
  return { hostname: m?.[1] ?? host, port: m?.[2] ? Number(m[2]) : null };
}

/**
 * The politeness for a host: the first operator override whose name matches the host, or whose
 * network holds the host's address; otherwise the defaults.
 */
export async function politenessFor(
  host: string,
  settings: Pick<CrawlSettings, "connectionsPerHost" | "minDelayMs" | "overrides">,
  egress: Pick<Egress, "resolve">,
): Promise<Politeness> {
  const name = splitHost(host).hostname.toLowerCase();
  let address: string | null = null;
  for (const o of settings.overrides) {
    if (o.match.includes("/")) {
      address ??= isIP(name) !== 0 ? name : await egress.resolve(name).then((a) => a.address, () => "");
      if (address && inNetwork(address, o.match)) return o;
    } else if (o.match === name || (o.match.startsWith("*.") && name.endsWith(o.match.slice(1)))) return o;
  }
  return { connectionsPerHost: settings.connectionsPerHost, minDelayMs: settings.minDelayMs };
}

/** A host name against a pattern: the name itself, *.domain (the domain and its subdomains) or a CIDR (address literals). */
export function hostMatches(hostname: string, pattern: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (pattern.includes("/")) return isIP(name) !== 0 && inNetwork(name, pattern);
  if (pattern.startsWith("*.")) return name === pattern.slice(2) || name.endsWith(pattern.slice(1));
  return name === pattern;
}

function inNetwork(address: string, cidr: string): boolean {
  try {
    const ip = ipaddr.process(address);
    const [net, bits] = ipaddr.parseCIDR(cidr);
    return ip.kind() === net.kind() && ip.match(net, bits);
  } catch {
    return false;
  }
}
