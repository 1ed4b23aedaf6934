import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { Type } from "@sinclair/typebox";
import { UtilityError, defineUtility, type UtilityNet } from "../utility.ts";
import { netOf } from "../site/net-util.ts";
import { ipKind } from "./ip-kind.ts";
import { IP_OWNER_ATTRIBUTION, ipOwner } from "./ip-owner.ts";

interface Input {
  target: string;
}

interface Row {
  ip: string;
  version: 4 | 6;
  type: string;
  global: boolean;
  arpa: string;
  ptr: string[];
  /** Whether a PTR name resolves back to the address (forward-confirmed reverse DNS). */
  fcrdns: boolean | null;
  asn: number | null;
  org: string | null;
  country: string | null;
  network: string | null;
}

/** An IP literal, or a host name (IDN converted); anything else is bad_param. */
export function parseTarget(raw: string): { ip: string } | { host: string } {
  const t = raw.trim().replace(/^\[|\]$/g, "");
  if (isIP(t) !== 0) return { ip: t };
  const host = domainToASCII(t.toLowerCase().replace(/\.$/, ""));
  if (host === "" || !host.includes(".") || /[/\s:@]/.test(t)) throw new UtilityError("bad_param", `"${raw.slice(0, 100)}" is neither an IP address nor a host name`, "input.target");
  return { host };
}

async function describe(net: UtilityNet, ip: string): Promise<Row> {
  const kind = ipKind(ip);
  let ptr: string[] = [];
  let fcrdns: boolean | null = null;
  try {
    ptr = (await net.resolve(kind.arpa, "PTR")).map((r) => r.value.replace(/\.$/, ""));
    if (ptr.length > 0) {
      const back = await net.resolve(ptr[0] as string, kind.version === 6 ? "AAAA" : "A");
      fcrdns = back.some((r) => r.value === kind.ip);
    }
  } catch (err) {
    // No reverse zone answer (REFUSED, SERVFAIL) is a missing PTR, not a failed run.
    if (!(err instanceof UtilityError)) throw err;
  }
  // The owner from the shipped tables (ip-owner.ts); a private or reserved address has none.
  const owner = kind.global ? ipOwner(kind.ip) : { asn: null, org: null, country: null, network: null };
  return { ip: kind.ip, version: kind.version, type: kind.type, global: kind.global, arpa: kind.arpa, ptr, fcrdns, ...owner };
}

export const ipInfo = defineUtility<Input>({
  id: "ip_info",
  group: "net",
  title: "IP / hosting info",
  description:
    "Resolves a host to its IPs. For each IP gives the AS number, organisation, registration country and announced network (offline databases: RouteViews, the RIRs and DB-IP.com, CC BY 4.0), the version, the address type (public, private, CGNAT, loopback, documentation, reserved…), the reverse DNS (PTR) and whether it resolves back (forward-confirmed). Answers \"who hosts the site\"",
  net: true,
  file: false,
  fields: [{ name: "target", type: "str", label: "Host or IP", required: true, max: 253 }],
  example: { target: "example.com" },
  resultSchema: Type.Object({
    target: Type.String({ description: "The target as given" }),
    host: Type.Union([Type.String(), Type.Null()], { description: "The host name resolved (IDN in ASCII); null when the target is an address" }),
    ips: Type.Array(
      Type.Object({
        ip: Type.String(),
        version: Type.Union([Type.Literal(4), Type.Literal(6)]),
        type: Type.String({ description: "public, private, private (ULA), CGNAT, loopback, link-local, documentation, multicast, reserved, …" }),
        global: Type.Boolean({ description: "Routable on the public Internet" }),
        arpa: Type.String({ description: "The reverse-DNS name (in-addr.arpa / ip6.arpa)" }),
        ptr: Type.Array(Type.String(), { description: "PTR names (empty when the reverse zone has none or refuses)" }),
        fcrdns: Type.Union([Type.Boolean(), Type.Null()], { description: "Whether the first PTR name resolves back to the address; null without a PTR" }),
        asn: Type.Union([Type.Integer(), Type.Null()], { description: "The AS announcing the address (e.g. 15169); null for non-public or unannounced addresses" }),
        org: Type.Union([Type.String(), Type.Null()], { description: "The AS's organisation (e.g. Google LLC)" }),
        country: Type.Union([Type.String(), Type.Null()], { description: "ISO 3166-1 alpha-2 code of the registration country (RIR WHOIS; where the range is registered, not where a server stands)" }),
        network: Type.Union([Type.String(), Type.Null()], { description: "The AS record's range: a CIDR (8.8.8.0/24) when it is one, else first-last" }),
      }),
    ),
    attribution: Type.String({ description: "The databases' credit line (CC BY 4.0 asks for it wherever results are shown)" }),
  }),
  async run(input, ports) {
    const net = netOf(ports);
    const target = parseTarget(input.target);
    let ips: string[];
    if ("ip" in target) ips = [target.ip];
    else {
      const found = [...(await net.resolve(target.host, "A")), ...(await net.resolve(target.host, "AAAA"))].map((r) => r.value);
      if (found.length === 0) throw new UtilityError("tool_failed", `${target.host} has no A or AAAA record`);
      ips = [...new Set(found)].slice(0, 10);
    }
    const rows: Row[] = [];
    for (const ip of ips) rows.push(await describe(net, ip));
    return {
      result: { target: input.target, host: "host" in target ? target.host : null, ips: rows, attribution: IP_OWNER_ATTRIBUTION },
      blocks: {
        tables: [
          {
            title: "Addresses",
            columns: ["IP", "AS", "Organisation", "Country", "Network", "Version", "Type", "PTR", "Resolves back"],
            rows: rows.map((r) => [r.ip, r.asn === null ? null : `AS${r.asn}`, r.org, r.country, r.network, r.version, r.type, r.ptr.join(", "), r.fcrdns]),
          },
        ],
        pairs: [{ label: "Data", value: IP_OWNER_ATTRIBUTION }],
      },
      warnings: rows.some((r) => !r.global) ? [{ code: "not_public", text: "some addresses are not public: they cannot be reached from the Internet" }] : [],
    };
  },
});
