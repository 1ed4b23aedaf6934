// Which addresses Svc may contact on a user's behalf. The gateway's host check (a site's
// address literal) and the crawler's egress guard (every address a target resolves to) judge
// with this one function, so a literal the gateway accepts is one the guard would dial, and
// the reverse. It lives in runtime/ because both roles need it and neither may import the other.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * - `public`: global unicast; always a valid target.
 * - `private`: loopback, private networks, reserved ranges…; a target only with
 *   SVC_ALLOW_PRIVATE_TARGETS (tests, intranets).
 * - `forbidden`: link-local and cloud metadata; a target only when the operator names it in
 *   SVC_ALLOW_LINK_LOCAL_TARGETS, whatever SVC_ALLOW_PRIVATE_TARGETS says.
 */
export type AddressTier = "public" | "private" | "forbidden";

export interface AddressVerdict {
  readonly tier: AddressTier;
  /** ipaddr.js's range name of the judged address, or metadata, ipv4Compatible, reserved, nat64Local, invalid. */
  readonly range: string;
}

export interface TargetPolicy {
  readonly allowPrivateTargets: boolean;
  /** Link-local or metadata addresses, CIDR networks and names allowed anyway (SVC_ALLOW_LINK_LOCAL_TARGETS). */
  readonly allowLinkLocal: readonly string[];
}

// Instance metadata services: AWS (IPv4 and IPv6), GCP, Azure, Oracle, DigitalOcean and
// OpenStack share 169.254.169.254; Alibaba answers on 100.100.100.200; ECS task metadata on 169.254.170.2.
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal", "metadata.azure.internal"]);

const PUBLIC: AddressVerdict = { tier: "public", range: "unicast" };

/** Judges one address literal (IPv4, or IPv6 without brackets); IPv4 carried inside IPv6 is judged as that IPv4. */
export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return { tier: "forbidden", range: "invalid" };
  const addr = ipaddr.parse(address);
  if (METADATA_ADDRESSES.has(addr.toString())) return { tier: "forbidden", range: "metadata" };
  return addr.kind() === "ipv4" ? classifyIPv4(addr as ipaddr.IPv4) : classifyIPv6(addr as ipaddr.IPv6);
}

function classifyIPv4(addr: ipaddr.IPv4): AddressVerdict {
  if (METADATA_ADDRESSES.has(addr.toString())) return { tier: "forbidden", range: "metadata" };
  const range = addr.range();
  if (range === "unicast") return PUBLIC;
  return { tier: range === "linkLocal" ? "forbidden" : "private", range };
}

function classifyIPv6(addr: ipaddr.IPv6): AddressVerdict {
  const range = addr.range();
  const bytes = addr.toByteArray();
  const v4 = (from: number) => ipaddr.fromByteArray(bytes.slice(from, from + 4)) as ipaddr.IPv4;
  switch (range) {
    case "unicast": {
      // ::/96 (IPv4-compatible, deprecated by RFC 4291) is what ipaddr.js calls unicast; :: and ::1
      // are matched earlier as unspecified and loopback. Refused even around a public IPv4.
      if (bytes.slice(0, 12).every((b) => b === 0)) return embedded(v4(12), { tier: "private", range: "ipv4Compatible" });
      // ipaddr.js calls everything it has no name for unicast; IANA allocates global unicast only
      // from 2000::/3. The rest (::/8 around the mapped and translated forms, 4000::/2…) is reserved
      // and routes nowhere public, so a host there is refused rather than dialled (Q11: ::1:7f00:1).
      if ((bytes[0] as number) >> 5 !== 0b001) return { tier: "private", range: "reserved" };
      return PUBLIC;
    }
    case "ipv4Mapped": // ::ffff:0:0/96
    case "rfc6145": // ::ffff:0:0:0/96, IPv4-translated
      return classifyIPv4(v4(12));
    case "rfc6052": {
      // 64:ff9b::/96 carries the IPv4 in its last 32 bits; 64:ff9b:1::/48 is for local use only.
      if (bytes[4] === 0 && bytes[5] === 0) return classifyIPv4(v4(12));
      return { tier: "private", range: "nat64Local" };
    }
    case "6to4": // 2002:AABB:CCDD::/48
      return classifyIPv4(v4(2));
    case "teredo": {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the server's IPv4 as is, the client's inverted.
      const client = ipaddr.fromByteArray(bytes.slice(12, 16).map((b) => b ^ 0xff)) as ipaddr.IPv4;
      const inner = [classifyIPv4(client), classifyIPv4(v4(4))];
      return inner.find((v) => v.tier === "forbidden") ?? inner.find((v) => v.tier === "private") ?? { tier: "private", range: "teredo" };
    }
    case "linkLocal":
      return { tier: "forbidden", range };
    default:
      return { tier: "private", range };
  }
}

/** The embedded IPv4's verdict when it is not public, else the container's own. */
function embedded(v4: ipaddr.IPv4, otherwise: AddressVerdict): AddressVerdict {
  const inner = classifyIPv4(v4);
  return inner.tier === "public" ? otherwise : inner;
}

/** Whether a host name is a cloud metadata service's (refused like its address). */
export function isMetadataName(name: string): boolean {
  return METADATA_NAMES.has(name.toLowerCase().replace(/\.$/, ""));
}

/** Why an address may not be a target under the policy (its range), or null when it may. */
export function refusedRange(address: string, policy: TargetPolicy): string | null {
  const verdict = classifyAddress(address);
  if (verdict.tier === "public") return null;
  if (verdict.tier === "private" && policy.allowPrivateTargets) return null;
  if (verdict.tier === "forbidden" && verdict.range !== "invalid" && inAllowList(address, policy.allowLinkLocal)) return null;
  return verdict.range;
}

/** Whether a metadata name may be a target: only when the operator listed it. */
export function nameRefused(name: string, policy: TargetPolicy): boolean {
  return isMetadataName(name) && !policy.allowLinkLocal.includes(name.toLowerCase().replace(/\.$/, ""));
}

function inAllowList(address: string, list: readonly string[]): boolean {
  if (list.length === 0) return false;
  const addr = ipaddr.process(address);
  return list.some((entry) => {
    if (isIP(entry) !== 0) return ipaddr.process(entry).toString() === addr.toString();
    if (!entry.includes("/")) return false;
    const [net, bits] = ipaddr.parseCIDR(entry);
    return net.kind() === addr.kind() && addr.match([net, bits]);
  });
}
