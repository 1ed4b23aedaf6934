import ipaddr from "ipaddr.js";

// What an address is, by its range (RFC 6890 and the IANA special-purpose registries), shared by
// my_ip, ip_info and dnsbl_check.

const LABELS: Readonly<Record<string, string>> = {
  unicast: "public",
  private: "private",
  loopback: "loopback",
  linkLocal: "link-local",
  carrierGradeNat: "CGNAT",
  multicast: "multicast",
  broadcast: "broadcast",
  reserved: "reserved",
  unspecified: "unspecified",
  uniqueLocal: "private (ULA)",
  ipv4Mapped: "IPv4-mapped",
  rfc6145: "IPv4-translated",
  rfc6052: "NAT64",
  "6to4": "6to4",
  teredo: "Teredo",
  benchmarking: "benchmarking",
  amt: "AMT",
  as112: "AS112",
  deprecated: "deprecated",
  orchid2: "ORCHIDv2",
  droneRemoteIdProtocolEntityTags: "reserved",
};

/** The documentation ranges ipaddr.js files under "reserved", named precisely. */
const DOCUMENTATION = ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32"].map((c) => ipaddr.parseCIDR(c));

export interface IpKind {
  readonly ip: string;
  readonly version: 4 | 6;
  /** public, private, loopback, CGNAT, documentation, … */
  readonly type: string;
  /** Whether the address is routable on the public Internet. */
  readonly global: boolean;
  /** The reverse-DNS name (in-addr.arpa / ip6.arpa). */
  readonly arpa: string;
}

export function ipKind(ip: string): IpKind {
  const addr = ipaddr.parse(ip);
  const version = addr.kind() === "ipv6" ? 6 : 4;
  const range = addr.range();
  const doc = DOCUMENTATION.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
  const type = doc ? "documentation" : (LABELS[range] ?? range);
  return { ip: addr.toString(), version, type, global: range === "unicast" && !doc, arpa: arpaOf(addr) };
}

function arpaOf(addr: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (addr.kind() === "ipv4") return `${(addr as ipaddr.IPv4).octets.slice().reverse().join(".")}.in-addr.arpa`;
  const hex = (addr as ipaddr.IPv6).parts.map((p) => p.toString(16).padStart(4, "0")).join("");
  return `${hex.split("").reverse().join(".")}.ip6.arpa`;
}

/** The reversed form a DNSBL query puts before its zone (1.2.3.4 → 4.3.2.1; IPv6 by nibbles). */
export function reversedLabels(ip: string): string {
  return ipKind(ip).arpa.replace(/\.(in-addr|ip6)\.arpa$/, "");
}
