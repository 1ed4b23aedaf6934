import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { oauthClient } from "../harness/oauth-flow.ts";

// Q1: the OAuth consent turned any API key into an unrestricted, self-renewing grant that revoking
// the key did not end. A grant is never stronger than the key that signed it.

let gw: TestGateway;
let base: string;
let oauth: ReturnType<typeof oauthClient>;
beforeAll(async () => {
  gw = await startTestGateway();
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`;
  oauth = oauthClient(base);
});
afterAll(() => gw.close());

interface Me {
  key: { id: number; allowed_ips: string[]; expires: number | null; scopes: string[] };
  rate: { limit_per_hour: number };
}

const get = (path: string, token: string) => fetch(base + path, { headers: { authorization: `Bearer ${token}` } });

async function ownerKey(body: Record<string, unknown>, key = gw.ownerKey): Promise<{ id: number; key: string; expires: number | null }> {
  const res = await gw.call("POST", "/api/v1/keys", { key, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Signs in with apiKey and exchanges the code: the first tokens. */
async function grantFor(apiKey: string, scopes = ["read", "write"]) {
  const clientId = await oauth.register();
  const c = await oauth.consent(clientId, apiKey, scopes);
  expect(c.status, c.page).toBe(302);
  const t = await oauth.exchange(clientId, c.code!, c.verifier);
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  return { clientId, ...t.body };
}

describe("Q1: an OAuth grant is never stronger than the key that consented", () => {
  it("refuses the sign-in from an address outside the key's allowed list", async () => {
    const weak = await ownerKey({ name: "weak", scopes: ["read", "write"], expires_in: "30d", allowed_ips: ["10.0.0.0/8"], rate_limit_per_hour: 5 });
    const c = await oauth.consent(await oauth.register(), weak.key);
    expect(c.status).toBe(400);
    expect(c.code).toBeNull();
    expect(c.page).toContain("That key may not be used from your address (127.0.0.1).");
  });

  it("refuses the sign-in of a key whose hour is spent", async () => {
    const spent = await ownerKey({ name: "spent", scopes: ["read"], rate_limit_per_hour: 1 });
    expect((await get("/api/v1/me", spent.key)).status).toBe(200);
    expect((await get("/api/v1/me", spent.key)).status).toBe(429);
    const c = await oauth.consent(await oauth.register(), spent.key, ["read"]);
    expect(c.status).toBe(400);
    expect(c.page).toContain("That key&#39;s hourly limit is reached");
  });

  it("gives the tokens the key's addresses, hourly limit and expiry, and one hour shared across refreshes", async () => {
    const weak = await ownerKey({ name: "weak-local", scopes: ["read", "write"], expires_in: "30d", allowed_ips: ["127.0.0.0/8"], rate_limit_per_hour: 5 });
    const g = await grantFor(weak.key);
    const me = (await (await get("/api/v1/me", g.access_token)).json()) as Me;
    expect(me.key.allowed_ips).toEqual(["127.0.0.0/8"]);
    expect(me.rate.limit_per_hour).toBe(5);
    expect(g.expires_in).toBe(3600);
    // Four more calls spend the grant's hour (five in all); a refresh does not buy a fresh one.
    for (let i = 0; i < 4; i++) expect((await get("/api/v1/me", g.access_token)).status).toBe(200);
    expect((await get("/api/v1/me", g.access_token)).status).toBe(429);
    const renewed = await oauth.refresh(g.clientId, g.refresh_token);
    expect(renewed.status).toBe(200);
    const limited = await get("/api/v1/me", renewed.body.access_token);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { code: string }).code).toBe("limit");
    // Close to the key's expiry, the access token lives no longer than the key; the refresh token neither.
    gw.clock.advance((weak.expires! - Math.floor(gw.clock.nowMs() / 1000) - 600) * 1000);
    const late = await oauth.refresh(g.clientId, renewed.body.refresh_token);
    expect(late.status).toBe(200);
    expect(late.body.expires_in).toBe(600);
    gw.clock.advance(601_000);
    const after = await oauth.refresh(g.clientId, late.body.refresh_token);
    expect(after.status).toBe(400);
    expect(after.body).toEqual({ error: "invalid_grant", error_description: "the code or token has expired" });
  });

  it("ends the grant when the key is revoked, and a refresh revokes the token it replaces", async () => {
    const key = await ownerKey({ name: "consenting", scopes: ["read", "write"] });
    const g = await grantFor(key.key);
    const second = await oauth.refresh(g.clientId, g.refresh_token);
    expect(second.status).toBe(200);
    const old = await get("/api/v1/me", g.access_token);
    expect(old.status).toBe(401);
    expect(((await old.json()) as { code: string }).code).toBe("revoked");
    expect((await get("/api/v1/me", second.body.access_token)).status).toBe(200);

    expect((await gw.call("DELETE", `/api/v1/keys/${key.id}`)).statusCode).toBe(200);
    expect((await get("/api/v1/me", second.body.access_token)).status).toBe(401);
    const refresh = await oauth.refresh(g.clientId, second.body.refresh_token);
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("lists each grant once in GET /keys, and the owner ends it with DELETE /keys/{id}", async () => {
    const key = await ownerKey({ name: "lister", scopes: ["read"] });
    const g = await grantFor(key.key, ["read"]);
    let current = g;
    for (let i = 0; i < 3; i++) current = { ...current, ...(await oauth.refresh(g.clientId, current.refresh_token)).body };
    const keys = (await gw.call("GET", "/api/v1/keys?limit=200")).json<{ keys: { id: number; kind: string; revoked: number | null; oauth: { client_id: string; signed_by_key: number } | null }[] }>().keys;
    const ofGrant = keys.filter((k) => k.oauth?.client_id === g.clientId);
    expect(ofGrant).toHaveLength(1);
    expect(ofGrant[0]).toMatchObject({ kind: "oauth", revoked: null, oauth: { client_id: g.clientId, client_name: "Hostile Agent", signed_by_key: key.id } });
    expect((await gw.call("DELETE", `/api/v1/keys/${ofGrant[0]!.id}`)).statusCode).toBe(200);
    expect((await get("/api/v1/me", current.access_token)).status).toBe(401);
    expect((await oauth.refresh(g.clientId, current.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("counts grants against the plan's number of keys", async () => {
    const acct = await gw.newAccount("grants-plan@example.com", ["read", "write"]);
    const { plan } = (await gw.call("GET", "/api/v1/me", { key: acct.key })).json<{ plan: { api_keys: number } }>();
    for (let i = 1; i < plan.api_keys; i++) await ownerKey({ name: `k${i}`, scopes: ["read"] }, acct.key);
    const clientId = await oauth.register();
    const c = await oauth.consent(clientId, acct.key, ["read"]);
    const t = await oauth.exchange(clientId, c.code!, c.verifier);
    expect(t.status).toBe(400);
    expect(t.body).toEqual({ error: "invalid_grant", error_description: "your plan's number of API keys is reached (an application's access counts as a key); revoke one first" });
  });
});
