import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { UtilityError, defineUtility, type UtilityNet } from "../utility.ts";
import { netOf } from "../site/net-util.ts";
import { ipKind } from "./ip-kind.ts";

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
  return { ip: kind.ip, version: kind.version, type: kind.type, global: kind.global, arpa: kind.arpa, ptr, fcrdns };
}

export const ipInfo = defineUtility<Input>({
  id: "ip_info",
  group: "net",
  title: "IP / hosting info",
  description:
    "Resolves a host to its IPs. For each IP gives the version, the address type (public, private, CGNAT, loopback, documentation, reserved…), the reverse DNS (PTR) and whether it resolves back (forward-confirmed)",
  net: true,
  file: false,
  fields: [{ name: "target", type: "str", label: "Host or IP", required: true, max: 253 }],
  example: { target: "example.com" },
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
      result: { target: input.target, host: "host" in target ? target.host : null, ips: rows },
      blocks: {
        tables: [{ title: "Addresses", columns: ["IP", "Version", "Type", "PTR", "Resolves back"], rows: rows.map((r) => [r.ip, r.version, r.type, r.ptr.join(", "), r.fcrdns]) }],
      },
      warnings: rows.some((r) => !r.global) ? [{ code: "not_public", text: "some addresses are not public: they cannot be reached from the Internet" }] : [],
    };
  },
});
