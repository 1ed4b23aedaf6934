import { connect, type Socket } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// The gateway as a real HTTP server on loopback: what Node's parser and Fastify's router refuse
// before any route runs, slow bodies, and encodings. Every answer carries the contract's body.

let gw: TestGateway;
let port: number;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_REQUEST_TIMEOUT_MS: "1000" } });
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  port = (gw.app.server.address() as { port: number }).port;
});
afterAll(() => gw.close());

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Writes raw bytes; resolves with the answer once the server has closed the connection. */
function raw(text: string | Buffer, opts: { trickle?: boolean } = {}): Promise<RawAnswer & { socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      const all = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = all.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(":")).toLowerCase()] = l.slice(l.indexOf(":") + 1).trim();
      if (!statusLine) return reject(new Error("closed without an answer"));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n"), socket });
    });
    socket.write(text);
    // A slow client: one byte of body now and then, never finishing.
    if (opts.trickle) timer = setInterval(() => socket.writable && socket.write("x"), 50);
  });
}

function expectContractError(a: RawAnswer, status: number, code: string) {
  expect(a.status).toBe(status);
  const body = JSON.parse(a.body) as Record<string, unknown>;
  expect(body).toMatchObject({ code, error: expect.any(String), request_id: a.headers["x-request-id"] });
  expect(a.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  expect(a.headers["x-api-version"]).toBe("1.3");
  return body;
}

describe("what is refused before a route runs", () => {
  it("headers over Node's limit: 400 bad_request in the contract's body", async () => {
    const a = await raw(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(expectContractError(a, 400, "bad_request").details).toEqual({ reason: "headers_too_large" });
  });

  it("a malformed request line: 400 bad_request in the contract's body", async () => {
    const a = await raw("GARBAGE\r\n\r\n");
    expectContractError(a, 400, "bad_request");
  });

  it("a URL that does not decode: 400 bad_request with the rate headers", async () => {
    const a = await raw("GET /api/v1/report/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(expectContractError(a, 400, "bad_request").details).toEqual({ reason: "bad_url" });
    expect(a.headers["x-ratelimit-limit"]).toBe("600");
  });

  it("a path parameter over 300 characters: 400 bad_request, not a bare 414", async () => {
    const a = await raw(`GET /api/v1/report/${"a".repeat(400)}.com HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(expectContractError(a, 400, "bad_request").details).toEqual({ reason: "uri_too_long" });
  });

  it("the QUERY method on a GET route: 405 method with Allow", async () => {
    const a = await raw("QUERY /api/v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expectContractError(a, 405, "method");
    expect(a.headers.allow).toBe("GET, HEAD");
  });

  it("a 401 says how to authenticate", async () => {
    const missing = await raw("GET /api/v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expectContractError(missing, 401, "missing");
    expect(missing.headers["www-authenticate"]).toBe('Bearer realm="svc"');
    const invalid = await raw(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Api-Key: svc_nope\r\nConnection: close\r\n\r\n`);
    expect(invalid.headers["www-authenticate"]).toBe('Bearer realm="svc", error="invalid_token"');
  });
});

describe("slow bodies", () => {
  const slowPost = (key: string) =>
    `POST /api/v1/sites HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"host":"`;

  it("refused callers are answered 401 and disconnected while their bodies still trickle", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw(slowPost("svc_wrong"), { trickle: true })));
    for (const a of answers) {
      expectContractError(a, 401, "invalid");
      expect(a.headers.connection).toBe("close");
    }
  });

  it("an authenticated body that does not arrive within SVC_REQUEST_TIMEOUT_MS is cut off; nothing stays open", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => raw(slowPost(gw.ownerKey), { trickle: true })));
    for (const a of answers) expect(expectContractError(a, 400, "bad_request").details).toEqual({ reason: "request_timeout" });
    const open = await new Promise<number>((resolve, reject) => gw.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    expect(open).toBe(0);
    // The gateway still answers.
    const me = await raw(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${gw.ownerKey}\r\nConnection: close\r\n\r\n`);
    expect(me.status).toBe(200);
  });
});

describe("encodings", () => {
  const post = (body: Buffer, encoding: string) =>
    Buffer.concat([
      Buffer.from(
        `POST /api/v1/sites HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${gw.ownerKey}\r\nContent-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      ),
      body,
    ]);

  it("a gzip request body is decoded", async () => {
    const a = await raw(post(gzipSync(JSON.stringify({ host: "gzipped.example.com" })), "gzip"));
    expect(a.status).toBe(201);
    expect(JSON.parse(a.body)).toMatchObject({ host: "gzipped.example.com" });
  });

  it("a body that expands past the operation's limit is refused; a broken or unknown encoding is 400", async () => {
    const bomb = await raw(post(gzipSync(JSON.stringify({ host: "x".repeat(5_000_000) })), "gzip"));
    expect(expectContractError(bomb, 400, "bad_request").details).toEqual({ reason: "body_too_large" });
    const broken = await raw(post(Buffer.from("not gzip at all"), "gzip"));
    expect(expectContractError(broken, 400, "bad_request").details).toEqual({ reason: "bad_encoding" });
    const unknown = await raw(post(Buffer.from("{}"), "zstd"));
    expect(expectContractError(unknown, 400, "bad_request").details).toEqual({ reason: "unsupported_encoding" });
  });

  it("large answers are compressed for clients that accept it", async () => {
    const plain = await gw.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    const zipped = await gw.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: { "accept-encoding": "gzip, deflate" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toContain("Accept-Encoding");
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    const br = await gw.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: { "accept-encoding": "br;q=1, gzip;q=0.5" } });
    expect(br.headers["content-encoding"]).toBe("br");
    const small = await gw.app.inject({ method: "GET", url: "/api/v1/me", headers: { "x-api-key": gw.ownerKey, "accept-encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
  });
});
