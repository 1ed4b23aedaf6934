import { isIP } from "node:net";
import { UtilityError, defineUtility, type NetConnect } from "../utility.ts";
import { netOf } from "../site/net-util.ts";

/** Well-known services of the allow-listed ports. */
const SERVICES: Readonly<Record<number, string>> = {
  21: "FTP", 22: "SSH", 25: "SMTP", 53: "DNS", 80: "HTTP", 110: "POP3", 143: "IMAP", 443: "HTTPS", 465: "SMTPS", 587: "SMTP submission",
  993: "IMAPS", 995: "POP3S", 3306: "MySQL", 5432: "PostgreSQL", 8080: "HTTP alternate", 8443: "HTTPS alternate",
};

interface Input {
  host: string;
  ports: string[];
  count: number;
}

export const portCheck = defineUtility<Input>({
  id: "port_check",
  group: "net",
  title: "Port check & TCP ping",
  description:
    "Connects to allow-listed ports of a public host and reports open, closed or filtered, with connect latency min/avg/max over N tries. ICMP needs raw sockets, so a TCP connect stands in for ping",
  net: true,
  file: false,
  fields: [
    { name: "host", type: "str", label: "Host or IP", required: true, max: 253 },
    { name: "ports", type: "list", label: "Ports (21, 22, 25, 53, 80, 110, 143, 443, 465, 587, 993, 995, 3306, 5432, 8080, 8443)", max: 10, default: ["80", "443"] },
    { name: "count", type: "int", label: "Tries per port", default: 3, min: 1, max: 10 },
  ],
  example: { host: "example.com", ports: ["80", "443"], count: 3 },
  async run(input, ports) {
    const net = netOf(ports);
    const host = input.host.trim().replace(/^\[|\]$/g, "").toLowerCase();
    if (isIP(host) === 0 && !/^[a-z0-9.-]+\.[a-z0-9-]+$/i.test(host)) throw new UtilityError("bad_param", `"${input.host.slice(0, 100)}" is not a host name or an IP address`, "input.host");
    const wanted = input.ports.map((p) => {
      const n = Number(p);
      if (!Number.isInteger(n) || n < 1 || n > 65_535) throw new UtilityError("bad_param", `"${p}" is not a port number`, "input.ports");
      return n;
    });
    const ip = (await net.addresses(host))[0] as string;
    const rows: { port: number; service: string | null; state: NetConnect["state"]; tries: number; rtt_ms: { min: number; avg: number; max: number } | null }[] = [];
    for (const port of [...new Set(wanted)]) {
      const times: number[] = [];
      let state: NetConnect["state"] = "filtered";
      for (let i = 0; i < input.count; i++) {
        const c = await net.connect(ip, port, 3000);
        state = c.state;
        if (c.state !== "open") break;
        times.push(c.ms);
      }
      const rtt = times.length > 0 ? { min: Math.min(...times), avg: Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 10) / 10, max: Math.max(...times) } : null;
      rows.push({ port, service: SERVICES[port] ?? null, state: times.length > 0 ? "open" : state, tries: Math.max(1, times.length), rtt_ms: rtt });
    }
    const level = (s: NetConnect["state"]): "good" | "bad" | "warn" => (s === "open" ? "good" : s === "closed" ? "bad" : "warn");
    return {
      result: { host, ip, ports: rows },
      blocks: {
        pairs: [{ label: "Address", value: ip }, ...rows.map((r) => ({ label: `Port ${r.port}${r.service ? ` (${r.service})` : ""}`, value: r.state, status: level(r.state) }))],
        tables: [
          {
            title: `TCP connects to ${ip}`,
            columns: ["Port", "Service", "State", "min ms", "avg ms", "max ms"],
            rows: rows.map((r) => [r.port, r.service, r.state, r.rtt_ms?.min ?? null, r.rtt_ms?.avg ?? null, r.rtt_ms?.max ?? null]),
          },
        ],
      },
    };
  },
});
