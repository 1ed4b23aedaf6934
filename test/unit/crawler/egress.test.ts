import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockedRange, createEgress, EgressBlockedError, fetchUrl, resolveTarget } from "../../../crawler/index.ts";
import { fixedResolver, makeCerts, startHttp, startHttps, type TestServer } from "./servers.ts";

const base = { dnsServers: [], extraCa: null, connectTimeoutMs: 1000 };
// A public unicast address (example.com's former one) standing for "the internet".
const PUBLIC = "93.184.215.14";
const CLOSED = { allowPrivateTargets: false, allowLinkLocal: [] };
const OPEN = { allowPrivateTargets: true, allowLinkLocal: [] };

describe("blockedRange", () => {
  it.each([
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["127.0.0.1", "loopback"],
    ["169.254.10.10", "linkLocal"],
    ["169.254.169.254", "metadata"],
    ["100.64.0.1", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:169.254.169.254", "metadata"],
    ["2002:c0a8:0101::1", "private"], // 6to4 of 192.168.1.1
    ["64:ff9b::a00:1", "private"], // NAT64 of 10.0.0.1
    // Every embedding of a non-public IPv4 in IPv6 is judged as that IPv4.
    ["::7f00:1", "loopback"], // ::127.0.0.1, IPv4-compatible (::/96, deprecated)
    ["::a9fe:a9fe", "metadata"], // ::169.254.169.254
    ["::ffff:0:7f00:1", "loopback"], // IPv4-translated (RFC 6145)
    ["2002:7f00:1::", "loopback"], // 6to4 of 127.0.0.1
    ["2002:a9fe:a9fe::1", "metadata"], // 6to4 of 169.254.169.254
    ["64:ff9b::7f00:1", "loopback"], // NAT64 well-known prefix of 127.0.0.1
    ["64:ff9b::a9fe:a9fe", "metadata"], // NAT64 of 169.254.169.254
    ["64:ff9b:1::808:808", "nat64Local"], // local-use NAT64 (RFC 8215) is never public
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"], // Teredo, client 127.0.0.1 (inverted bits)
    ["2001:0:4136:e378:8000:63bf:5601:5601", "metadata"], // Teredo, client 169.254.169.254
    ["2001:0:a00:1:8000:63bf:f7f7:f7f7", "private"], // Teredo, server 10.0.0.1, client 8.8.8.8
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "teredo"], // Teredo, public client and server: still a tunnel, refused
    ["::808:808", "ipv4Compatible"], // ::/96 is refused even around a public IPv4
    // ::/8 outside the mapped and translated forms, and all else outside 2000::/3, is reserved (Q11).
    ["::1:7f00:1", "reserved"],
    ["::1:0:0:1", "reserved"],
    ["1::", "reserved"],
    ["4000::1", "reserved"],
    ["e000::1", "reserved"],
    ["100.100.100.200", "metadata"], // Alibaba Cloud's metadata service
  ])("%s is refused (%s)", (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "2002:0808:0808::1", "64:ff9b::808:808"])("%s is public", (address) => {
    expect(blockedRange(address)).toBeNull();
  });
});

describe("link-local and metadata targets", () => {
  it.each(["169.254.169.254", "169.254.10.10", "fe80::1", "fd00:ec2::254", "::ffff:169.254.169.254", "2002:a9fe:a9fe::1", "100.100.100.200"])(
    "%s is refused even when private targets are allowed",
    async (address) => {
      const err = await resolveTarget(address.includes(":") ? `[${address}]` : address, fixedResolver({}).resolver, OPEN).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressBlockedError);
    },
  );

  it("refuses metadata names before resolving them, and a name resolving to the metadata address", async () => {
    const { resolver, calls } = fixedResolver({ "metadata.google.internal": ["169.254.169.254"], "innocent.example": ["169.254.169.254"] });
    await expect(resolveTarget("metadata.google.internal", resolver, OPEN)).rejects.toMatchObject({ range: "metadata" });
    expect(calls).toEqual([]);
    await expect(resolveTarget("innocent.example", resolver, OPEN)).rejects.toMatchObject({ address: "169.254.169.254", range: "metadata" });
  });

  it("allows exactly what SVC_ALLOW_LINK_LOCAL_TARGETS names", async () => {
    const policy = { allowPrivateTargets: false, allowLinkLocal: ["169.254.170.0/24", "fe80::1", "metadata.google.internal"] };
    const { resolver } = fixedResolver({ "metadata.google.internal": ["169.254.169.254"] });
    await expect(resolveTarget("169.254.170.2", resolver, policy)).resolves.toEqual({ address: "169.254.170.2", family: 4 });
    await expect(resolveTarget("[fe80::1]", resolver, policy)).resolves.toEqual({ address: "fe80::1", family: 6 });
    await expect(resolveTarget("[fe80::2]", resolver, policy)).rejects.toMatchObject({ range: "linkLocal" });
    await expect(resolveTarget("169.254.169.254", resolver, policy)).rejects.toMatchObject({ range: "metadata" });
    // The name passes, but the address it resolves to must be listed as well.
    await expect(resolveTarget("metadata.google.internal", resolver, policy)).rejects.toMatchObject({ range: "metadata" });
    // The list does not open private ranges.
    await expect(resolveTarget("10.0.0.1", resolver, policy)).rejects.toMatchObject({ range: "private" });
  });
});

describe("resolveTarget", () => {
  it("skips blocked answers and returns the first public one; refuses when none is public", async () => {
    const { resolver } = fixedResolver({ mixed: ["10.0.0.1", "8.8.4.4"], private: ["127.0.0.1", "::1"] });
    await expect(resolveTarget("mixed", resolver, CLOSED)).resolves.toEqual({ address: "8.8.4.4", family: 4 });
    const err = await resolveTarget("private", resolver, CLOSED).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressBlockedError);
    expect(err).toMatchObject({ reason: "blocked_private_address", host: "private", address: "127.0.0.1", range: "loopback" });
    await expect(resolveTarget("private", resolver, OPEN)).resolves.toEqual({ address: "127.0.0.1", family: 4 });
    await expect(resolveTarget("[::1]", resolver, OPEN)).resolves.toEqual({ address: "::1", family: 6 });
  });
});

describe("guarded fetch", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startHttp((_req, res) => res.end("PRIVATE"));
  });
  afterAll(() => server.close());

  it("refuses a loopback literal unless private targets are allowed", async () => {
    const closed = createEgress({ ...base, allowPrivateTargets: false });
    const open = createEgress({ ...base, allowPrivateTargets: true });
    try {
      const before = server.connections();
      const refused = await fetchUrl(`${server.origin}/`, { dispatcher: closed.dispatcher, timeoutMs: 2000 });
      expect(refused.response).toMatchObject({ status: 0, error: "blocked_private_address" });
      expect(refused.response.errorDetail).toBe("127.0.0.1 resolves to 127.0.0.1 (loopback), which is not a public address");
      expect(refused.cause).toBeInstanceOf(EgressBlockedError);
      expect(server.connections()).toBe(before);

      const fetched = await fetchUrl(`${server.origin}/`, { dispatcher: open.dispatcher, timeoutMs: 2000 });
      expect(fetched.response.status).toBe(200);
      expect(fetched.text).toBe("PRIVATE");
    } finally {
      await Promise.all([closed.close(), open.close()]);
    }
  });

  it("refuses the metadata address with private targets allowed, without connecting", async () => {
    const open = createEgress({ ...base, allowPrivateTargets: true, connectTimeoutMs: 500 });
    try {
      const r = await fetchUrl("http://169.254.169.254/latest/meta-data/", { dispatcher: open.dispatcher, timeoutMs: 2000 });
      expect(r.response).toMatchObject({ status: 0, error: "blocked_private_address" });
      expect(r.response.errorDetail).toBe("169.254.169.254 resolves to 169.254.169.254 (metadata), which is not a public address");
    } finally {
      await open.close();
    }
  });

  it("refuses a name that resolves to a private address, and dials a name's address only once resolved", async () => {
    const { resolver, calls } = fixedResolver({ "intranet.example": ["192.168.0.10", "127.0.0.1"] });
    const egress = createEgress({ ...base, allowPrivateTargets: false }, { resolver });
    try {
      const r = await fetchUrl(`http://intranet.example:${server.port}/`, { dispatcher: egress.dispatcher, timeoutMs: 2000 });
      expect(r.response.error).toBe("blocked_private_address");
      expect(calls).toEqual(["intranet.example"]);
    } finally {
      await egress.close();
    }
  });

  it("pins the validated address: the socket never resolves the name again (no DNS rebinding)", async () => {
    // Everything stays on loopback: the first resolution answers 127.0.0.2, every later one
    // 127.0.0.3. A guard that validated one resolution and let the socket resolve the name again
    // would reach the second server.
    const first = await listenOn("127.0.0.2", 0, "FIRST");
    const second = await listenOn("127.0.0.3", first.port, "SECOND");
    const calls: string[] = [];
    const rebinding = async (host: string) => {
      calls.push(host);
      return [{ address: calls.length === 1 ? "127.0.0.2" : "127.0.0.3", family: 4 as const }];
    };
    const egress = createEgress({ ...base, allowPrivateTargets: true, connectTimeoutMs: 1000 }, { resolver: rebinding });
    try {
      const r = await fetchUrl(`http://rebind.example:${first.port}/`, { dispatcher: egress.dispatcher, timeoutMs: 2000 });
      expect(r.text).toBe("FIRST");
      expect(calls).toEqual(["rebind.example"]);
      expect(second.connections()).toBe(0);
    } finally {
      await egress.close();
      await first.close();
      await second.close();
    }
  });

  it("chooses the public address of an answer that also carries a private one", async () => {
    const { resolver } = fixedResolver({ "mixed.example": ["127.0.0.1", PUBLIC, "10.0.0.1"] });
    expect(await resolveTarget("mixed.example", resolver, CLOSED)).toEqual({ address: PUBLIC, family: 4 });
    await expect(resolveTarget("private.example", fixedResolver({ "private.example": ["127.0.0.1", "10.0.0.1"] }).resolver, CLOSED)).rejects.toThrow(
      "not a public address",
    );
  });
});

/** A plain HTTP server answering `body` on one loopback address, counting connections. */
async function listenOn(address: string, port: number, body: string) {
  let connections = 0;
  const srv = createServer((_req, res) => res.end(body));
  srv.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => srv.listen(port, address, resolve));
  return {
    port: (srv.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

describe("a timed dispatcher (uptime probes)", () => {
  it("times TCP connect and the TLS handshake apart, verifies the certificate, and keeps the guard", async () => {
    const certs = makeCerts();
    const server = await startHttps((_req, res) => res.end("ok"), certs.valid);
    const { resolver } = fixedResolver({ "svc.test": ["127.0.0.1"], "svc.internal": ["10.0.0.1"] });
    const trusted = createEgress({ ...base, ...OPEN, extraCa: certs.ca }, { resolver });
    try {
      const timed = trusted.timed();
      const res = await fetchUrl(`https://svc.test:${server.port}/`, { dispatcher: timed.dispatcher, timeoutMs: 5000 });
      await timed.close();
      expect(res.response.status).toBe(200);
      expect(timed.timings.connectMs).toBeGreaterThanOrEqual(0);
      // A handshake is a round trip and a signature: never free, even on loopback.
      expect(timed.timings.tlsMs).toBeGreaterThan(0);

      // Plain HTTP has no handshake.
      const plain = await startHttp((_req, r) => r.end("ok"));
      const t2 = trusted.timed();
      expect((await fetchUrl(`http://svc.test:${plain.port}/`, { dispatcher: t2.dispatcher, timeoutMs: 5000 })).response.status).toBe(200);
      await t2.close();
      expect(t2.timings.tlsMs).toBe(0);
      await plain.close();

      // A certificate the trust store does not know fails as TLS, as undici's own connector would.
      const untrusted = createEgress({ ...base, ...OPEN }, { resolver });
      const t3 = untrusted.timed();
      const failed = await fetchUrl(`https://svc.test:${server.port}/`, { dispatcher: t3.dispatcher, timeoutMs: 5000 });
      await t3.close();
      await untrusted.close();
      expect(failed.response.error).toBe("tls");

      // The guard still decides: a private address is refused when private targets are not allowed.
      const closed = createEgress({ ...base, ...CLOSED }, { resolver });
      const t4 = closed.timed();
      const blocked = await fetchUrl("http://svc.internal/", { dispatcher: t4.dispatcher, timeoutMs: 5000 });
      await t4.close();
      await closed.close();
      expect(blocked.response.error).toBe("blocked_private_address");
      expect(t4.timings.connectMs).toBeNull();
    } finally {
      await trusted.close();
      await server.close();
    }
  });
});

describe("the one guard: every refused form, through the dialler every connection of a node takes", () => {
  // A listener on loopback stands for what a refused target would reach: nothing may connect to it.
  let server: TestServer;
  beforeAll(async () => {
    server = await startHttp((_req, res) => res.end("REACHED"));
  });
  afterAll(() => server.close());

  // Names a hostile DNS server would answer with refused addresses.
  const hostile = fixedResolver({
    "loopback.example": ["127.0.0.1"],
    "v6-loopback.example": ["::1"],
    "mapped.example": ["::ffff:127.0.0.1"],
    "nat64.example": ["64:ff9b::7f00:1"],
    "metadata.example": ["169.254.169.254"],
    "private.example": ["10.0.0.1", "192.168.1.1"],
    "reserved-v6.example": ["::1:7f00:1"],
  });

  it.each([
    // literal IPv4
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["0.0.0.0", "unspecified"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    // IPv4 in the forms inet_aton reads: never handed to a resolver as a name
    ["2130706433", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["0x7f.0.0.1", "loopback"],
    ["0x7f000001", "loopback"],
    ["127.1", "loopback"],
    ["0xa9fea9fe", "metadata"],
    // literal IPv6, with and without brackets
    ["[::1]", "loopback"],
    ["::1", "loopback"],
    ["[::]", "unspecified"],
    ["[fe80::1]", "linkLocal"],
    ["[fc00::1]", "uniqueLocal"],
    ["[fd00:ec2::254]", "metadata"],
    ["[::1:7f00:1]", "reserved"],
    // IPv4-mapped, -compatible, -translated, NAT64, 6to4 and Teredo forms
    ["[::ffff:127.0.0.1]", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["[::127.0.0.1]", "loopback"],
    ["[::ffff:0:7f00:1]", "loopback"],
    ["[64:ff9b::7f00:1]", "loopback"],
    ["[64:ff9b::a9fe:a9fe]", "metadata"],
    ["[2002:7f00:1::]", "loopback"],
    ["[2001:0:4136:e378:8000:63bf:80ff:fffe]", "loopback"],
    // cloud metadata names, refused before any lookup
    ["metadata.google.internal", "metadata"],
    ["METADATA.GOOGLE.INTERNAL.", "metadata"],
    ["instance-data", "metadata"],
    // names that resolve to refused addresses
    ["loopback.example", "loopback"],
    ["v6-loopback.example", "loopback"],
    ["mapped.example", "loopback"],
    ["nat64.example", "loopback"],
    ["metadata.example", "metadata"],
    ["private.example", "private"],
    ["reserved-v6.example", "reserved"],
  ])("%s is refused (%s) and never dialled", async (host, range) => {
    const egress = createEgress({ ...base, ...CLOSED }, { resolver: hostile.resolver });
    try {
      const before = server.connections();
      const calls = hostile.calls.length;
      const err = await egress.dial(host, server.port).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressBlockedError);
      expect(err).toMatchObject({ reason: "blocked_private_address", range });
      // The TLS dial, the undici dispatcher and the utilities' lookups judge alike.
      await expect(egress.dial(host, server.port, { tls: {} })).rejects.toMatchObject({ range });
      await expect(egress.resolveAll(host)).rejects.toMatchObject({ range });
      const url = `http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${server.port}/`;
      expect((await fetchUrl(url, { dispatcher: egress.dispatcher, timeoutMs: 2000 })).response.error).toBe("blocked_private_address");
      expect(server.connections()).toBe(before);
      // Only names are looked up; a literal in any form and a metadata name never reach DNS.
      if (!host.endsWith(".example")) expect(hostile.calls.length).toBe(calls);
    } finally {
      await egress.close();
    }
  });

  it("refuses a redirect to a refused address, even with private targets allowed", async () => {
    const redirecting = await startHttp((req, res) => {
      const to = { "/meta": "http://169.254.169.254/latest/meta-data/", "/meta-name": "http://metadata.google.internal/", "/mapped": "http://[::ffff:a9fe:a9fe]/" }[req.url ?? ""];
      res.writeHead(302, { location: to ?? "/" }).end();
    });
    const egress = createEgress({ ...base, ...OPEN });
    try {
      for (const path of ["/meta", "/meta-name", "/mapped"]) {
        const r = await fetchUrl(`${redirecting.origin}${path}`, { dispatcher: egress.dispatcher, timeoutMs: 2000 });
        expect(r.response.redirects.map((h) => h.status)).toEqual([302]);
        expect(r.response.error).toBe("blocked_private_address");
      }
    } finally {
      await egress.close();
      await redirecting.close();
    }
  });

  it("dials the address it checked: a name that rebinds between check and connect reaches the first answer only", async () => {
    const first = await listenOn("127.0.0.2", 0, "FIRST");
    const second = await listenOn("127.0.0.3", first.port, "SECOND");
    let answers = 0;
    const rebinding = async () => [{ address: answers++ === 0 ? "127.0.0.2" : "127.0.0.3", family: 4 as const }];
    const egress = createEgress({ ...base, ...OPEN }, { resolver: rebinding });
    try {
      const dialled = await egress.dial("rebind.example", first.port);
      expect(dialled.address).toEqual({ address: "127.0.0.2", family: 4 });
      expect(dialled.socket.remoteAddress).toBe("127.0.0.2");
      dialled.socket.destroy();
      expect(answers).toBe(1);
      expect(second.connections()).toBe(0);
    } finally {
      await egress.close();
      await first.close();
      await second.close();
    }
  });

  it("dials a public answer of a name that also carries refused ones, and no other", async () => {
    const { resolver } = fixedResolver({ "mixed.example": ["127.0.0.1", "10.0.0.1", "::1"] });
    const egress = createEgress({ ...base, ...CLOSED }, { resolver });
    try {
      await expect(egress.resolveAll("mixed.example")).rejects.toMatchObject({ address: "127.0.0.1", range: "loopback" });
    } finally {
      await egress.close();
    }
    const open = createEgress({ ...base, ...OPEN }, { resolver });
    try {
      expect(await open.resolveAll("mixed.example")).toEqual([
        { address: "127.0.0.1", family: 4 },
        { address: "10.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ]);
      const dialled = await open.dial("mixed.example", server.port);
      expect(dialled.socket.remoteAddress).toBe("127.0.0.1");
      dialled.socket.destroy();
    } finally {
      await open.close();
    }
  });
});
