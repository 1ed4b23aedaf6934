import ipaddr from "ipaddr.js";
import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  cidr: string;
  check_ips?: string[];
  split_to?: number;
}

const SPLIT_LISTED = 256;

function toBig(bytes: number[]): bigint {
  return bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

function fromBig(n: bigint, v6: boolean): string {
  const len = v6 ? 16 : 4;
  const bytes: number[] = [];
  for (let i = 0; i < len; i++) bytes.unshift(Number((n >> BigInt(8 * i)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

/** The address and prefix of "ip", "ip/len" or "ip mask" (IPv4 dotted mask). */
function parseCidr(raw: string): { addr: ipaddr.IPv4 | ipaddr.IPv6; prefix: number } {
  const value = raw.trim();
  const bad = (why: string) => new UtilityError("bad_param", `"${value.slice(0, 100)}" ${why}`, "input.cidr");
  const [ip, rest] = value.includes("/") ? value.split("/", 2) : value.split(/\s+/, 2);
  if (!ip || !ipaddr.isValid(ip)) throw bad("is not an IP address, IP/prefix or IP and mask");
  const parsed = ipaddr.parse(ip);
  const addr = parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  const bits = addr.kind() === "ipv4" ? 32 : 128;
  if (rest === undefined) return { addr, prefix: bits };
  if (/^\d{1,3}$/.test(rest)) {
    const prefix = Number(rest);
    if (prefix > bits) throw bad(`has a prefix longer than ${bits}`);
    return { addr, prefix };
  }
  if (addr.kind() === "ipv4" && ipaddr.IPv4.isValid(rest)) {
    const prefix = ipaddr.IPv4.parse(rest).prefixLengthFromSubnetMask();
    if (prefix === null) throw bad("has a mask that is not contiguous");
    return { addr, prefix };
  }
  throw bad("has no usable prefix length or mask");
}

/** An IPv6 address with every group in four digits (2001:0db8:0000:…). */
function expanded(addr: ipaddr.IPv6): string {
  return addr.parts.map((p) => p.toString(16).padStart(4, "0")).join(":");
}

/** The reverse-DNS name of an address. */
function arpa(addr: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (addr.kind() === "ipv4") return `${addr.toByteArray().reverse().join(".")}.in-addr.arpa`;
  const hex = expanded(addr as ipaddr.IPv6).replace(/:/g, "");
  return `${[...hex].reverse().join(".")}.ip6.arpa`;
}

export const subnetCalc = defineUtility<Input>({
  id: "subnet_calc",
  group: "net",
  title: "Subnet calculator & IP converter",
  description:
    "IPv4/IPv6 CIDR calculator: network, broadcast, mask, wildcard, usable range, host count, subnet split. Converts IP ⇄ integer/hex/binary, expands and compresses IPv6, gives the reverse-zone name. Tests IPs against CIDR lists (such as a key's allowed_ips)",
  net: false,
  file: false,
  fields: [
    { name: "cidr", type: "str", label: "IP, IP/prefix or IP and mask", required: true, max: 100 },
    { name: "check_ips", type: "list", label: "IPs to test against it", max: 100 },
    { name: "split_to", type: "int", label: "Split into subnets of this prefix", min: 0, max: 128 },
  ],
  example: { cidr: "192.168.10.77/26", check_ips: ["192.168.10.100", "192.168.10.128"], split_to: 28 },
  run(input) {
    const { addr, prefix } = parseCidr(input.cidr);
    const v6 = addr.kind() === "ipv6";
    const bits = v6 ? 128 : 32;
    const all = (1n << BigInt(bits)) - 1n;
    const maskBig = prefix === 0 ? 0n : (all << BigInt(bits - prefix)) & all;
    const value = toBig(addr.toByteArray());
    const network = value & maskBig;
    const broadcast = network | (~maskBig & all);
    const size = 1n << BigInt(bits - prefix);
    // IPv4 /31 and /32 have no network or broadcast address to spare (RFC 3021); IPv6 has no broadcast.
    const spare = !v6 && prefix < 31;
    const first = spare ? network + 1n : network;
    const last = spare ? broadcast - 1n : broadcast;
    const hosts = spare ? size - 2n : size;
    const hostsOut = hosts <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(hosts) : hosts.toString();

    const checks = (input.check_ips ?? []).map((ip) => {
      if (!ipaddr.isValid(ip.trim())) return { ip, inside: false, valid: false };
      const p = ipaddr.parse(ip.trim());
      const a = p.kind() === "ipv6" && (p as ipaddr.IPv6).isIPv4MappedAddress() ? (p as ipaddr.IPv6).toIPv4Address() : p;
      return { ip, inside: a.kind() === addr.kind() && (toBig(a.toByteArray()) & maskBig) === network, valid: true };
    });

    const subnets: string[] = [];
    let subnetCount: number | string | null = null;
    if (input.split_to !== undefined) {
      if (input.split_to < prefix || input.split_to > bits) throw new UtilityError("bad_param", `must be between ${prefix} and ${bits} for a /${prefix}`, "input.split_to");
      const count = 1n << BigInt(input.split_to - prefix);
      const step = 1n << BigInt(bits - input.split_to);
      subnetCount = count <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(count) : count.toString();
      for (let i = 0n; i < count && i < BigInt(SPLIT_LISTED); i++) subnets.push(`${fromBig(network + i * step, v6)}/${input.split_to}`);
    }

    const hex = value.toString(16).padStart(bits / 4, "0");
    const result = {
      version: v6 ? 6 : 4,
      address: addr.toString(),
      prefix,
      network: `${fromBig(network, v6)}/${prefix}`,
      broadcast: v6 ? null : fromBig(broadcast, false),
      mask: fromBig(maskBig, v6),
      wildcard: v6 ? null : fromBig(~maskBig & all, false),
      first: fromBig(first, v6),
      last: fromBig(last, v6),
      hosts: hostsOut,
      range: addr.range(),
      forms: {
        int: value.toString(),
        hex: `0x${hex}`,
        bin: v6 ? null : value.toString(2).padStart(32, "0").replace(/(\d{8})(?=\d)/g, "$1."),
        expanded: v6 ? expanded(addr as ipaddr.IPv6) : null,
        compressed: addr.toString(),
        arpa: arpa(addr),
      },
      checks,
      subnets,
      subnet_count: subnetCount,
    };
    return {
      result,
      blocks: {
        pairs: [
          { label: "Network", value: result.network },
          ...(result.broadcast ? [{ label: "Broadcast", value: result.broadcast }] : []),
          { label: "Mask", value: `${result.mask} (/${prefix})` },
          ...(result.wildcard ? [{ label: "Wildcard", value: result.wildcard }] : []),
          { label: "Usable range", value: `${result.first} – ${result.last}` },
          { label: "Usable hosts", value: String(result.hosts) },
          { label: "Address type", value: result.range },
          { label: "Integer", value: result.forms.int },
          { label: "Reverse zone", value: result.forms.arpa },
        ],
        tables: [
          ...(checks.length > 0 ? [{ title: `Inside ${result.network}?`, columns: ["IP", "Inside", "Valid"], rows: checks.map((c) => [c.ip, c.inside, c.valid]) }] : []),
          ...(subnets.length > 0 ? [{ title: `Subnets /${input.split_to}${subnets.length < Number(subnetCount) ? ` (first ${subnets.length} of ${subnetCount})` : ""}`, columns: ["Subnet"], rows: subnets.map((s) => [s]) }] : []),
        ],
      },
    };
  },
});
