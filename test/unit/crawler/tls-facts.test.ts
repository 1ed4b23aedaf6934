import { X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectTlsFacts, createEgress, type Egress } from "../../../crawler/index.ts";
import { fixedResolver, makeCerts, startHttp, startHttps, type TestCerts, type TestServer } from "./servers.ts";

const seconds = (date: string) => Math.floor(Date.parse(date) / 1000);

describe("collectTlsFacts", () => {
  let certs: TestCerts;
  let valid: TestServer;
  let expired: TestServer;
  let wrongName: TestServer;
  let egress: Egress;
  beforeAll(async () => {
    certs = makeCerts();
    const ok = (_req: unknown, res: { end(): void }) => res.end();
    [valid, expired, wrongName] = await Promise.all([startHttps(ok, certs.valid), startHttps(ok, certs.expired), startHttps(ok, certs.wrongName)]);
    const { resolver } = fixedResolver({ "svc.test": ["127.0.0.1"] });
    egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: certs.ca, connectTimeoutMs: 1000 }, { resolver });
  });
  afterAll(async () => {
    await egress.close();
    await Promise.all([valid.close(), expired.close(), wrongName.close()]);
  });

  it("reads a valid chain", async () => {
    const x509 = new X509Certificate(certs.valid.cert);
    expect(await collectTlsFacts("svc.test", valid.port, egress)).toEqual({
      attempted: true,
      handshakeOk: true,
      error: "",
      protocol: "TLSv1.3",
      authorized: true,
      authorizationError: "",
      subjectCn: "svc.test",
      altNames: ["svc.test", "www.svc.test", "127.0.0.1"],
      issuer: "O=Svc Test, CN=Svc Test CA",
      validFrom: seconds(x509.validFrom),
      validTo: seconds(x509.validTo),
      chainLength: 2,
      nameMatches: true,
    });
    expect(seconds(x509.validTo) - seconds(x509.validFrom)).toBe(30 * 86400);
  });

  it("reports an expired certificate", async () => {
    const x509 = new X509Certificate(certs.expired.cert);
    const facts = await collectTlsFacts("svc.test", expired.port, egress);
    expect(facts).toMatchObject({ handshakeOk: true, authorized: false, authorizationError: "CERT_HAS_EXPIRED", error: "CERT_HAS_EXPIRED", nameMatches: true });
    expect(facts.validTo).toBe(seconds(x509.validTo));
    expect(facts.validTo).toBeLessThan(Date.now() / 1000);
  });

  it("reports a certificate for another name", async () => {
    const facts = await collectTlsFacts("svc.test", wrongName.port, egress);
    expect(facts).toMatchObject({
      handshakeOk: true,
      authorized: false,
      authorizationError: "ERR_TLS_CERT_ALTNAME_INVALID",
      subjectCn: "other.test",
      altNames: ["other.test"],
      nameMatches: false,
    });
  });

  it("verifies against the default CAs only when no extraCa is given", async () => {
    const { resolver } = fixedResolver({ "svc.test": ["127.0.0.1"] });
    const plain = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 }, { resolver });
    try {
      const facts = await collectTlsFacts("svc.test", valid.port, plain);
      expect(facts).toMatchObject({ handshakeOk: true, authorized: false, authorizationError: "UNABLE_TO_VERIFY_LEAF_SIGNATURE", chainLength: 1, nameMatches: true });
    } finally {
      await plain.close();
    }
  });

  it("records refused connections, non-TLS servers and blocked addresses without throwing", async () => {
    const gone = await startHttp(() => undefined);
    const port = gone.port;
    await gone.close();
    expect(await collectTlsFacts("svc.test", port, egress)).toMatchObject({ attempted: true, handshakeOk: false, error: "refused" });

    const http = await startHttp((_req, res) => res.end());
    try {
      expect((await collectTlsFacts("svc.test", http.port, egress)).error).toBe("ERR_SSL_WRONG_VERSION_NUMBER");
    } finally {
      await http.close();
    }

    const closed = createEgress({ allowPrivateTargets: false, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
    try {
      expect(await collectTlsFacts("127.0.0.1", valid.port, closed)).toMatchObject({ handshakeOk: false, error: "blocked_private_address" });
    } finally {
      await closed.close();
    }
  });
});
