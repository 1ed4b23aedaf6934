import type { promises as dnsPromises } from "node:dns";
import type { NetRecord } from "../../utilities/index.ts";

// Reading DNS records as the utilities show them ("10 mx.example.com"): the questions go out
// through the egress's DNS client (utility-net.ts); this only reads the answers.

/** The record types a utility may ask for. */
export const RECORD_TYPES = new Set(["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SOA", "CAA", "SRV", "PTR"]);

/** The records of one type of a name, asked of the resolver. */
export async function records(r: dnsPromises.Resolver, name: string, t: string): Promise<NetRecord[]> {
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
