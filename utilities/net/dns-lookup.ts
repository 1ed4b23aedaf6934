import { isIP } from "node:net";
import { defineUtility, type NetRecord } from "../utility.ts";
import { netOf } from "../site/net-util.ts";

const TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SOA", "CAA", "SRV", "PTR"] as const;
const RESOLVERS = ["system", "google", "cloudflare", "quad9", "yandex"] as const;

interface Input {
  name: string;
  types: string[];
  resolvers: string[];
}

interface Answer extends NetRecord {
  readonly resolver: string;
}

/** The reverse-DNS name of an IPv4 address (1.2.3.4 → 4.3.2.1.in-addr.arpa). */
function reverseName(ip: string): string {
  return `${ip.split(".").reverse().join(".")}.in-addr.arpa`;
}

export const dnsLookup = defineUtility<Input>({
  id: "dns_lookup",
  group: "net",
  title: "DNS lookup & propagation",
  description:
    "Raw DNS query for any name and record type (A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV, PTR) with TTLs, through one or more public resolvers. Unlike GET /dns/{host}: no findings or score, any name, type or resolver",
  net: true,
  file: false,
  fields: [
    { name: "name", type: "host", label: "Name", required: true },
    { name: "types", type: "multi", label: "Record types", options: TYPES, default: ["A", "AAAA", "MX", "NS", "TXT"] },
    { name: "resolvers", type: "multi", label: "Resolvers", options: RESOLVERS, default: ["system"] },
  ],
  example: { name: "example.com", types: ["A", "MX", "TXT"], resolvers: ["system"] },
  async run(input, ports) {
    const net = netOf(ports);
    const answers: Answer[] = [];
    const byResolver = new Map<string, Map<string, string>>();
    for (const resolver of input.resolvers) {
      const seen = new Map<string, string>();
      for (const type of input.types) {
        const name = type === "PTR" && isIP(input.name) === 4 ? reverseName(input.name) : input.name;
        const records = await net.resolve(name, type, resolver);
        for (const r of records) answers.push({ resolver, ...r });
        seen.set(type, records.map((r) => r.value).sort().join("\n"));
      }
      byResolver.set(resolver, seen);
    }
    // Propagation: every resolver saw the same records of every type (TTLs count down, so they may differ).
    const sets = [...byResolver.values()];
    const differing = input.types.filter((t) => new Set(sets.map((s) => s.get(t))).size > 1);
    const consistent = differing.length === 0;
    const empty = input.types.filter((t) => !answers.some((a) => a.type === t));
    return {
      result: { name: input.name, answers, consistent, differing_types: differing, empty_types: empty },
      blocks: {
        pairs: [
          { label: "Records", value: String(answers.length), status: answers.length > 0 ? "good" : "warn" },
          ...(input.resolvers.length > 1 ? [{ label: "Resolvers agree", value: consistent ? "yes" : `no (${differing.join(", ")})`, status: consistent ? ("good" as const) : ("warn" as const) }] : []),
          ...(empty.length > 0 ? [{ label: "No records of type", value: empty.join(", "), status: "info" as const }] : []),
        ],
        tables: [{ title: `DNS records of ${input.name}`, columns: ["Resolver", "Type", "Value", "TTL"], rows: answers.map((a) => [a.resolver, a.type, a.value, a.ttl]) }],
      },
    };
  },
});
