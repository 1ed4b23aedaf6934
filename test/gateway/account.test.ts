import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, T0_MS, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_PLAN_API_KEYS: "3", SVC_PLAN_KEY_RATE_PER_HOUR: "300" } });
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
      rate: { limit_per_hour: 120, used_this_hour: 1, keys: 1, keys_per_hour: 120 },
      plan: { name: "default", sites: 50, checks_per_day: 200, rechecks_per_day: 100, webhooks: 10, api_keys: 3, key_rate_per_hour: 300 },
    });
  });
});

describe("keys", () => {
  it("creates a key shown once, lists keys without secrets, and revokes", async () => {
    const created = await gw.call("POST", "/api/v1/keys", { body: { name: "reporting", scopes: ["read"], expires_in: "90d", allowed_ips: ["203.0.113.0/24", "2001:db8::1"], rate_limit_per_hour: 100 } });
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
      rate_limit_per_hour: 100,
      created: T0,
    });
    const list = await gw.call("GET", "/api/v1/keys");
    expect(list.body).not.toContain(k.key);
    expect(list.json().keys.map((x: { name: string }) => x.name)).toEqual(["first key", "reporting"]);
    expect(list.json().keys[1]).toMatchObject({ id: 2, prefix: k.prefix, revoked: null, kind: "api" });
    expect((await gw.call("GET", "/api/v1/me", { key: k.key, remoteAddress: "203.0.113.5" })).json().rate).toMatchObject({ limit_per_hour: 100, used_this_hour: 1 });
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

  it("never lets a key create a key stronger than itself", async () => {
    // The reproduction: a write key with a 30-day expiry, an allowlist and 50/h.
    const made = await gw.call("POST", "/api/v1/keys", {
      body: { name: "restricted", scopes: ["read", "write"], expires_in: "30d", allowed_ips: ["203.0.113.0/24"], rate_limit_per_hour: 50 },
    });
    const restricted = { key: made.json().key as string, remoteAddress: "203.0.113.9" };
    const create = (body: Record<string, unknown>) => gw.call("POST", "/api/v1/keys", { ...restricted, body: { name: "child", scopes: ["read"], ...body } });
    for (const [body, param] of [
      [{ expires_in: "unlimited" }, "expires_in"],
      [{ expires_in: "90d" }, "expires_in"],
      [{ allowed_ips: ["0.0.0.0/0"] }, "allowed_ips"],
      [{ allowed_ips: ["203.0.113.0/23"] }, "allowed_ips"],
      [{ allowed_ips: ["2001:db8::1"] }, "allowed_ips"],
      [{ rate_limit_per_hour: 1_000_000 }, "rate_limit_per_hour"],
      [{ rate_limit_per_hour: 51 }, "rate_limit_per_hour"],
    ] as const) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: "bad_param", param });
    }
    // Left out, the fields take the creating key's bounds; narrower ones are kept.
    const child = await create({});
    expect(child.statusCode).toBe(201);
    expect(child.json()).toMatchObject({ expires: T0 + 30 * 86400, allowed_ips: ["203.0.113.0/24"], rate_limit_per_hour: 50 });
    // A key may revoke a key no stronger than itself.
    expect((await gw.call("DELETE", `/api/v1/keys/${child.json().id}`, restricted)).json()).toEqual({ id: child.json().id, revoked: true });
    const narrow = await create({ scopes: ["read", "write"], allowed_ips: ["203.0.113.7"], expires_in: "30d", rate_limit_per_hour: 10 });
    expect(narrow.json()).toMatchObject({ expires: T0 + 30 * 86400, allowed_ips: ["203.0.113.7"], rate_limit_per_hour: 10 });

    // It may not revoke the owner's key (stronger in every way), nor may the narrower key revoke it.
    const owner = await gw.call("DELETE", "/api/v1/keys/1", restricted);
    expect(owner.statusCode).toBe(403);
    expect(owner.json()).toMatchObject({ code: "scope" });
    const up = await gw.call("DELETE", `/api/v1/keys/${made.json().id}`, { key: narrow.json().key, remoteAddress: "203.0.113.7" });
    expect(up.json()).toMatchObject({ code: "scope" });
    expect((await gw.call("GET", "/api/v1/me")).statusCode).toBe(200);
    // A write key may always revoke itself.
    expect((await gw.call("DELETE", `/api/v1/keys/${narrow.json().id}`, { key: narrow.json().key, remoteAddress: "203.0.113.7" })).json()).toEqual({ id: narrow.json().id, revoked: true });
    expect((await gw.call("DELETE", `/api/v1/keys/${made.json().id}`, restricted)).json()).toEqual({ id: made.json().id, revoked: true });
  });

  it("keeps the sum of the account's hourly limits under the plan's ceiling, with no Retry-After", async () => {
    // The owner's key takes 120 of the plan's 300.
    const big = await gw.call("POST", "/api/v1/keys", { body: { name: "big", scopes: ["read"], rate_limit_per_hour: 120 } });
    expect(big.statusCode).toBe(201);
    const over = await gw.call("POST", "/api/v1/keys", { body: { name: "over", scopes: ["read"], rate_limit_per_hour: 120 } });
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBeUndefined();
    expect(over.json()).toMatchObject({ code: "limit", details: { policy: "key_rate_per_hour", ceiling: 300, used: 240 } });
    const fits = await gw.call("POST", "/api/v1/keys", { body: { name: "fits", scopes: ["read"], rate_limit_per_hour: 60 } });
    expect(fits.statusCode).toBe(201);
    for (const id of [big.json().id, fits.json().id]) await gw.call("DELETE", `/api/v1/keys/${id}`);
  });

  it("answers 429 limit when the plan's number of keys is reached", async () => {
    const made: number[] = [];
    for (;;) {
      const res = await gw.call("POST", "/api/v1/keys", { body: { name: `k${made.length}`, scopes: ["read"], rate_limit_per_hour: 10 } });
      if (res.statusCode !== 201) {
        expect(res.statusCode).toBe(429);
        expect(res.json()).toMatchObject({ code: "limit", details: { policy: "api_keys" } });
        expect(res.headers["retry-after"]).toBeUndefined();
        break;
      }
      made.push(res.json().id as number);
    }
    // The owner's key plus two more make the plan's three usable keys.
    expect(made).toHaveLength(2);
    await gw.call("DELETE", `/api/v1/keys/${made[0]}`);
    const after = await gw.call("POST", "/api/v1/keys", { body: { name: "after revoke", scopes: ["read"], rate_limit_per_hour: 10 } });
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
