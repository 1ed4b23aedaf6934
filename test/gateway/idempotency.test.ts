import { Type } from "@sinclair/typebox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError, buildOperations, defineOperation } from "../../gateway/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Operations that exist only in this file, to cause what the real ones cannot on demand.
let executions = 0;
let failNext = true;
const flaky = defineOperation({
  id: "test_flaky",
  method: "POST",
  path: "/test/flaky",
  scope: "write",
  cli: "test flaky",
  additive: true,
  summary: "Fails with a server error the first time, then succeeds",
  tags: ["Test"],
  response: Type.Object({ executions: Type.Integer() }),
  repos: [],
  handler: async () => {
    executions += 1;
    if (failNext) {
      failNext = false;
      throw new Error("boom: an internal detail that must not leak");
    }
    return { body: { executions } };
  },
});
const notFound = defineOperation({
  id: "test_not_found",
  method: "POST",
  path: "/test/not-found",
  scope: "write",
  cli: "test not-found",
  additive: true,
  summary: "Always answers not_found after executing",
  tags: ["Test"],
  response: Type.Object({}),
  repos: [],
  handler: async () => {
    executions += 1;
    throw new ApiError("not_found", "nothing here");
  },
});

let limitedFirst = true;
const limited = defineOperation({
  id: "test_limited",
  method: "POST",
  path: "/test/limited",
  scope: "write",
  cli: "test limited",
  additive: true,
  summary: "Answers 429 limit the first time, then succeeds",
  tags: ["Test"],
  response: Type.Object({ executions: Type.Integer() }),
  repos: [],
  handler: async () => {
    executions += 1;
    if (limitedFirst) {
      limitedFirst = false;
      throw new ApiError("limit", "the plan's daily checks are used up", { retryAfter: 30 });
    }
    return { body: { executions } };
  },
});
const redactedRefusal = defineOperation({
  id: "test_redacted_refusal",
  method: "POST",
  path: "/test/redacted-refusal",
  scope: "write",
  cli: "test redacted-refusal",
  additive: true,
  summary: "Refuses with bad_param; its successes would be redacted for replay",
  tags: ["Test"],
  response: Type.Object({ secret: Type.Union([Type.String(), Type.Null()]) }),
  redactForReplay: (body) => ({ ...(body as object), secret: null, note: "redacted" }),
  repos: [],
  handler: async () => {
    executions += 1;
    throw new ApiError("bad_param", "no such thing", { param: "thing" });
  },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ operations: [...buildOperations(), flaky, notFound, limited, redactedRefusal] });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const withKey = (key: string) => ({ "idempotency-key": key });

describe("Idempotency-Key", () => {
  it("replays the stored answer of a repeated request with Idempotent-Replay: true and executes nothing", async () => {
    const first = await gw.call("POST", "/api/v1/sites", { body: { host: "idem.example.com", interval: 12 }, headers: withKey("add-idem-1") });
    expect(first.statusCode).toBe(201);
    expect(first.headers["idempotent-replay"]).toBeUndefined();
    await gw.call("DELETE", "/api/v1/sites/idem.example.com");
    const replay = await gw.call("POST", "/api/v1/sites", { body: { interval: 12, host: "idem.example.com" }, headers: withKey("add-idem-1") });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replay"]).toBe("true");
    expect(replay.json()).toEqual(first.json());
    // Nothing executed: the site removed after the first call is still gone.
    expect((await gw.call("GET", "/api/v1/sites")).json().sites.map((s: { host: string }) => s.host)).not.toContain("idem.example.com");
  });

  it("answers 422 idem_conflict when the same key comes with a different request", async () => {
    await gw.call("POST", "/api/v1/sites", { body: { host: "conflict.example.com" }, headers: withKey("conflict-1") });
    for (const other of [
      { method: "POST" as const, url: "/api/v1/sites", body: { host: "conflict.example.com", interval: 6 } },
      { method: "POST" as const, url: "/api/v1/sites", body: { host: "other.example.com" } },
      { method: "DELETE" as const, url: "/api/v1/sites/conflict.example.com" },
    ]) {
      const res = await gw.call(other.method, other.url, { ...(other.body ? { body: other.body } : {}), headers: withKey("conflict-1") });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: "idem_conflict", retryable: false });
    }
  });

  it("answers 409 idem_busy with Retry-After 1 while the first request still runs", async () => {
    const account = (await gw.call("GET", "/api/v1/me")).json().user.id as number;
    const { fingerprint } = await import("../../gateway/pipeline/idempotency.ts");
    const now = Math.floor(gw.clock.nowMs() / 1000);
    // The state a concurrent first request leaves while its handler runs.
    await gw.store.idempotency.claim(account, "busy-1", await fingerprint("POST", "/sites", {}, {}, { host: "busy.example.com" }), now, 60, 86400);
    const res = await gw.call("POST", "/api/v1/sites", { body: { host: "busy.example.com" }, headers: withKey("busy-1") });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "idem_busy", retryable: true, retry_after: 1 });
    expect(res.headers["retry-after"]).toBe("1");
    // A request that died holding its key frees it once the lock expires.
    gw.clock.advance(61_000);
    try {
      const later = await gw.call("POST", "/api/v1/sites", { body: { host: "busy.example.com" }, headers: withKey("busy-1") });
      expect(later.statusCode).toBe(201);
    } finally {
      gw.clock.advance(-61_000);
    }
  });

  it("does not store retryable answers (429 limit): the retry executes", async () => {
    executions = 0;
    const first = await gw.call("POST", "/api/v1/test/limited", { headers: withKey("limited-1") });
    expect(first.statusCode).toBe(429);
    expect(first.headers["retry-after"]).toBe("30");
    const retry = await gw.call("POST", "/api/v1/test/limited", { headers: withKey("limited-1") });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers["idempotent-replay"]).toBeUndefined();
    expect(retry.json()).toEqual({ executions: 2 });
  });

  it("replays a stored error exactly as it was sent: replay redaction is for successes only", async () => {
    executions = 0;
    const first = await gw.call("POST", "/api/v1/test/redacted-refusal", { headers: withKey("refusal-1") });
    expect(first.statusCode).toBe(400);
    const replay = await gw.call("POST", "/api/v1/test/redacted-refusal", { headers: withKey("refusal-1") });
    expect(replay.statusCode).toBe(400);
    expect(replay.headers["idempotent-replay"]).toBe("true");
    expect(replay.json()).toEqual(first.json());
    expect(replay.json()).toEqual({ error: "no such thing", code: "bad_param", request_id: first.headers["x-request-id"], retryable: false, param: "thing" });
    expect(executions).toBe(1);
  });

  it("does not store 5xx answers: the retry executes", async () => {
    executions = 0;
    const first = await gw.call("POST", "/api/v1/test/flaky", { headers: withKey("flaky-1") });
    expect(first.statusCode).toBe(500);
    expect(first.json()).toEqual({ error: expect.any(String), code: "server", request_id: first.headers["x-request-id"], retryable: true });
    expect(first.body).not.toContain("boom");
    const retry = await gw.call("POST", "/api/v1/test/flaky", { headers: withKey("flaky-1") });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ executions: 2 });
    const replay = await gw.call("POST", "/api/v1/test/flaky", { headers: withKey("flaky-1") });
    expect(replay.headers["idempotent-replay"]).toBe("true");
    expect(executions).toBe(2);
  });

  it("stores an operation's own 4xx answer and replays it", async () => {
    executions = 0;
    expect((await gw.call("POST", "/api/v1/test/not-found", { headers: withKey("nf-1") })).statusCode).toBe(404);
    const replay = await gw.call("POST", "/api/v1/test/not-found", { headers: withKey("nf-1") });
    expect(replay.statusCode).toBe(404);
    expect(replay.headers["idempotent-replay"]).toBe("true");
    expect(executions).toBe(1);
  });

  it("never keeps a secret in the stored answer: a replayed key creation explains instead", async () => {
    const first = await gw.call("POST", "/api/v1/keys", { body: { name: "ci", scopes: ["read"] }, headers: withKey("key-1") });
    const secret = first.json().key as string;
    expect(secret).toMatch(/^svc_/);
    const stored = await gw.db.query<{ body: string }>("SELECT body FROM idempotency_keys WHERE key = 'key-1'");
    expect(stored[0]?.body).not.toContain(secret);
    const replay = await gw.call("POST", "/api/v1/keys", { body: { name: "ci", scopes: ["read"] }, headers: withKey("key-1") });
    expect(replay.headers["idempotent-replay"]).toBe("true");
    expect(replay.json()).toMatchObject({ id: first.json().id, key: null, note: expect.stringContaining("shown only once") });
  });

  it("refuses keys outside the format with 400 bad_param and accepts the quoted form", async () => {
    for (const bad of ["", "x".repeat(65), "has space", "semi;colon", "ключ"]) {
      const res = await gw.call("POST", "/api/v1/sites", { body: { host: "fmt.example.com" }, headers: withKey(bad) });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({ code: "bad_param", param: "Idempotency-Key" });
    }
    const quoted = await gw.call("POST", "/api/v1/sites", { body: { host: "fmt.example.com" }, headers: withKey('"A-z0.9_:-"') });
    expect(quoted.statusCode).toBe(201);
    const plain = await gw.call("POST", "/api/v1/sites", { body: { host: "fmt.example.com" }, headers: withKey("A-z0.9_:-") });
    expect(plain.headers["idempotent-replay"]).toBe("true");
  });

  it("does not store requests refused before execution, so a corrected retry runs", async () => {
    const bad = await gw.call("POST", "/api/v1/sites", { body: { host: "not a host" }, headers: withKey("fix-1") });
    expect(bad.json().code).toBe("bad_host");
    const good = await gw.call("POST", "/api/v1/sites", { body: { host: "fixed.example.com" }, headers: withKey("fix-1") });
    expect(good.statusCode).toBe(201);
  });

  it("keeps keys per account and forgets them after the 86400 s window", async () => {
    const other = await gw.newAccount("idem-other@example.com");
    await gw.call("POST", "/api/v1/sites", { body: { host: "window.example.com" }, headers: withKey("shared-key") });
    const theirs = await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: "theirs.example.com" }, headers: withKey("shared-key") });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers["idempotent-replay"]).toBeUndefined();
    gw.clock.advance(86_400_000);
    try {
      const fresh = await gw.call("POST", "/api/v1/sites", { body: { host: "window2.example.com" }, headers: withKey("shared-key") });
      expect(fresh.statusCode).toBe(201);
      expect(fresh.headers["idempotent-replay"]).toBeUndefined();
    } finally {
      gw.clock.advance(-86_400_000);
    }
  });
});
