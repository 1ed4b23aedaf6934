import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEgress, fetchUrl, responseHeader, type Egress } from "../../../crawler/index.ts";
import { fixedResolver, makeCerts, startHttp, startHttps, type TestCerts, type TestServer } from "./servers.ts";

const PAGE = "<!doctype html><title>Hello</title>" + "<p>Svc compresses this text well. </p>".repeat(50);
const PAGE_BYTES = Buffer.byteLength(PAGE);

describe("fetchUrl", () => {
  let server: TestServer;
  let resetOnce = 0;
  let egress: Egress;
  beforeAll(async () => {
    server = await startHttp((req, res) => {
      const path = req.url ?? "/";
      const send = (body: Buffer, encoding: string) => {
        res.writeHead(200, { "content-type": 'text/html; charset="UTF-8"', ...(encoding ? { "content-encoding": encoding } : {}) });
        res.end(body);
      };
      if (path === "/a") return void res.writeHead(301, { location: "/b" }).end();
      if (path === "/b") return void res.writeHead(302, { location: `${server.origin}/c?x=1` }).end("moved");
      if (path === "/c?x=1") return void res.writeHead(200, { "content-type": "text/plain" }).end("done");
      if (path.startsWith("/loop")) return void res.writeHead(307, { location: `/loop${Number(path.slice(5) || 0) + 1}` }).end();
      if (path === "/gzip") return send(gzipSync(PAGE), "gzip");
      if (path === "/br") return send(brotliCompressSync(PAGE), "br");
      if (path === "/deflate") return send(deflateSync(PAGE), "deflate");
      if (path === "/deflate-raw") return send(deflateRawSync(PAGE), "deflate");
      if (path === "/plain") return send(Buffer.from(PAGE), "");
      if (path === "/big") return send(Buffer.alloc(300_000, 97), "");
      if (path === "/bomb") return send(gzipSync(Buffer.alloc(2_000_000, 32)), "gzip");
      if (path === "/latin1") return void res.writeHead(200, { "content-type": "text/html; charset=ISO-8859-1" }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      if (path === "/hang") return; // never answers
      if (path === "/reset") return void req.socket.destroy(); // closes the connection before any answer, every time
      if (path === "/reset-once") {
        resetOnce += 1;
        if (resetOnce === 1) return void req.socket.destroy(); // a kept-alive connection the server closed
        return void res.writeHead(200, { "content-type": "text/plain" }).end(`answered on attempt ${resetOnce}`);
      }
      if (path === "/ua") return void res.end(`${req.headers["user-agent"]}|${req.headers["accept-encoding"]}`);
      res.writeHead(404).end();
    });
    egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await egress.close();
    await server.close();
  });
  const get = (path: string, extra = {}) => fetchUrl(`${server.origin}${path}`, { dispatcher: egress.dispatcher, timeoutMs: 3000, ...extra });

  it("follows redirects by hand and records the chain", async () => {
    const { response, text } = await get("/a");
    expect(response.requestedUrl).toBe(`${server.origin}/a`);
    expect(response.finalUrl).toBe(`${server.origin}/c?x=1`);
    expect(response.status).toBe(200);
    expect(response.redirects).toEqual([
      { url: `${server.origin}/a`, status: 301, location: `${server.origin}/b` },
      { url: `${server.origin}/b`, status: 302, location: `${server.origin}/c?x=1` },
    ]);
    expect(text).toBe("done");
    expect(response.contentType).toBe("text/plain");
    expect(response.error).toBe("");
  });

  it("stops after maxRedirects with too_many_redirects", async () => {
    const { response } = await get("/loop", { maxRedirects: 3 });
    expect(response.error).toBe("too_many_redirects");
    expect(response.status).toBe(307);
    expect(response.redirects.map((r) => r.url)).toEqual(["/loop", "/loop1", "/loop2", "/loop3"].map((p) => `${server.origin}${p}`));
    expect(response.finalUrl).toBe(`${server.origin}/loop3`);
  });

  it.each([
    ["/gzip", "gzip", gzipSync(PAGE).length],
    ["/br", "br", brotliCompressSync(PAGE).length],
    ["/deflate", "deflate", deflateSync(PAGE).length],
    ["/deflate-raw", "deflate", deflateRawSync(PAGE).length],
    ["/plain", "", PAGE_BYTES],
  ])("decodes %s and counts wire and decoded bytes", async (path, encoding, wire) => {
    const { response, text } = await get(path);
    expect(response.contentEncoding).toBe(encoding);
    expect(response.wireBytes).toBe(wire);
    expect(response.bodyBytes).toBe(PAGE_BYTES);
    expect(text).toBe(PAGE);
    expect(response.contentType).toBe("text/html");
    expect(response.charset).toBe("utf-8");
    expect(response.ttfbMs).toBeGreaterThan(0);
    expect(response.totalMs).toBeGreaterThanOrEqual(response.ttfbMs);
  });

  it("sends the user agent and Accept-Encoding: br, gzip", async () => {
    expect((await get("/ua")).text).toBe("SvcBot/0.1 (+https://github.com/svc)|br, gzip");
    expect((await get("/ua", { userAgent: "OtherBot/2" })).text).toBe("OtherBot/2|br, gzip");
  });

  it("decodes text by the declared charset", async () => {
    const { response, text } = await get("/latin1");
    expect(response.charset).toBe("iso-8859-1");
    expect(text).toBe("café");
  });

  it("truncates bodies past maxBodyBytes, on the wire and after decoding", async () => {
    const big = await get("/big", { maxBodyBytes: 100_000 });
    expect(big.response).toMatchObject({ status: 200, error: "too_large", bodyTruncated: true, bodyBytes: 100_000 });
    expect(big.body.length).toBe(100_000);
    const bomb = await get("/bomb", { maxBodyBytes: 100_000 });
    expect(bomb.response).toMatchObject({ status: 200, error: "too_large", bodyTruncated: true, bodyBytes: 100_000 });
    expect(bomb.response.wireBytes).toBe(gzipSync(Buffer.alloc(2_000_000, 32)).length);
  });

  it("times out a server that never answers", async () => {
    const started = Date.now();
    const { response } = await get("/hang", { timeoutMs: 300 });
    expect(response).toMatchObject({ status: 0, error: "timeout", errorDetail: "no complete response within 300 ms" });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("sends a request again once when the connection closes before any answer, and reports reset when it closes again", async () => {
    const once = await get("/reset-once");
    expect([once.response.status, once.response.error, once.text]).toEqual([200, "", "answered on attempt 2"]);
    const always = await get("/reset");
    expect([always.response.status, always.response.error]).toEqual([0, "reset"]);
  });

  it("classifies a refused connection and a DNS failure", async () => {
    const closed = await startHttp(() => undefined);
    const port = closed.port;
    await closed.close();
    expect((await fetchUrl(`http://127.0.0.1:${port}/`, { dispatcher: egress.dispatcher })).response.error).toBe("refused");
    const { resolver } = fixedResolver({});
    const noDns = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 }, { resolver });
    try {
      const r = await fetchUrl("http://nowhere.example/", { dispatcher: noDns.dispatcher });
      expect(r.response.error).toBe("dns");
      expect(r.response.errorDetail).toBe("ENOTFOUND: queryA ENOTFOUND nowhere.example");
    } finally {
      await noDns.close();
    }
  });

  it("keeps response headers with lower-case names", async () => {
    const { response } = await get("/gzip");
    expect(responseHeader(response, "content-encoding")).toBe("gzip");
    expect(response.headers.every((h) => h.name === h.name.toLowerCase())).toBe(true);
  });
});

describe("fetchUrl over TLS", () => {
  let certs: TestCerts;
  let server: TestServer;
  beforeAll(async () => {
    certs = makeCerts();
    server = await startHttps((_req, res) => res.end("secure"), certs.valid);
  });
  afterAll(() => server.close());

  it("verifies against the default CAs plus extraCa, keeping SNI on the name", async () => {
    const { resolver } = fixedResolver({ "svc.test": ["127.0.0.1"] });
    const trusted = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: certs.ca, connectTimeoutMs: 1000 }, { resolver });
    const untrusted = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 }, { resolver });
    try {
      const ok = await fetchUrl(`https://svc.test:${server.port}/`, { dispatcher: trusted.dispatcher });
      expect(ok.response.status).toBe(200);
      expect(ok.text).toBe("secure");
      const bad = await fetchUrl(`https://svc.test:${server.port}/`, { dispatcher: untrusted.dispatcher });
      expect(bad.response).toMatchObject({ status: 0, error: "tls" });
      expect(bad.response.errorDetail).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate");
    } finally {
      await Promise.all([trusted.close(), untrusted.close()]);
    }
  });

  it("reports a certificate for another name as a tls error", async () => {
    const other = await startHttps((_req, res) => res.end("x"), certs.wrongName);
    const { resolver } = fixedResolver({ "svc.test": ["127.0.0.1"] });
    const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: certs.ca, connectTimeoutMs: 1000 }, { resolver });
    try {
      const r = await fetchUrl(`https://svc.test:${other.port}/`, { dispatcher: egress.dispatcher });
      expect(r.response.error).toBe("tls");
      expect(r.response.errorDetail).toMatch(/^ERR_TLS_CERT_ALTNAME_INVALID: /);
    } finally {
      await egress.close();
      await other.close();
    }
  });
});
