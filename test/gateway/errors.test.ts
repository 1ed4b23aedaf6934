import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../gateway/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

describe("every answer carries the contract's headers and error shape", () => {
  it("sets X-Request-Id and X-API-Version on successes, errors and 404s, and echoes a sane incoming request id", async () => {
    for (const res of [await gw.call("GET", "/api/v1/me"), await gw.call("GET", "/api/v1/me", { key: null }), await gw.call("GET", "/api/v1/nowhere")]) {
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers["x-api-version"]).toBe("1.3");
      expect(res.headers["x-ratelimit-limit"]).toBeDefined();
      expect(res.headers["x-ratelimit-remaining"]).toBeDefined();
    }
    expect((await gw.call("GET", "/api/v1/me", { headers: { "x-request-id": "trace-42" } })).headers["x-request-id"]).toBe("trace-42");
    expect((await gw.call("GET", "/api/v1/me", { headers: { "x-request-id": "bad id with spaces" } })).headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers an unknown path with 404 not_found and a known path's wrong method with 405 method and Allow", async () => {
    const nf = await gw.call("GET", "/api/v1/no/such/thing");
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toMatchObject({ code: "not_found", error: "no operation at GET /api/v1/no/such/thing" });
    const wrong = await gw.call("PUT", "/api/v1/sites/example.com");
    expect(wrong.statusCode).toBe(405);
    expect(wrong.json().code).toBe("method");
    expect(wrong.headers.allow).toBe("DELETE, PATCH");
    expect((await gw.call("POST", "/api/v1/me")).headers.allow).toBe("GET, HEAD");
  });

  it("answers malformed JSON with 400 bad_request, and a non-JSON body likewise", async () => {
    const res = await gw.call("POST", "/api/v1/sites", { body: "{not json" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_request", error: "the body is not valid JSON" });
    const form = await gw.app.inject({ method: "POST", url: "/api/v1/sites", headers: { "x-api-key": gw.ownerKey, "content-type": "application/x-www-form-urlencoded" }, payload: "host=example.com" });
    expect(form.statusCode).toBe(400);
    expect(form.json().code).toBe("bad_request");
  });

  it("answers a body over the operation's limit with 400 bad_request", async () => {
    const res = await gw.call("POST", "/api/v1/sites", { body: { host: "x".repeat(1024 * 1024 + 10) } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_request", details: { reason: "body_too_large" } });
  });

  it("refuses unknown fields, wrong types and out-of-range values with 400 bad_param naming the field", async () => {
    const cases: [string, string, unknown, string, string][] = [
      ["POST", "/api/v1/sites", { host: "example.com", colour: "red" }, "colour", 'unknown body field "colour"'],
      ["POST", "/api/v1/sites", { host: "example.com", interval: "24" }, "interval", 'body field "interval" must be integer'],
      ["POST", "/api/v1/sites", { host: "example.com", interval: 0 }, "interval", 'body field "interval" must be >= 1'],
      ["POST", "/api/v1/sites", { interval: 5 }, "host", 'body field "host" is required'],
      ["GET", "/api/v1/usage?days=91", undefined, "days", 'query field "days" must be <= 90'],
      ["GET", "/api/v1/usage?days=abc", undefined, "days", 'query field "days" must be integer'],
      ["GET", "/api/v1/sites?limit=201", undefined, "limit", 'query field "limit" must be <= 200'],
      ["GET", "/api/v1/sites?colour=red", undefined, "colour", 'unknown query field "colour"'],
      ["GET", "/api/v1/overview?sort=size", undefined, "sort", 'query field "sort" must be one of name, rank, delta, crit, tasks, checked'],
      ["DELETE", "/api/v1/keys/abc", undefined, "id", 'params field "id" must be integer'],
    ];
    for (const [method, url, body, param, error] of cases) {
      const res = await gw.call(method, url, body === undefined ? {} : { body });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), `${method} ${url}`).toMatchObject({ code: "bad_param", param, error });
    }
  });

  it("answers an unusable host with 400 bad_host, in a body or a path", async () => {
    const body = await gw.call("POST", "/api/v1/sites", { body: { host: "not a host" } });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toMatchObject({ code: "bad_host", param: "host", error: '"not a host" is not a usable host: not a host name or address' });
    const path = await gw.call("DELETE", "/api/v1/sites/co.uk");
    expect(path.json()).toMatchObject({ code: "bad_host", error: '"co.uk" is not a usable host: co.uk is a public suffix, not a site' });
  });

  it("never lets a validation failure write anything", async () => {
    await gw.call("POST", "/api/v1/sites", { body: { host: "half.example.com", interval: 0 } });
    const [row] = await gw.db.query<{ n: number }>("SELECT count(*) AS n FROM sites WHERE host = 'half.example.com'");
    expect(row?.n).toBe(0);
  });
});

describe("operator switches", () => {
  it("answers 503 maintenance with Retry-After while maintenance is on, keyless self-description included not", async () => {
    await gw.admin.setSwitch("maintenance", true);
    await gw.deps.switches.refresh();
    try {
      const res = await gw.call("GET", "/api/v1/sites");
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: "maintenance", retryable: true, retry_after: 60 });
      expect(res.headers["retry-after"]).toBe("60");
      expect((await gw.call("GET", "/api/v1/capabilities", { key: null })).statusCode).toBe(200);
    } finally {
      await gw.admin.setSwitch("maintenance", false);
      await gw.deps.switches.refresh();
    }
    expect((await gw.call("GET", "/api/v1/sites")).statusCode).toBe(200);
  });

  it("answers 503 closed to everyone but administrators while the service is closed", async () => {
    const user = await gw.newAccount("closed@example.com");
    await gw.admin.setSwitch("closed", true);
    await gw.deps.switches.refresh();
    try {
      const res = await gw.call("GET", "/api/v1/sites", { key: user.key });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: "closed", retryable: true });
      expect(res.headers["retry-after"]).toBeDefined();
      expect((await gw.call("GET", "/api/v1/sites")).statusCode).toBe(200);
    } finally {
      await gw.admin.setSwitch("closed", false);
      await gw.deps.switches.refresh();
    }
  });

  it("honours SVC_MAINTENANCE at start", async () => {
    const other = await startTestGateway({ env: { SVC_MAINTENANCE: "1" } });
    try {
      expect((await other.call("GET", "/api/v1/me")).json().code).toBe("maintenance");
    } finally {
      await other.close();
    }
  });
});

describe("the error catalogue's coverage", () => {
  it("every code is produced by some test or pending with the issue that will produce it", () => {
    const pending = JSON.parse(readFileSync(new URL("../pending-errors.json", import.meta.url), "utf8")) as { code: string; issue: number | null }[];
    const produced = ["missing", "invalid", "revoked", "expired", "ip", "blocked", "closed", "scope", "limit", "not_found", "method", "bad_request", "bad_host", "bad_param", "idem_conflict", "idem_busy", "maintenance", "server", "not_ready", "bad_status", "unsupported", "tool_off", "tool_failed", "service_off"];
    expect([...produced, ...pending.map((p) => p.code)].sort()).toEqual([...ERROR_CODES].sort());
  });
});
