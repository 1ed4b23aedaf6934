import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONTRACTS } from "../../gateway/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startHeaderProxy } from "../harness/header-proxy.ts";
import { REPO_ROOT } from "../harness/svc-process.ts";

// The tool server as an MCP client meets it: JSON-RPC over POST /api/v1/mcp, one message per
// request, JSON answers, no session.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

let nextId = 1;
async function rpc(method: string, params: unknown, opts: { key?: string | null; headers?: Record<string, string> } = {}) {
  const res = await gw.call("POST", "/api/v1/mcp", {
    key: opts.key,
    body: { jsonrpc: "2.0", id: nextId++, method, params },
    headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...opts.headers },
  });
  return res;
}

describe("the MCP tool server", () => {
  it("initializes statelessly for 2025-06-18 and 2025-11-25 clients, and answers notifications with 202", async () => {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const res = await rpc("initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "test", version: "1" } }, { headers: { "mcp-protocol-version": version } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.headers["mcp-session-id"]).toBeUndefined();
      const body = res.json();
      expect(body.result.protocolVersion).toBe(version);
      expect(body.result.capabilities).toEqual({ tools: { listChanged: false } });
      expect(body.result.serverInfo.name).toBe("svc");
    }
    const note = await gw.call("POST", "/api/v1/mcp", { body: { jsonrpc: "2.0", method: "notifications/initialized" } });
    expect(note.statusCode).toBe(202);
    expect(note.body).toBe("");
    expect((await rpc("ping", {})).json().result).toEqual({});
  });

  it("lists one tool per registered operation, named as the spec's tools, with schemas and explicit annotations", async () => {
    const tools = (await rpc("tools/list", {})).json().result.tools as { name: string; inputSchema: { properties: Record<string, { format?: string }> } & Record<string, unknown>; outputSchema?: Record<string, unknown>; annotations: Record<string, boolean> }[];
    expect(tools.map((t) => t.name)).toEqual(CONTRACTS.map((c) => c.mcp));
    const addSite = tools.find((t) => t.name === "add_site")!;
    expect(addSite.inputSchema).toMatchObject({ type: "object", additionalProperties: false, required: ["host"] });
    expect(Object.keys(addSite.inputSchema.properties)).toEqual(["host", "interval", "keyword", "idempotency_key"]);
    expect(addSite.inputSchema.properties.host?.format).toBeUndefined();
    expect(addSite.outputSchema).toMatchObject({ type: "object", properties: { host: { type: "string" }, added: { type: "boolean" } } });
    expect(addSite.annotations).toEqual({ title: expect.any(String), readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(tools.find((t) => t.name === "remove_site")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(tools.find((t) => t.name === "list_sites")!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tools.find((t) => t.name === "start_crawl")!.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(tools.find((t) => t.name === "list_sites")!.inputSchema.properties.idempotency_key).toBeUndefined();
  });

  it("shows only the tools the caller's scopes allow", async () => {
    const reader = await gw.newAccount("mcp-reader@example.com", ["read"]);
    const names = ((await rpc("tools/list", {}, { key: reader.key })).json().result.tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("list_sites");
    expect(names).toContain("get_capabilities");
    expect(names).not.toContain("add_site");
    expect(names).not.toContain("start_analysis");
    const expected = CONTRACTS.filter((c) => c.scope === "none" || c.scope === "read").map((c) => c.mcp);
    expect(names).toEqual(expected);
  });

  it("calls a tool through the REST pipeline: the same answer, the same idempotency", async () => {
    const acc = await gw.newAccount("mcp-caller@example.com");
    const call = await rpc("tools/call", { name: "add_site", arguments: { host: "HTTPS://Mcp.Example.com/x", interval: 6, idempotency_key: "mcp-1" } }, { key: acc.key });
    const result = call.json().result;
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ host: "mcp.example.com", added: true, interval_h: 6 });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    // The same key again is the API's replay: the stored answer, nothing executed twice.
    const replay = (await rpc("tools/call", { name: "add_site", arguments: { host: "HTTPS://Mcp.Example.com/x", interval: 6, idempotency_key: "mcp-1" } }, { key: acc.key })).json().result;
    expect(replay.structuredContent).toEqual({ host: "mcp.example.com", added: true, interval_h: 6 });
    const other = (await rpc("tools/call", { name: "add_site", arguments: { host: "other.example.com", idempotency_key: "mcp-1" } }, { key: acc.key })).json().result;
    expect(other.isError).toBe(true);
    expect(other.content[0].text).toMatch(/^idem_conflict: /);
    const listed = (await rpc("tools/call", { name: "list_sites", arguments: { limit: 5 } }, { key: acc.key })).json().result;
    expect(listed.structuredContent.sites.map((s: { host: string }) => s.host)).toEqual(["mcp.example.com"]);
    expect(listed.structuredContent.page).toMatchObject({ limit: 5 });
  });

  it("turns a REST error into isError with the catalogue code, and an unknown tool into a JSON-RPC error", async () => {
    const reader = await gw.newAccount("mcp-scope@example.com", ["read"]);
    const scope = (await rpc("tools/call", { name: "add_site", arguments: { host: "a.example.com" } }, { key: reader.key })).json().result;
    expect(scope.isError).toBe(true);
    expect(scope.content[0].text).toMatch(/^scope: /);
    const badHost = (await rpc("tools/call", { name: "add_site", arguments: { host: "not a host" } })).json().result;
    expect(badHost.content[0].text).toMatch(/^bad_host: /);
    const unknownArg = (await rpc("tools/call", { name: "list_sites", arguments: { colour: "red" } })).json().result;
    expect(unknownArg.content[0].text).toMatch(/^bad_param: /);
    const notFound = (await rpc("tools/call", { name: "get_job", arguments: { id: 999999 } })).json().result;
    expect(notFound.content[0].text).toMatch(/^not_found: /);
    const unknown = (await rpc("tools/call", { name: "no_such_tool", arguments: {} })).json();
    expect(unknown.result).toBeUndefined();
    expect(unknown.error.code).toBe(-32602);
    expect((await rpc("resources/list", {})).json().error.code).toBe(-32601);
  });

  it("answers 401 with WWW-Authenticate naming the resource metadata, for no key and a bad one", async () => {
    const none = await rpc("tools/list", {}, { key: null });
    expect(none.statusCode).toBe(401);
    expect(none.headers["www-authenticate"]).toBe('Bearer resource_metadata="http://localhost:80/.well-known/oauth-protected-resource/api/v1/mcp", scope="read run write"');
    expect(none.json().code).toBe("missing");
    const bad = await rpc("tools/list", {}, { key: "svc_0000000000000000000000000000000000000000" });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_token", .*resource_metadata="http:\/\/localhost:80\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp"$/);
  });

  it("answers GET and DELETE with 405 and Allow: POST, refuses a foreign Origin, malformed JSON and batches", async () => {
    for (const method of ["GET", "DELETE"] as const) {
      const res = await gw.call(method, "/api/v1/mcp");
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe("POST");
      expect(res.json().code).toBe("method");
    }
    expect((await rpc("ping", {}, { headers: { origin: "https://evil.example" } })).statusCode).toBe(403);
    expect((await rpc("ping", {}, { headers: { origin: "http://localhost:80" } })).statusCode).toBe(200);
    const garbled = await gw.call("POST", "/api/v1/mcp", { body: "{not json" });
    expect(garbled.json().error.code).toBe(-32700);
    const batch = await gw.call("POST", "/api/v1/mcp", { body: [{ jsonrpc: "2.0", id: 1, method: "ping" }] });
    expect(batch.json().error.code).toBe(-32600);
    expect((await rpc("ping", {}, { headers: { "mcp-protocol-version": "1999-01-01" } })).statusCode).toBe(400);
  });
});

// Issue 15 §5: real clients against the listening tool server: the official SDK's client, the MCP
// Inspector's CLI mode and the conformance suite's server scenarios.
describe("MCP clients of others", () => {
  let url: string;
  beforeAll(async () => {
    await gw.app.listen({ host: "127.0.0.1", port: 0 });
    url = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}/api/v1/mcp`;
  });

  it("the official SDK client (Streamable HTTP) initializes, lists the tools and calls them", async () => {
    const client = new Client({ name: "svc-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${gw.ownerKey}` } } });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      expect(transport.protocolVersion).toBe("2025-11-25");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(CONTRACTS.map((c) => c.mcp).sort());
      // The SDK checks structuredContent against the tool's outputSchema.
      const added = await client.callTool({ name: "add_site", arguments: { host: "sdk.example.com", idempotency_key: "sdk-add-1" } });
      expect(added.isError).toBe(false);
      expect(added.structuredContent).toEqual({ host: "sdk.example.com", added: true, interval_h: 24 });
      const listed = await client.callTool({ name: "list_sites", arguments: {} });
      expect((listed.structuredContent as { sites: { host: string }[] }).sites.map((s) => s.host)).toContain("sdk.example.com");
      const refused = await client.callTool({ name: "get_job", arguments: { id: 987654 } });
      expect(refused.isError).toBe(true);
      expect((refused.content as { type: string; text: string }[])[0]?.text).toMatch(/^not_found: /);
    } finally {
      await client.close();
    }
  });

  it("the MCP Inspector CLI lists the tools and calls one", async () => {
    const auth = `Authorization: Bearer ${gw.ownerKey}`;
    const list = await inspector([url, "--transport", "http", "--header", auth, "--method", "tools/list"]);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["add_site", "list_sites", "get_job"]));
    const call = await inspector([url, "--transport", "http", "--header", auth, "--method", "tools/call", "--tool-name", "add_site", "--tool-arg", "host=inspector.example.com"]);
    expect(call.code, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({ isError: false, structuredContent: { host: "inspector.example.com", added: true, interval_h: 24 } });
  }, 60_000);

  it("passes the conformance suite's server-initialize, ping and tools-list scenarios", async () => {
    // The runner sends no credentials: a loopback proxy adds the key.
    const proxy = await startHeaderProxy(new URL(url).origin, { authorization: `Bearer ${gw.ownerKey}` });
    const out = mkdtempSync(join(tmpdir(), "svc-mcp-conformance-"));
    try {
      const runs = await Promise.all(["server-initialize", "ping", "tools-list"].map((scenario) => conformance(["server", "--url", `${proxy.origin}/api/v1/mcp`, "--scenario", scenario, "-o", out])));
      for (const r of runs) {
        expect(r.code, r.stdout + r.stderr).toBe(0);
        expect(r.stdout).toMatch(/Passed: 1\/1, 0 failed, 0 warnings/);
      }
    } finally {
      await proxy.close();
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

const MCP_PACKAGES = join(REPO_ROOT, "node_modules", "@modelcontextprotocol");

/** The Inspector's CLI mode; it reads its own package.json relative to the working directory, so it runs from its build directory. */
function inspector(args: string[]) {
  return runNode(join(MCP_PACKAGES, "inspector-cli", "build", "index.js"), args, join(MCP_PACKAGES, "inspector-cli", "build"));
}

function conformance(args: string[]) {
  return runNode(join(MCP_PACKAGES, "conformance", "dist", "index.js"), args, REPO_ROOT);
}

function runNode(script: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
