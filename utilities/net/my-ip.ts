import { isIP } from "node:net";
import { UtilityError, defineUtility, type Pair, type Warning } from "../utility.ts";
import { bodyText, netOf } from "../site/net-util.ts";
import { ipKind } from "./ip-kind.ts";

interface Input {
  show_interfaces: boolean;
}

/** The address an echo service answers: plain text, or JSON with an ip (or origin/address) field. */
function echoed(text: string): string | null {
  const trimmed = text.trim();
  if (isIP(trimmed) !== 0) return trimmed;
  try {
    const data = JSON.parse(trimmed) as Record<string, unknown>;
    for (const key of ["ip", "origin", "address", "query"]) {
      const v = data[key];
      if (typeof v === "string" && isIP(v.split(",")[0]?.trim() ?? "") !== 0) return (v.split(",")[0] as string).trim();
    }
  } catch {
    // not JSON
  }
  return null;
}

export const myIp = defineUtility<Input>({
  id: "my_ip",
  group: "net",
  title: "What is my IP (the checking server's)",
  description:
    "The address the network utilities' traffic leaves from: the crawler node's interface addresses and, when the operator configured an echo service, the public address that service sees (behind NAT the two differ). Useful to allow-list this service in a firewall or WAF",
  net: true,
  file: false,
  fields: [{ name: "show_interfaces", type: "bool", label: "List the node's interface addresses", default: true }],
  example: { show_interfaces: true },
  async run(input, ports) {
    const net = netOf(ports);
    const warnings: Warning[] = [];
    let egress: string | null = null;
    let source: "echo" | "interface" | "none" = "none";
    if (net.echoUrl !== null) {
      let res;
      try {
        res = await net.fetch(net.echoUrl, { headers: { accept: "text/plain, application/json" }, maxBytes: 4096 });
      } catch (err) {
        if (!(err instanceof UtilityError)) throw err;
        throw new UtilityError("tool_failed", `the echo service did not answer: ${err.message}`);
      }
      egress = res.status === 200 ? echoed(bodyText(res)) : null;
      if (egress === null) throw new UtilityError("tool_failed", `the echo service answered ${res.status} without an address`);
      source = "echo";
    }
    const interfaces = net.interfaces().map((i) => ({ name: i.name, address: i.address, ...pick(ipKind(i.address.split("%")[0] as string)) }));
    if (egress === null) {
      // Without an echo service the public address is known only when an interface holds one.
      const pub = interfaces.find((i) => i.global);
      if (pub) {
        egress = pub.address;
        source = "interface";
      } else warnings.push({ code: "service_off", text: "no echo service is configured (SVC_UTILITY_ECHO_URL) and no interface holds a public address: the address seen outside (after NAT) is unknown" });
    }
    const kind = egress !== null ? ipKind(egress) : null;
    const pairs: Pair[] = [
      { label: "Public address", value: egress ?? "unknown", status: egress ? "good" : "warn" },
      { label: "Found by", value: source === "echo" ? "the operator's echo service" : source === "interface" ? "an interface of the node" : "—" },
    ];
    return {
      result: { ip: egress, version: kind?.version ?? null, type: kind?.type ?? null, source, interfaces: input.show_interfaces ? interfaces : [] },
      blocks: {
        pairs,
        tables: input.show_interfaces ? [{ title: "Interfaces", columns: ["Interface", "Address", "Version", "Type"], rows: interfaces.map((i) => [i.name, i.address, i.version, i.type]) }] : [],
      },
      warnings,
    };
  },
});

function pick(k: ReturnType<typeof ipKind>) {
  return { version: k.version, type: k.type, global: k.global };
}
