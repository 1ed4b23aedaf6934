import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, killAllSvc, spawnSvc, svcEnvFor, tempDataDir, waitReady, type SvcProcess } from "../harness/svc-process.ts";

// A hostile client against `svc serve` as a separate process, as deployed: every answer is the
// contract's ({error, code} with X-Request-Id and X-API-Version, never a 500), nothing stays open
// that should not, and /healthz answers throughout.

const KEY = "svc_QuIiupnM3tId9JZpXfnfMZSjvZ0QiFkLxoiNJ0GT";
let proc: SvcProcess;
let port: number;
let adminPort: number;
let remove: () => Promise<void>;

beforeAll(async () => {
  const dir = await tempDataDir();
  remove = () => dir.remove();
  const env = await svcEnvFor(dir.dir, { SVC_BOOTSTRAP_KEY: KEY, SVC_REQUEST_TIMEOUT_MS: "2000", SVC_PLAN_EVERY_S: "0", SVC_PARSE_THREADS: "0" });
  ({ port, adminPort } = env);
  proc = spawnSvc(["serve"], env.env);
  await waitReady(proc, adminPort, 60_000);
}, 90_000);
afterAll(async () => {
  await killAllSvc();
  await remove();
});

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Raw bytes in, the first answer out (the connection is closed by either side after it). */
function raw(bytes: string | Buffer, opts: { trickleMs?: number } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearInterval(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no complete answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(":")).toLowerCase()] = l.slice(l.indexOf(":") + 1).trim();
      const length = Number(headers["content-length"] ?? NaN);
      const body = text.slice(end + 4);
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: Number.isNaN(length) ? body : body.slice(0, length) });
    };
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => undefined);
    socket.on("close", done);
    socket.write(bytes);
    if (opts.trickleMs) timer = setInterval(() => socket.writable && socket.write("x"), opts.trickleMs);
    else socket.end();
  });
}

const request = (method: string, path: string, extra: { headers?: string[]; body?: string | Buffer } = {}) => {
  const body = extra.body ?? "";
  const head = [
    `${method} ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    `X-Api-Key: ${KEY}`,
    "Connection: close",
    ...(body.length > 0 ? ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`] : []),
    ...(extra.headers ?? []),
  ].join("\r\n");
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
};

async function expectContract(a: Raw, status: number, code: string | readonly string[]) {
  expect(a.status, a.body).toBe(status);
  const body = JSON.parse(a.body) as { code: string };
  expect(body).toMatchObject({ error: expect.any(String), request_id: a.headers["x-request-id"] });
  expect([code].flat()).toContain(body.code);
  expect(a.headers["x-api-version"]).toBe("1.3");
  const health = await http(`http://127.0.0.1:${adminPort}/healthz`);
  expect(health.status).toBe(200);
}

describe("svc serve under hostile input (a separate process)", () => {
  it.each([
    ["deep JSON", "POST", "/api/v1/sites", `{"host":${"[".repeat(5000)}${"]".repeat(5000)}}`, 400, "bad_request"],
    // Over the operation's body limit, or else an unknown field: either way refused whole.
    ["wide JSON", "POST", "/api/v1/sites", JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))), 400, ["bad_request", "bad_param"]],
    ["a huge number", "POST", "/api/v1/sites", '{"host":"example.com","interval":1e400}', 400, "bad_param"],
    ["an integer beyond 64 bits in the path", "GET", "/api/v1/jobs/10000000000000000001", "", 400, "bad_param"],
    ["an integer beyond 64 bits in the query", "GET", "/api/v1/overview?project=99999999999999999999999", "", 400, "bad_param"],
    ["not JSON", "POST", "/api/v1/sites", "{host:", 400, "bad_request"],
  ] as const)("%s: %s %s", async (_name, method, path, body, status, code) => {
    await expectContract(await raw(request(method, path, { body })), status, code);
  });

  it("invalid UTF-8 in a body and in a path", async () => {
    const bad = Buffer.concat([Buffer.from('{"host":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('.com"}')]);
    await expectContract(await raw(request("POST", "/api/v1/sites", { body: bad })), 400, ["bad_host", "bad_request"]);
    await expectContract(await raw(request("GET", "/api/v1/report/%C3%28%FF")), 400, ["bad_host", "bad_request"]);
    await expectContract(await raw(request("GET", "/api/v1/report/%E0%A4%A")), 400, "bad_request");
  });

  it("oversized headers and URLs", async () => {
    await expectContract(await raw(request("GET", "/api/v1/me", { headers: [`X-Padding: ${"a".repeat(64 * 1024)}`] })), 400, "bad_request");
    await expectContract(await raw(request("GET", `/api/v1/report/${"a".repeat(2000)}.com`)), 400, "bad_request");
    await expectContract(await raw(request("GET", `/api/v1/sites?${"q=1&".repeat(1000)}`)), 400, "bad_param");
  });

  it.each([
    "127.0.0.1",
    "2130706433", // 127.0.0.1 as one decimal number
    "0x7f.1",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::7f00:1]",
    "[2002:7f00:1::]",
    "[64:ff9b::7f00:1]",
    "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
    "169.254.169.254",
    "[fe80::1]",
    "metadata.google.internal",
  ])("the address literal %s is refused as a site", async (host) => {
    const a = await raw(request("POST", "/api/v1/sites", { body: JSON.stringify({ host }) }));
    await expectContract(a, 400, "bad_host");
  });

  it("slow headers and slow bodies are cut off after SVC_REQUEST_TIMEOUT_MS; /healthz answers meanwhile", async () => {
    const slowBody = raw(Buffer.from(`POST /api/v1/sites HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`), { trickleMs: 100 });
    const slowHead = raw(Buffer.from("GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Slow: "), { trickleMs: 100 });
    const refused = raw(Buffer.from(`POST /api/v1/sites HTTP/1.1\r\nHost: x\r\nX-Api-Key: svc_wrong\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`), { trickleMs: 100 });
    expect((await http(`http://127.0.0.1:${adminPort}/healthz`)).status).toBe(200);
    const [body, head, unauthorised] = await Promise.all([slowBody, slowHead, refused]);
    await expectContract(body, 400, "bad_request");
    await expectContract(head, 400, "bad_request");
    await expectContract(unauthorised, 401, "invalid");
  });
});
