import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildOperations, hashKey } from "../../gateway/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_PLAN_API_KEYS: "1000", SVC_RATE_PER_HOUR: "100000", SVC_PLAN_KEY_RATE_PER_HOUR: "1000000000" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

async function keyWith(scopes: ("read" | "run" | "write")[], extra: Record<string, unknown> = {}) {
  const res = await gw.call("POST", "/api/v1/keys", { body: { name: `k-${scopes.join("")}-${Math.random()}`, scopes, ...extra } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: number; key: string; prefix: string }>();
}

describe("authentication", () => {
  it("accepts the key in X-Api-Key and as Authorization: Bearer", async () => {
    expect((await gw.call("GET", "/api/v1/me")).statusCode).toBe(200);
    const bearer = await gw.call("GET", "/api/v1/me", { key: null, headers: { authorization: `Bearer ${gw.ownerKey}` } });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json().user.email).toBe("owner@example.com");
  });

  it("answers 401 missing without a key, and 401 invalid for an unknown key", async () => {
    const missing = await gw.call("GET", "/api/v1/me", { key: null });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: "missing", retryable: false });
    const invalid = await gw.call("GET", "/api/v1/me", { key: "svc_not-a-key" });
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json().code).toBe("invalid");
  });

  it("refuses a key in the URL with 400 bad_request, whatever the route", async () => {
    for (const url of [`/api/v1/me?api_key=${gw.ownerKey}`, `/api/v1/sites?key=${gw.ownerKey}`, "/api/v1/capabilities?access_token=x"]) {
      const res = await gw.call("GET", url, { key: null });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe("bad_request");
    }
  });

  it("answers revoked for a revoked key, at once", async () => {
    const k = await keyWith(["read"]);
    expect((await gw.call("GET", "/api/v1/me", { key: k.key })).statusCode).toBe(200);
    const del = await gw.call("DELETE", `/api/v1/keys/${k.id}`);
    expect(del.json()).toEqual({ id: k.id, revoked: true });
    const res = await gw.call("GET", "/api/v1/me", { key: k.key });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("revoked");
  });

  it("answers expired once a key's expiry has passed", async () => {
    const k = await keyWith(["read"], { expires_in: "30d" });
    expect((await gw.call("GET", "/api/v1/me", { key: k.key })).json().key.expires).toBe(Math.floor(gw.clock.nowMs() / 1000) + 30 * 86400);
    gw.clock.advance(30 * 86_400_000 + 1000);
    try {
      const res = await gw.call("GET", "/api/v1/me", { key: k.key });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe("expired");
    } finally {
      gw.clock.advance(-(30 * 86_400_000 + 1000));
    }
  });

  it("checks allowed_ips: IPv4, IPv6 and CIDR networks", async () => {
    const k = await keyWith(["read"], { allowed_ips: ["203.0.113.7", "198.51.100.0/24", "2001:db8::/32"] });
    const from = async (remoteAddress: string) => (await gw.call("GET", "/api/v1/me", { key: k.key, remoteAddress })).statusCode;
    expect(await from("203.0.113.7")).toBe(200);
    expect(await from("::ffff:203.0.113.7")).toBe(200);
    expect(await from("198.51.100.200")).toBe(200);
    expect(await from("2001:db8:1::5")).toBe(200);
    expect(await from("203.0.113.8")).toBe(403);
    expect(await from("2001:db9::1")).toBe(403);
    const res = await gw.call("GET", "/api/v1/me", { key: k.key, remoteAddress: "192.0.2.1" });
    expect(res.json()).toMatchObject({ code: "ip", retryable: false });
  });

  it("answers 403 blocked for a blocked account, and serves it again when unblocked", async () => {
    const acc = await gw.newAccount("blocked@example.com");
    await gw.admin.setBlocked("blocked@example.com", true);
    const res = await gw.call("GET", "/api/v1/me", { key: acc.key });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("blocked");
    await gw.admin.setBlocked(String(acc.accountId), false);
    expect((await gw.call("GET", "/api/v1/me", { key: acc.key })).statusCode).toBe(200);
  });

  it("stores keys only as hashes, with a visible prefix", async () => {
    const k = await keyWith(["read"]);
    expect(k.key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    expect(k.prefix).toBe(k.key.slice(0, 12));
    const rows = await gw.db.query<{ hash: string; prefix: string }>("SELECT hash, prefix FROM api_keys WHERE id = $1", [k.id]);
    expect(rows[0]).toEqual({ hash: hashKey(k.key), prefix: k.prefix });
    const dump = JSON.stringify(await gw.db.query("SELECT * FROM api_keys"));
    expect(dump).not.toContain(k.key);
  });
});

describe("the scope matrix of every registered operation", () => {
  const operations = buildOperations().filter((op) => op.scope !== "none");
  const samplePath = (path: string) => path.replace("{host}", "example.com").replace("{id}", "999999");

  it.each(operations.map((op) => [op.id, op] as const))("%s needs exactly its scope", async (_id, op) => {
    for (const scope of ["read", "run", "write"] as const) {
      const k = await keyWith([scope]);
      const res = await gw.call(op.method, `/api/v1${samplePath(op.path)}`, { key: k.key, ...(op.body ? { body: {} } : {}) });
      if (scope === op.scope) {
        expect(res.statusCode, `${op.id} with ${scope}`).not.toBe(403);
        expect(res.statusCode, `${op.id} with ${scope}`).not.toBe(401);
      } else {
        expect(res.statusCode, `${op.id} with ${scope}`).toBe(403);
        expect(res.json()).toMatchObject({ code: "scope", details: { required: op.scope } });
      }
      expect((await gw.call("DELETE", `/api/v1/keys/${k.id}`)).statusCode).toBe(200);
    }
  });

  it("lets keyless operations answer without a key", async () => {
    for (const path of ["/api/v1/capabilities", "/api/v1/openapi.json"]) {
      expect((await gw.call("GET", path, { key: null })).statusCode).toBe(200);
    }
  });
});
