import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Q9: without SVC_PUBLIC_BASE_URL the public origin was the request's Host, so a DNS-rebinding
// page (Host and Origin both evil.example) passed the tool server's Origin check, and the OAuth
// metadata named the attacker's host (cacheable for an hour). A page cannot choose it any more.

let gw: TestGateway;
let port: number;
beforeAll(async () => {
  gw = await startTestGateway();
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  port = (gw.app.server.address() as { port: number }).port;
});
afterAll(() => gw.close());

/** A raw request (fetch would not send a Host of our choosing). */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("Q9: the public origin cannot be steered by a Host header", () => {
  it("a DNS-rebinding request to the tool server (Host and Origin evil.example) is refused", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const rebinding = await send("POST", "/api/v1/mcp", { host: `evil.example:${port}`, origin: `http://evil.example:${port}`, "x-api-key": gw.ownerKey, "content-type": "application/json" }, body);
    expect(rebinding.status).toBe(403);
    // The service's own origin, as the client reached it, still passes.
    const own = await send("POST", "/api/v1/mcp", { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, "x-api-key": gw.ownerKey, "content-type": "application/json" }, body);
    expect(own.status).toBe(200);
  });

  it("the OAuth metadata names the address the connection reached, not a client's Host", async () => {
    const res = await send("GET", "/.well-known/oauth-authorization-server/api/v1", { host: "evil.example" });
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as { issuer: string; token_endpoint: string };
    expect(doc.issuer).toBe(`http://127.0.0.1:${port}/api/v1`);
    expect(doc.token_endpoint).toBe(`http://127.0.0.1:${port}/api/v1/oauth/token`);
    expect(res.headers.vary).toBe("Host");
    // localhost names this machine whatever DNS says: a client that reached it so sees that name.
    const local = JSON.parse((await send("GET", "/.well-known/oauth-authorization-server/api/v1", { host: `localhost:${port}` })).text) as { issuer: string };
    expect(local.issuer).toBe(`http://localhost:${port}/api/v1`);
  });
});
