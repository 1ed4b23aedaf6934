import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// The tool server under a hostile client: deep arguments (Q6), the envelope's metering (Q8), and
// arguments handled as REST handles the same fields (Q13).

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

let nextId = 1;
function rpc(message: Record<string, unknown> | string, key: string | null = gw.ownerKey) {
  return gw.call("POST", "/api/v1/mcp", {
    key,
    body: typeof message === "string" ? message : { jsonrpc: "2.0", id: nextId++, ...message },
    headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
  });
}
const call = (name: string, args: unknown, key?: string) => rpc({ method: "tools/call", params: { name, arguments: args } }, key);
const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("Q6: deeply nested MCP arguments", () => {
  it.each([5_000, 200_000])("%i levels answer a JSON-RPC error, never 500", async (levels) => {
    const text = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add_site","arguments":{"host":"deep.org","interval":${nested(levels)}}}}`;
    const res = await rpc(text);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "params are nested deeper than 32 levels" } });
  });

  it("deep params of ping are refused alike; the REST bound itself still answers as REST does", async () => {
    const ping = await rpc(`{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":${nested(1_000)}}}`);
    expect(ping.json()).toEqual({ jsonrpc: "2.0", id: 8, error: { code: -32602, message: "params are nested deeper than 32 levels" } });
    // 40 levels inside the arguments object: over the bound too, as a 40-level REST body would be.
    const forty = await call("add_site", JSON.parse(`{"host":"deep.org","interval":${nested(39)}}`));
    expect(forty.json().error).toEqual({ code: -32602, message: "params are nested deeper than 32 levels" });
  });
});

describe("Q8: the MCP envelope is metered like the REST call it wraps", () => {
  it("tools/list, initialize and ping count against the key's hour; past it they answer 429 limit", async () => {
    const made = await gw.call("POST", "/api/v1/keys", { body: { name: "one-an-hour", scopes: ["read"], rate_limit_per_hour: 2 } });
    const key = made.json<{ key: string }>().key;
    const first = await rpc({ method: "tools/list" }, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-ratelimit-remaining"]).toBe("1");
    expect((await rpc({ method: "ping" }, key)).statusCode).toBe(200);
    const over = await rpc({ method: "tools/list" }, key);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: "limit", retryable: true });
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect((await rpc({ method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, key)).statusCode).toBe(429);
    // A tool call is counted once, as its REST request: the limit comes back as the tool's error.
    const tool = await call("list_sites", {}, key);
    expect(tool.statusCode).toBe(200);
    expect(tool.json().result.content[0].text).toMatch(/^limit: hourly limit of 2 requests reached/);
  });
});

describe("Q13: MCP arguments are handled as REST handles the same fields", () => {
  it("a __proto__ argument is an unknown field, as over REST", async () => {
    const res = await rpc(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add_site","arguments":{"host":"proto.org","__proto__":{"interval":1}}}}`);
    const result = res.json().result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe('bad_param: unknown body field "__proto__"');
    expect((await gw.call("GET", "/api/v1/sites")).json<{ sites: { host: string }[] }>().sites.map((s) => s.host)).not.toContain("proto.org");
  });

  it.each([
    ["remove_site", { host: "." }],
    ["remove_site", { host: ".." }],
    ["get_job", { id: ".." }],
  ])("%s %j is refused as a bad parameter, not routed elsewhere", async (name, args) => {
    const result = (await call(name, args)).json().result;
    const [param, value] = Object.entries(args)[0] as [string, string];
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(`bad_param: ${param} may not be "${value}"`);
  });

  it("a non-string idempotency_key is refused, not ignored", async () => {
    const result = (await call("add_site", { host: "idem-number.org", idempotency_key: 123 })).json().result;
    expect(result.content[0].text).toBe("bad_param: idempotency_key must be a string");
    expect((await gw.call("GET", "/api/v1/sites")).json<{ sites: { host: string }[] }>().sites.map((s) => s.host)).not.toContain("idem-number.org");
  });

  it("an object JSON-RPC id is refused, not echoed", async () => {
    const res = await rpc({ id: { a: 1 }, method: "ping" });
    expect([res.statusCode, res.json()]).toEqual([400, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "id must be a string or a number" } }]);
  });
});
