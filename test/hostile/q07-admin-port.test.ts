import { connect } from "node:net";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpsServer } from "../../runtime/index.ts";

// Q7: the admin port (/healthz, /readyz, /metrics) kept slow requests open for minutes, where the
// API's port closes them after SVC_REQUEST_TIMEOUT_MS. It now bounds them alike.

const TIMEOUT_MS = 2_000;
const ops = buildOpsServer({ metrics: new Registry(), ready: async () => ({ ok: true, detail: {} }), requestTimeoutMs: TIMEOUT_MS });
let port: number;
beforeAll(async () => {
  await ops.listen({ host: "127.0.0.1", port: 0 });
  port = (ops.server.address() as { port: number }).port;
});
afterAll(() => ops.close());

/** Sends `head`, then one byte every 300 ms; resolves with the ms until the server closes the socket (or the cap). */
function slowRequest(head: string, capMs: number): Promise<number> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    const drip = setInterval(() => socket.writable && socket.write("x"), 300);
    const done = () => {
      clearInterval(drip);
      clearTimeout(cap);
      socket.destroy();
      resolve(Date.now() - t0);
    };
    const cap = setTimeout(done, capMs);
    socket.on("data", () => undefined);
    socket.on("close", done);
    socket.on("error", done);
  });
}

describe("Q7: the admin port bounds slow requests like the REST port", () => {
  it.each([
    ["a slow body", "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n"],
    ["a slow body on GET /metrics", "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n"],
    ["slow headers", "GET /readyz HTTP/1.1\r\nHost: x\r\nX-Slow: "],
  ])("%s is closed within the request timeout", async (_what, head) => {
    const ms = await slowRequest(head, 15_000);
    expect(ms).toBeLessThan(TIMEOUT_MS + 2_000);
  });
});
