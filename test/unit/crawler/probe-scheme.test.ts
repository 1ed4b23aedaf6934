import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrawlerNode, probeFailureText, probeOne, type CrawlerNode } from "../../../crawler/index.ts";
import { ProbeTarget } from "../../../proto/index.ts";
import { loadConfig, systemClock } from "../../../runtime/index.ts";

// What a probe reports of a site whose scheme is not known yet, against a real http server on
// loopback: it finds the http the site speaks instead of calling it down; once the scheme is known
// (an analysis resolved it), https on an http port is a failure, said in words.

let server: Server;
let port: number;
let node: CrawlerNode;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Plain</title>"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  const config = loadConfig({ SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_BROWSER: "off", SVC_PARSE_THREADS: "1" }, "serve");
  node = createCrawlerNode({ ...config.crawl, allowPrivateTargets: true, extraCa: null }, systemClock);
});

afterAll(async () => {
  await node?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const target = (schemeUnknown: boolean) => ProbeTarget.fromPartial({ host: `127.0.0.1:${port}`, url: `https://127.0.0.1:${port}/`, slot: 1, timeoutMs: 5000, schemeUnknown });

describe("a probe of an http-only site", () => {
  it("of unknown scheme: tries https, then the http the server speaks on its port, and is up", async () => {
    const o = await probeOne(target(true), node);
    expect([o.ok, o.status, o.url, o.cause]).toEqual([true, 200, `http://127.0.0.1:${port}/`, ""]);
  });

  it("of known scheme https: fails, saying the server does not speak HTTPS there, without OpenSSL's text", async () => {
    const o = await probeOne(target(false), node);
    expect([o.ok, o.url, o.cause, o.detail]).toEqual([false, `https://127.0.0.1:${port}/`, "tls", "TLS handshake failed: the server does not speak HTTPS on this port"]);
  });
});

describe("probe failures in words", () => {
  it("names what happened, never the TLS library's internals", () => {
    const openssl = "ERR_SSL_WRONG_VERSION_NUMBER: 809C2B1E497F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:";
    expect(probeFailureText("tls", openssl)).toBe("TLS handshake failed: the server does not speak HTTPS on this port");
    expect(probeFailureText("tls", "CERT_HAS_EXPIRED: certificate has expired")).toBe("TLS handshake failed: the certificate has expired");
    expect(probeFailureText("tls", "ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames")).toBe("TLS handshake failed: the certificate does not cover this host name");
    expect(probeFailureText("tls", "DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate")).toBe("TLS handshake failed: the certificate is not signed by a trusted authority (DEPTH_ZERO_SELF_SIGNED_CERT)");
    expect(probeFailureText("connect", "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:443")).toBe("connection refused");
    expect(probeFailureText("timeout", "UND_ERR_CONNECT_TIMEOUT: connect timeout")).toBe("UND_ERR_CONNECT_TIMEOUT: connect timeout");
  });
});
