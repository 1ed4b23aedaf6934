import { createSocket, type Socket } from "node:dgram";
import dnsPacket, { type Answer } from "dns-packet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectDnsFacts, createEgress, fetchUrl } from "../../../crawler/index.ts";

// A tiny authoritative server for the test zone; names absent from it are NXDOMAIN, "slow." ones never answer.
const ZONE: Record<string, Answer[]> = {
  "shop.example.com": [
    { type: "A", name: "shop.example.com", data: "192.0.2.10" },
    { type: "A", name: "shop.example.com", data: "192.0.2.11" },
    { type: "AAAA", name: "shop.example.com", data: "2001:db8::10" },
    { type: "TXT", name: "shop.example.com", data: ["hel", "lo"] },
  ],
  "example.com": [
    { type: "NS", name: "example.com", data: "ns2.example.net" },
    { type: "NS", name: "example.com", data: "ns1.example.net" },
    { type: "MX", name: "example.com", data: { preference: 20, exchange: "mx2.example.com" } },
    { type: "MX", name: "example.com", data: { preference: 10, exchange: "mx1.example.com" } },
    { type: "CAA", name: "example.com", data: { flags: 0, tag: "issue", value: "letsencrypt.org" } },
    { type: "TXT", name: "example.com", data: "v=spf1 include:_spf.example.net -all" },
    { type: "TXT", name: "example.com", data: "google-site-verification=abc" },
    { type: "TXT", name: "example.com", data: "v=spf1 a -all" },
  ],
  "_dmarc.example.com": [{ type: "TXT", name: "_dmarc.example.com", data: "v=DMARC1; p=reject; rua=mailto:d@example.com" }],
  "default._bimi.example.com": [{ type: "TXT", name: "default._bimi.example.com", data: "v=BIMI1; l=https://example.com/logo.svg" }],
  "intranet.example.com": [{ type: "A", name: "intranet.example.com", data: "127.0.0.1" }],
};

function startDns(): Promise<{ server: string; queries: string[]; socket: Socket }> {
  const socket = createSocket("udp4");
  const queries: string[] = [];
  socket.on("message", (msg, rinfo) => {
    const query = dnsPacket.decode(msg);
    const q = query.questions?.[0];
    if (!q) return;
    const name = q.name.toLowerCase();
    queries.push(`${q.type} ${name}`);
    if (name.startsWith("slow.")) return;
    const records = ZONE[name];
    const answers = (records ?? []).filter((r) => r.type === q.type);
    const rcode = records ? 0 : 3; // NOERROR (possibly no data) or NXDOMAIN
    const reply = dnsPacket.encode({ type: "response", id: query.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode, questions: [q], answers });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  return new Promise((resolve) =>
    socket.bind(0, "127.0.0.1", () => resolve({ server: `127.0.0.1:${socket.address().port}`, queries, socket })),
  );
}

describe("collectDnsFacts", () => {
  let dns: Awaited<ReturnType<typeof startDns>>;
  beforeAll(async () => {
    dns = await startDns();
  });
  afterAll(() => new Promise<void>((resolve) => dns.socket.close(() => resolve())));

  it("collects addresses, zone records, SPF, DMARC and BIMI from the configured server", async () => {
    const facts = await collectDnsFacts("Shop.Example.com", { dnsServers: [dns.server], timeoutMs: 500 });
    expect(facts).toEqual({
      resolved: true,
      error: "",
      a: ["192.0.2.10", "192.0.2.11"],
      aaaa: ["2001:db8::10"],
      ns: ["ns1.example.net", "ns2.example.net"],
      mx: ["10 mx1.example.com", "20 mx2.example.com"],
      txt: ["hello"],
      caa: ["0 issue letsencrypt.org"],
      spf: "v=spf1 include:_spf.example.net -all",
      spfRecords: 2,
      dmarc: "v=DMARC1; p=reject; rua=mailto:d@example.com",
      bimi: "v=BIMI1; l=https://example.com/logo.svg",
      registrableDomain: "example.com",
    });
    // NS, MX and CAA were asked at the host first, then at the registrable domain.
    expect(dns.queries).toEqual(expect.arrayContaining(["NS shop.example.com", "NS example.com", "CAA shop.example.com", "CAA example.com"]));
  });

  it("records NXDOMAIN without throwing", async () => {
    const facts = await collectDnsFacts("missing.example.com", { dnsServers: [dns.server], timeoutMs: 500 });
    expect(facts).toMatchObject({ resolved: false, error: "nxdomain", a: [], aaaa: [], registrableDomain: "example.com", spfRecords: 2 });
  });

  it("records timeouts without throwing", async () => {
    const started = Date.now();
    const facts = await collectDnsFacts("slow.example.org", { dnsServers: [dns.server], timeoutMs: 150 });
    expect(facts.resolved).toBe(false);
    // example.org itself (SPF, DMARC, BIMI) answers NXDOMAIN: absent records, not failures.
    expect(facts.error).toBe("timeout; ns: timeout; mx: timeout; txt: timeout; caa: timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("answers IP literals without a query", async () => {
    expect(await collectDnsFacts("[::1]", { dnsServers: [dns.server] })).toMatchObject({ resolved: true, aaaa: ["::1"], a: [] });
  });

  it("serves the egress resolver too: a name pointing into private space is refused", async () => {
    const egress = createEgress({ allowPrivateTargets: false, dnsServers: [dns.server], extraCa: null, connectTimeoutMs: 500 });
    try {
      const r = await fetchUrl("http://intranet.example.com/", { dispatcher: egress.dispatcher, timeoutMs: 2000 });
      expect(r.response.error).toBe("blocked_private_address");
      const missing = await fetchUrl("http://missing.example.com/", { dispatcher: egress.dispatcher, timeoutMs: 2000 });
      expect(missing.response.error).toBe("dns");
    } finally {
      await egress.close();
    }
  });
});

describe("names the system resolves itself (/etc/hosts)", () => {
  // localhost is in every /etc/hosts and in no DNS zone: the localhost:18765 ranked 10,
  // "does not resolve (nxdomain)", while the fetcher fetched every page.
  it("resolve for the DNS checks as they do for the fetcher when no DNS servers are configured", async () => {
    const facts = await collectDnsFacts("localhost", { dnsServers: [], timeoutMs: 1000 });
    expect(facts.resolved).toBe(true);
    expect(facts.a).toContain("127.0.0.1");
    const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
    try {
      expect(facts.a).toContain((await egress.resolve("localhost")).address);
    } finally {
      await egress.close();
    }
  });
});
