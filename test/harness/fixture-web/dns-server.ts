import { createSocket, type RemoteInfo, type Socket as UdpSocket } from "node:dgram";
import { createServer, isIP, type Server, type Socket } from "node:net";
import dnsPacket, { type Answer, type DecodedPacket, type Question } from "dns-packet";

// An authoritative DNS server for the fixture zones (UDP and TCP on one port of a loopback address), so
// the crawler resolves the fixture sites through SVC_DNS_SERVERS exactly as it would resolve real
// ones: NXDOMAIN for unknown names inside a zone, NOERROR without answers for a name that lacks
// the type asked, REFUSED for names outside every zone, and truncation (TC) of UDP answers larger
// than the client accepts, which real resolvers retry over TCP.

/** The records of one name. TXT: a string is one record (cut into 255-byte chunks), an array one record of explicit chunks. */
export interface RecordSet {
  readonly A?: readonly string[];
  readonly AAAA?: readonly string[];
  readonly NS?: readonly string[];
  readonly MX?: readonly { readonly preference: number; readonly exchange: string }[];
  readonly TXT?: readonly (string | readonly string[])[];
  readonly CAA?: readonly { readonly flags?: number; readonly tag: "issue" | "issuewild" | "iodef"; readonly value: string }[];
  /** Reverse names (in an in-addr.arpa zone): the host names of an address. */
  readonly PTR?: readonly string[];
}

/** A zone: its origin and its names relative to it ("@" for the apex, "www", "_dmarc", …). */
export interface Zone {
  readonly origin: string;
  readonly names: Readonly<Record<string, RecordSet>>;
}

export interface QueryLogEntry {
  readonly name: string;
  readonly type: string;
  readonly transport: "udp" | "tcp";
  readonly rcode: "NOERROR" | "NXDOMAIN" | "REFUSED";
  readonly truncated: boolean;
}

export interface DnsListenOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: a free port (the same for UDP and TCP). */
  readonly port?: number;
}

export interface FixtureDnsServer {
  /** The value for SVC_DNS_SERVERS: "127.0.0.1:5353", "[::1]:5353", or the bare address on port 53. */
  readonly address: string;
  readonly host: string;
  readonly port: number;
  /** Every question answered, in order. */
  readonly queries: readonly QueryLogEntry[];
  close(): Promise<void>;
}

const TTL = 300;
const RCODE = { NOERROR: 0, NXDOMAIN: 3, REFUSED: 5 } as const;
const PLAIN_UDP_LIMIT = 512;

/** Starts the server with UDP and TCP on the same port; rejects when the port cannot be bound (EADDRINUSE, EACCES). */
export async function startDnsServer(zones: readonly Zone[], opts: DnsListenOptions = {}): Promise<FixtureDnsServer> {
  const table = buildTable(zones);
  const queries: QueryLogEntry[] = [];
  const respond = (query: Buffer, transport: "udp" | "tcp"): Buffer | null => answer(table, query, transport, queries);
  const host = opts.host ?? "127.0.0.1";
  const { udp, tcp, port } = await listenBoth(respond, host, opts.port ?? 0);
  const v6 = isIP(host) === 6;
  return {
    address: port === 53 ? host : v6 ? `[${host}]:${port}` : `${host}:${port}`,
    host,
    port,
    queries,
    close: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        for (const s of openSockets.get(tcp) ?? []) s.destroy();
      });
    },
  };
}

interface Table {
  /** Zone origins, longest first (a name belongs to the most specific zone). */
  readonly origins: string[];
  /** Absolute lower-case name → records. */
  readonly names: Map<string, RecordSet>;
}

function buildTable(zones: readonly Zone[]): Table {
  const names = new Map<string, RecordSet>();
  for (const zone of zones) {
    const origin = zone.origin.toLowerCase();
    for (const [relative, records] of Object.entries(zone.names)) {
      names.set(relative === "@" ? origin : `${relative.toLowerCase()}.${origin}`, records);
    }
  }
  const origins = zones.map((z) => z.origin.toLowerCase()).sort((a, b) => b.length - a.length);
  return { origins, names };
}

function answer(table: Table, raw: Buffer, transport: "udp" | "tcp", log: QueryLogEntry[]): Buffer | null {
  let query: DecodedPacket;
  try {
    query = dnsPacket.decode(raw);
  } catch {
    return null; // not a DNS message: dropped, as a real server would
  }
  const question = query.questions?.[0];
  if (!question || query.flag_qr) return null;
  const name = question.name.toLowerCase().replace(/\.$/, "");
  const origin = table.origins.find((o) => name === o || name.endsWith(`.${o}`));
  let rcode: keyof typeof RCODE = "REFUSED";
  let answers: Answer[] = [];
  let authorities: Answer[] = [];
  if (origin !== undefined) {
    const records = table.names.get(name);
    rcode = records === undefined && !hasDescendant(table, name) ? "NXDOMAIN" : "NOERROR";
    answers = records ? recordsOf(question, records) : [];
    // Negative answers carry the zone's SOA (RFC 2308), as authoritative servers send it.
    if (answers.length === 0) authorities = [soa(origin)];
  }
  const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
  const opt = query.additionals?.find((a) => a.type === "OPT");
  const response = {
    type: "response" as const,
    id: query.id ?? 0,
    flags: (origin !== undefined ? dnsPacket.AUTHORITATIVE_ANSWER : 0) | rd | RCODE[rcode],
    questions: [question],
    answers,
    authorities,
    additionals: opt ? [{ type: "OPT" as const, name: ".", udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }] : [],
  };
  let out = dnsPacket.encode(response);
  const limit = transport === "tcp" ? Infinity : opt && "udpPayloadSize" in opt ? Math.max(PLAIN_UDP_LIMIT, opt.udpPayloadSize) : PLAIN_UDP_LIMIT;
  const truncated = out.length > limit;
  if (truncated) out = dnsPacket.encode({ ...response, flags: response.flags | dnsPacket.TRUNCATED_RESPONSE, answers: [], authorities: [] });
  log.push({ name, type: question.type, transport, rcode, truncated });
  return out;
}

/** An empty non-terminal (e.g. `_bimi.example.test` under `default._bimi.example.test`) exists: NOERROR, not NXDOMAIN. */
function hasDescendant(table: Table, name: string): boolean {
  for (const n of table.names.keys()) if (n.endsWith(`.${name}`)) return true;
  return false;
}

function recordsOf(q: Question, r: RecordSet): Answer[] {
  const base = { name: q.name, ttl: TTL, class: "IN" as const };
  switch (q.type) {
    case "A":
      return (r.A ?? []).map((data) => ({ ...base, type: "A" as const, data }));
    case "AAAA":
      return (r.AAAA ?? []).map((data) => ({ ...base, type: "AAAA" as const, data }));
    case "NS":
      return (r.NS ?? []).map((data) => ({ ...base, type: "NS" as const, data }));
    case "MX":
      return (r.MX ?? []).map((m) => ({ ...base, type: "MX" as const, data: { preference: m.preference, exchange: m.exchange } }));
    case "TXT":
      return (r.TXT ?? []).map((t) => ({ ...base, type: "TXT" as const, data: typeof t === "string" ? chunks(t) : [...t] }));
    case "CAA":
      return (r.CAA ?? []).map((c) => ({ ...base, type: "CAA" as const, data: { flags: c.flags ?? 0, tag: c.tag, value: c.value } }));
    case "PTR":
      return (r.PTR ?? []).map((data) => ({ ...base, type: "PTR" as const, data }));
    default:
      return [];
  }
}

/** A TXT string longer than 255 bytes travels as several character-strings of one record. */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 255) out.push(text.slice(i, i + 255));
  return out.length > 0 ? out : [""];
}

function soa(origin: string): Answer {
  return {
    name: origin,
    type: "SOA",
    ttl: TTL,
    class: "IN",
    data: { mname: `ns1.${origin}`, rname: `hostmaster.${origin}`, serial: 2024010101, refresh: 3600, retry: 600, expire: 604800, minimum: 60 },
  };
}

const openSockets = new WeakMap<Server, Set<Socket>>();

/** UDP and TCP on one port: the UDP port is taken first (a free one for port 0), then TCP on it (a few attempts). */
async function listenBoth(respond: (query: Buffer, transport: "udp" | "tcp") => Buffer | null, host: string, wanted: number): Promise<{ udp: UdpSocket; tcp: Server; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const udp = createSocket(isIP(host) === 6 ? "udp6" : "udp4");
    udp.on("message", (msg: Buffer, peer: RemoteInfo) => {
      const out = respond(msg, "udp");
      if (out) udp.send(out, peer.port, peer.address);
    });
    await new Promise<void>((resolve, reject) => {
      udp.once("error", (err) => {
        udp.close();
        reject(err);
      });
      udp.bind(wanted, host, () => resolve());
    });
    const port = udp.address().port;
    const tcp = tcpServer(respond);
    const failure = await new Promise<Error | null>((resolve) => {
      tcp.once("error", resolve);
      tcp.listen(port, host, () => resolve(null));
    });
    if (failure === null) return { udp, tcp, port };
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (wanted !== 0) throw failure;
    if (attempt >= 10) throw new Error(`no port free for both UDP and TCP on ${host}`);
  }
}

/** DNS over TCP: each message is preceded by its length in two bytes (RFC 1035 §4.2.2). */
function tcpServer(respond: (query: Buffer, transport: "udp" | "tcp") => Buffer | null): Server {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on("data", (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const length = pending.readUInt16BE(0);
        const out = respond(pending.subarray(2, 2 + length), "tcp");
        pending = pending.subarray(2 + length);
        if (out) {
          const prefix = Buffer.alloc(2);
          prefix.writeUInt16BE(out.length);
          socket.write(Buffer.concat([prefix, out]));
        }
      }
    });
  });
  openSockets.set(server, sockets);
  return server;
}
