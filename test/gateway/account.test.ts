import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, T0_MS, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_PLAN_API_KEYS: "3" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const T0 = Math.floor(T0_MS / 1000);

describe("GET /me", () => {
  it("describes the key, the account, the hour's usage and the plan", async () => {
    const res = await gw.call("GET", "/api/v1/me");
    expect(res.json()).toEqual({
      user: { id: 1, email: "owner@example.com" },
      key: { id: 1, name: "first key", prefix: gw.ownerKey.slice(0, 12), scopes: ["read", "run", "write"], expires: null, allowed_ips: [], created: T0 },
      rate: { limit_per_hour: 120, used_this_hour: 1 },
      plan: { name: "default", sites: 50, checks_per_day: 200, rechecks_per_day: 100, webhooks: 10, api_keys: 3 },
    });
  });
});

describe("keys", () => {
  it("creates a key shown once, lists keys without secrets, and revokes", async () => {
    const created = await gw.call("POST", "/api/v1/keys", { body: { name: "reporting", scopes: ["read"], expires_in: "90d", allowed_ips: ["203.0.113.0/24", "2001:db8::1"], rate_limit_per_hour: 500 } });
    expect(created.statusCode).toBe(201);
    const k = created.json();
    expect(k).toEqual({
      id: 2,
      key: expect.stringMatching(/^svc_/),
      name: "reporting",
      prefix: k.key.slice(0, 12),
      scopes: ["read"],
      expires: T0 + 90 * 86400,
      allowed_ips: ["203.0.113.0/24", "2001:db8::1"],
      rate_limit_per_hour: 500,
      created: T0,
    });
    const list = await gw.call("GET", "/api/v1/keys");
    expect(list.body).not.toContain(k.key);
    expect(list.json().keys.map((x: { name: string }) => x.name)).toEqual(["first key", "reporting"]);
    expect(list.json().keys[1]).toMatchObject({ id: 2, prefix: k.prefix, revoked: null, kind: "api" });
    expect((await gw.call("GET", "/api/v1/me", { key: k.key, remoteAddress: "203.0.113.5" })).json().rate).toEqual({ limit_per_hour: 500, used_this_hour: 1 });
    expect((await gw.call("DELETE", "/api/v1/keys/2")).json()).toEqual({ id: 2, revoked: true });
    expect((await gw.call("GET", "/api/v1/keys")).json().keys[1].revoked).toBe(T0);
    expect((await gw.call("DELETE", "/api/v1/keys/999")).json().code).toBe("not_found");
  });

  it("offers the four expiry choices only", async () => {
    const one = await gw.call("POST", "/api/v1/keys", { body: { name: "year", scopes: ["read"], expires_in: "1y" } });
    expect(one.json().expires).toBe(T0 + 365 * 86400);
    await gw.call("DELETE", `/api/v1/keys/${one.json().id}`);
    const bad = await gw.call("POST", "/api/v1/keys", { body: { name: "week", scopes: ["read"], expires_in: "7d" } });
    expect(bad.json()).toMatchObject({ code: "bad_param", param: "expires_in", error: 'body field "expires_in" must be one of unlimited, 30d, 90d, 1y' });
  });

  it("refuses malformed allowlists and scopes the caller lacks", async () => {
    expect((await gw.call("POST", "/api/v1/keys", { body: { name: "x", scopes: ["read"], allowed_ips: ["10.0.0.0/40"] } })).json()).toMatchObject({ code: "bad_param", param: "allowed_ips.0" });
    expect((await gw.call("POST", "/api/v1/keys", { body: { name: "x", scopes: ["admin"] } })).json().code).toBe("bad_param");
    const reader = await gw.call("POST", "/api/v1/keys", { body: { name: "writer-maker", scopes: ["read", "write"] } });
    const escalate = await gw.call("POST", "/api/v1/keys", { key: reader.json().key, body: { name: "run", scopes: ["run"] } });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json()).toMatchObject({ code: "scope", details: { required: ["run"] } });
    await gw.call("DELETE", `/api/v1/keys/${reader.json().id}`);
  });

  it("answers 429 limit when the plan's number of keys is reached", async () => {
    const made: number[] = [];
    for (;;) {
      const res = await gw.call("POST", "/api/v1/keys", { body: { name: `k${made.length}`, scopes: ["read"] } });
      if (res.statusCode !== 201) {
        expect(res.statusCode).toBe(429);
        expect(res.json()).toMatchObject({ code: "limit", details: { policy: "api_keys" } });
        break;
      }
      made.push(res.json().id as number);
    }
    // The owner's key plus two more make the plan's three usable keys.
    expect(made).toHaveLength(2);
    await gw.call("DELETE", `/api/v1/keys/${made[0]}`);
    const after = await gw.call("POST", "/api/v1/keys", { body: { name: "after revoke", scopes: ["read"] } });
    expect(after.statusCode).toBe(201);
    for (const id of [made[1], after.json().id]) await gw.call("DELETE", `/api/v1/keys/${id}`);
  });
});

describe("GET /usage", () => {
  it("counts calls, errors and limited calls of the calling key per UTC day", async () => {
    const acc = await gw.newAccount("usage@example.com");
    await gw.call("GET", "/api/v1/me", { key: acc.key });
    await gw.call("GET", "/api/v1/sites?limit=0", { key: acc.key });
    gw.clock.advance(86_400_000);
    try {
      await gw.call("GET", "/api/v1/me", { key: acc.key });
      const res = await gw.call("GET", "/api/v1/usage?days=2", { key: acc.key });
      expect(res.json()).toEqual({
        days: 2,
        total: 3,
        errors: 1,
        limited: 0,
        usage: [
          { day: "2026-11-22", calls: 2, errors: 1, limited: 0 },
          { day: "2026-11-23", calls: 1, errors: 0, limited: 0 },
        ],
      });
      const today = await gw.call("GET", "/api/v1/usage?days=1", { key: acc.key });
      expect(today.json().usage).toEqual([{ day: "2026-11-23", calls: 2, errors: 0, limited: 0 }]);
      expect((await gw.call("GET", "/api/v1/usage", { key: acc.key })).json().days).toBe(30);
    } finally {
      gw.clock.advance(-86_400_000);
    }
  });

  it("counts limited calls apart", async () => {
    const k = (await gw.call("POST", "/api/v1/keys", { body: { name: "tiny", scopes: ["read"], rate_limit_per_hour: 1 } })).json();
    await gw.call("GET", "/api/v1/me", { key: k.key });
    await gw.call("GET", "/api/v1/me", { key: k.key });
    const over = await gw.call("GET", "/api/v1/usage", { key: k.key });
    expect(over.statusCode).toBe(429);
    await gw.deps.usage.flush();
    const rows = await gw.store.usage.read([k.id], "2026-11-22", "2026-11-22");
    expect(rows).toEqual([{ day: "2026-11-22", calls: 3, errors: 0, limited: 2 }]);
    await gw.call("DELETE", `/api/v1/keys/${k.id}`);
  });
});
