import ipaddr from "ipaddr.js";

/** Whether an address is one of SVC_TRUSTED_PROXIES (addresses or CIDR networks). */
export function buildTrustedProxy(trustedProxies: readonly string[]): (ip: string) => boolean {
  const ranges = trustedProxies.map((item) => (item.includes("/") ? ipaddr.parseCIDR(item) : toHostRange(item)));
  return (ip: string): boolean => {
    const addr = parse(ip);
    return addr !== null && ranges.some(([net, bits]) => addr.kind() === net.kind() && addr.match(net, bits));
  };
}

/** Decides the client's address: the peer, or X-Forwarded-For when the peer is a trusted proxy. */
export function buildClientAddress(trustedProxies: readonly string[]) {
  const trusted = buildTrustedProxy(trustedProxies);
  return (peer: string | undefined, forwardedFor: string | string[] | undefined): string => {
    let client = normalize(peer ?? "0.0.0.0");
    if (!trusted(client) || forwardedFor === undefined) return client;
    // Walk the chain from the nearest hop; the first address not ours is the client.
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").map((s) => s.trim()).reverse();
    for (const hop of hops) {
      if (parse(hop) === null) break;
      client = normalize(hop);
      if (!trusted(client)) break;
    }
    return client;
  };
}

function toHostRange(ip: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const addr = ipaddr.parse(ip);
  return [addr, addr.kind() === "ipv4" ? 32 : 128];
}

function parse(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(ip);
  } catch {
    return null;
  }
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) becomes plain IPv4, so allowlists match either form. */
export function normalize(ip: string): string {
  const addr = parse(ip);
  return addr ? addr.toString() : "0.0.0.0";
}
