import { Type } from "@sinclair/typebox";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOperations, defineOperation } from "../../gateway/index.ts";
import { buildOpsServer } from "../../runtime/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});

const broken = defineOperation({
  id: "test_broken",
  method: "GET",
  path: "/test/broken",
  scope: "read",
  cli: "test broken",
  additive: true,
  summary: "Always fails inside",
  tags: ["Test"],
  response: Type.Object({}),
  repos: [],
  handler: async () => {
    throw new Error("database password is hunter2");
  },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ operations: [...buildOperations(), broken], logStream: sink });
});
afterAll(() => gw.close());

describe("logs", () => {
  it("log an internal fault as JSON with the request id, and answer without its detail", async () => {
    const res = await gw.call("GET", "/api/v1/test/broken", { headers: { authorization: `Bearer ${gw.ownerKey}` } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: "internal error; the request id identifies it in the service's logs", code: "server", request_id: res.headers["x-request-id"], retryable: true });
    expect(res.body).not.toContain("hunter2");
    const entry = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "request failed");
    expect(entry).toMatchObject({ level: 50, reqId: res.headers["x-request-id"], service: "svc" });
    expect(JSON.stringify(entry)).toContain("hunter2");
  });

  it("never contain a key", async () => {
    await gw.call("GET", "/api/v1/test/broken");
    await gw.call("GET", "/api/v1/test/broken", { key: null, headers: { authorization: `Bearer ${gw.ownerKey}` } });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(gw.ownerKey);
  });
});

describe("metrics", () => {
  it("count requests and latency by route template and status, never by raw URL", async () => {
    await gw.call("DELETE", "/api/v1/sites/one.example.com");
    await gw.call("DELETE", "/api/v1/sites/two.example.com");
    await gw.call("GET", "/api/v1/no/such/path");
    const ops = buildOpsServer({ metrics: gw.deps.metrics, ready: async () => ({ ok: true, detail: {} }) });
    const text = (await ops.inject({ method: "GET", url: "/metrics" })).body;
    expect(text).toContain('svc_http_requests_total{method="DELETE",route="/api/v1/sites/{host}",status="200"} 2');
    expect(text).toContain('svc_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toMatch(/svc_http_request_duration_seconds_bucket\{le="0.005",method="DELETE",route="\/api\/v1\/sites\/\{host\}",status="200"\}/);
    expect(text).not.toContain("one.example.com");
    expect((await ops.inject({ method: "GET", url: "/healthz" })).json()).toEqual({ ok: true });
    expect((await ops.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    const down = buildOpsServer({ metrics: gw.deps.metrics, ready: async () => ({ ok: false, detail: { draining: true } }) });
    expect((await down.inject({ method: "GET", url: "/readyz" })).json()).toEqual({ ok: false, draining: true });
  });
});
