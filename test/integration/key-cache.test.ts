import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "../harness/databases.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Two gateway processes (separate pools and key caches) on one Postgres database: a change made
// through one must reach the other's cache.

let a: TestGateway;
let b: TestGateway;
beforeAll(async () => {
  const url = await freshDatabase(inject("postgresUrl"));
  a = await startTestGateway({ postgresUrl: url, poolSize: 4 });
  b = await startTestGateway({ postgresUrl: url, poolSize: 4, shareWith: a });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

/** Polls until the answer's status is `status` (bounded); returns the time it took. */
async function until(gw: TestGateway, key: string, status: number, withinMs = 3000): Promise<number> {
  const start = Date.now();
  for (;;) {
    const res = await gw.call("GET", "/api/v1/me", { key });
    if (res.statusCode === status) return Date.now() - start;
    if (Date.now() - start > withinMs) throw new Error(`still ${res.statusCode} after ${withinMs} ms`);
    await sleep(10);
  }
}

describe("the key cache across gateway processes", () => {
  it("refuses a key revoked through the other gateway within moments", async () => {
    const k = (await a.call("POST", "/api/v1/keys", { body: { name: "shared", scopes: ["read"] } })).json<{ id: number; key: string }>();
    expect((await b.call("GET", "/api/v1/me", { key: k.key })).statusCode).toBe(200); // now cached in b
    expect((await a.call("DELETE", `/api/v1/keys/${k.id}`)).statusCode).toBe(200);
    expect((await a.call("GET", "/api/v1/me", { key: k.key })).json().code).toBe("revoked"); // at once where revoked
    const ms = await until(b, k.key, 401);
    expect((await b.call("GET", "/api/v1/me", { key: k.key })).json().code).toBe("revoked");
    expect(ms).toBeLessThan(3000);
  });

  it("refuses a blocked account's keys on the other gateway", async () => {
    const acc = await a.newAccount("cache-blocked@example.com");
    expect((await b.call("GET", "/api/v1/me", { key: acc.key })).statusCode).toBe(200);
    await a.admin.setBlocked("cache-blocked@example.com", true);
    await until(b, acc.key, 403);
    expect((await b.call("GET", "/api/v1/me", { key: acc.key })).json().code).toBe("blocked");
  });

  it("stops trusting its cache while its notification connection is down", async () => {
    const acc = await a.newAccount("cache-listen@example.com");
    expect((await b.call("GET", "/api/v1/me", { key: acc.key })).statusCode).toBe(200);
    // Cut every listening connection (a real fault): notifications may be lost from now on.
    await a.db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'svc-listen'");
    await sleep(100);
    // A change that announces nothing must still be seen, since the caches were dropped.
    await a.db.query("UPDATE api_keys SET revoked_at = 1 WHERE account_id = $1", [acc.accountId]);
    expect((await b.call("GET", "/api/v1/me", { key: acc.key })).json().code).toBe("revoked");
    // The subscription comes back by itself; notifications work again.
    await sleep(1500);
    const other = await a.newAccount("cache-after@example.com");
    expect((await b.call("GET", "/api/v1/me", { key: other.key })).statusCode).toBe(200);
    await a.admin.setBlocked("cache-after@example.com", true);
    await until(b, other.key, 403);
  });
});
