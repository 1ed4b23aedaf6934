import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// OAuth 2.1 for the tool server, end to end with a real HTTP client against a listening gateway:
// discovery, registration, consent, code with PKCE, tokens, refresh rotation, revocation, and
// every refusal.

let gw: TestGateway;
let base: string;
beforeAll(async () => {
  gw = await startTestGateway();
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  const addr = gw.app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(() => gw.close());

const REDIRECT = "http://127.0.0.1:7777/callback";

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function form(path: string, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) body.append(k, item);
  return fetch(base + path, { method: "POST", body, redirect: "manual" });
}

async function register(redirectUris = [REDIRECT]) {
  const res = await fetch(`${base}/api/v1/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Test Agent", redirect_uris: redirectUris }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeParams(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "st-1", resource: `${base}/api/v1/mcp`, scope: "read write", ...extra };
}

/** The owner consents on the page; returns the redirect the browser would follow. */
async function consent(clientId: string, challenge: string, scopes = ["read", "write"], key = gw.ownerKey): Promise<URL> {
  const res = await form("/api/v1/oauth/authorize", { ...authorizeParams(clientId, challenge), scope: scopes, api_key: key, decision: "allow" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!);
}

async function token(fields: Record<string, string>) {
  const res = await form("/api/v1/oauth/token", fields);
  return { status: res.status, body: (await res.json()) as TokenBody, headers: res.headers };
}

async function codeFor(clientId: string) {
  const p = pkce();
  const code = (await consent(clientId, p.challenge)).searchParams.get("code")!;
  return { ...p, code };
}

interface TokenBody {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly scope: string;
  readonly error?: string;
  readonly error_description?: string;
}

const me = (accessToken: string) => fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } });

describe("OAuth 2.1 for the tool server", () => {
  it("publishes the metadata documents where RFC 9728 and RFC 8414 put them", async () => {
    const prm = await fetch(`${base}/.well-known/oauth-protected-resource/api/v1/mcp`);
    expect(prm.status).toBe(200);
    expect(prm.headers.get("access-control-allow-origin")).toBe("*");
    expect(await prm.json()).toMatchObject({ resource: `${base}/api/v1/mcp`, authorization_servers: [`${base}/api/v1`], scopes_supported: ["read", "run", "write"], bearer_methods_supported: ["header"] });
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server/api/v1`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: `${base}/api/v1`,
      authorization_endpoint: `${base}/api/v1/oauth/authorize`,
      token_endpoint: `${base}/api/v1/oauth/token`,
      registration_endpoint: `${base}/api/v1/oauth/register`,
      revocation_endpoint: `${base}/api/v1/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["none"],
    });
    // The spec's own wording (relative to /api/v1) answers the same documents.
    expect(await (await fetch(`${base}/api/v1/.well-known/oauth-authorization-server`)).json()).toEqual(as);
    // The tool server's 401 points at the first document.
    const unauth = await fetch(`${base}/api/v1/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get("www-authenticate")).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/api/v1/mcp"`);
  });

  it("runs the whole flow: register, consent, code with PKCE, an access token usable in REST and MCP, refresh rotation, revocation", async () => {
    const clientId = await register();
    const p = pkce();
    const page = await fetch(`${base}/api/v1/oauth/authorize?${String(new URLSearchParams(authorizeParams(clientId, p.challenge)))}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("Test Agent");
    expect(html).toContain("127.0.0.1:7777");
    expect(html).toContain('name="api_key"');

    const back = await consent(clientId, p.challenge);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("iss")).toBe(`${base}/api/v1`);
    const code = back.searchParams.get("code")!;

    const first = await token({ grant_type: "authorization_code", code, code_verifier: p.verifier, client_id: clientId, redirect_uri: REDIRECT, resource: `${base}/api/v1/mcp` });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read write" });
    expect(first.body.access_token).toMatch(/^svc_[0-9A-Za-z]{40}$/);

    // An ordinary key: the REST API takes it, with the chosen scopes only.
    const who = await me(first.body.access_token);
    expect(who.status).toBe(200);
    expect(((await who.json()) as { key: { scopes: string[] } }).key.scopes).toEqual(["read", "write"]);
    const run = await fetch(`${base}/api/v1/analyze`, { method: "POST", headers: { authorization: `Bearer ${first.body.access_token}`, "content-type": "application/json" }, body: JSON.stringify({ host: "example.com" }) });
    expect(run.status).toBe(403);
    // The tool server lists what it allows; a tool beyond it asks for the missing scope (step-up).
    const mcp = (body: unknown) => fetch(`${base}/api/v1/mcp`, { method: "POST", headers: { authorization: `Bearer ${first.body.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(body) });
    const tools = ((await (await mcp({ jsonrpc: "2.0", id: 1, method: "tools/list" })).json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(tools).toContain("add_site");
    expect(tools).not.toContain("start_analysis");
    const stepUp = await mcp({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "start_analysis", arguments: { host: "example.com" } } });
    expect(stepUp.status).toBe(403);
    expect(stepUp.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="read write run", resource_metadata=/);

    // Refresh rotates: a new pair; the old refresh token is spent.
    const second = await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: clientId });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await me(second.body.access_token)).status).toBe(200);

    // RFC 7009: revoking the refresh token ends the grant and its access tokens; unknown tokens are 200 too.
    expect((await form("/api/v1/oauth/revoke", { token: second.body.refresh_token, client_id: clientId })).status).toBe(200);
    expect((await me(second.body.access_token)).status).toBe(401);
    expect((await me(first.body.access_token)).status).toBe(401);
    expect((await form("/api/v1/oauth/revoke", { token: "nothing-like-a-token" })).status).toBe(200);
  });

  it("refuses a wrong verifier, and the code is spent by the attempt", async () => {
    const clientId = await register();
    const c = await codeFor(clientId);
    const wrong = await token({ grant_type: "authorization_code", code: c.code, code_verifier: pkce().verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: "invalid_grant", error_description: "code_verifier does not match the code_challenge" });
    const retry = await token({ grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(retry.body.error).toBe("invalid_grant");
    const noVerifier = await token({ grant_type: "authorization_code", code: (await codeFor(clientId)).code, client_id: clientId });
    expect(noVerifier.body.error).toBe("invalid_request");
  });

  it("refuses a reused code and revokes the tokens the first use produced", async () => {
    const clientId = await register();
    const c = await codeFor(clientId);
    const fields = { grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: clientId, redirect_uri: REDIRECT };
    const first = await token(fields);
    expect(first.status).toBe(200);
    expect((await me(first.body.access_token)).status).toBe(200);
    const again = await token(fields);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await me(first.body.access_token)).status).toBe(401);
    expect((await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: clientId })).body.error).toBe("invalid_grant");
  });

  it("revokes the whole grant when a spent refresh token comes back", async () => {
    const clientId = await register();
    const c = await codeFor(clientId);
    const first = await token({ grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: clientId, redirect_uri: REDIRECT });
    const second = await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: clientId });
    const stolen = await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: clientId });
    expect(stolen.body.error).toBe("invalid_grant");
    expect((await me(second.body.access_token)).status).toBe(401);
  });

  it("never sends anything to a foreign redirect URI, and refuses a redirect URI that differs at the token endpoint", async () => {
    const clientId = await register();
    const p = pkce();
    for (const uri of ["https://attacker.example/cb", "http://127.0.0.1:7777/other", `${REDIRECT}?x=1`]) {
      const res = await fetch(`${base}/api/v1/oauth/authorize?${String(new URLSearchParams(authorizeParams(clientId, p.challenge, { redirect_uri: uri })))}`, { redirect: "manual" });
      expect(res.status, uri).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("redirect_uri");
    }
    // A loopback redirect URI matches with any port (RFC 8252 §7.3).
    const otherPort = await fetch(`${base}/api/v1/oauth/authorize?${String(new URLSearchParams(authorizeParams(clientId, p.challenge, { redirect_uri: "http://127.0.0.1:45678/callback" })))}`);
    expect(otherPort.status).toBe(200);
    const c = await codeFor(clientId);
    const mismatch = await token({ grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: clientId, redirect_uri: "http://127.0.0.1:7777/elsewhere" });
    expect(mismatch.body.error).toBe("invalid_grant");
    // Registration refuses plain http off loopback and fragments.
    for (const uri of ["http://app.example/cb", "https://app.example/cb#frag"]) {
      const res = await fetch(`${base}/api/v1/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [uri] }) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_redirect_uri");
    }
  });

  it("sends request errors to the client's redirect URI once it is known: no PKCE, plain PKCE, another resource, deny", async () => {
    const clientId = await register();
    const p = pkce();
    const errorOf = async (extra: Record<string, string>, omit: string[] = []) => {
      const params = new URLSearchParams(authorizeParams(clientId, p.challenge, extra));
      for (const name of omit) params.delete(name);
      const res = await fetch(`${base}/api/v1/oauth/authorize?${params.toString()}`, { redirect: "manual" });
      expect(res.status).toBe(302);
      const loc = new URL(res.headers.get("location")!);
      expect(loc.searchParams.get("state")).toBe("st-1");
      return loc.searchParams.get("error");
    };
    expect(await errorOf({}, ["code_challenge"])).toBe("invalid_request");
    expect(await errorOf({ code_challenge_method: "plain" })).toBe("invalid_request");
    expect(await errorOf({ resource: "https://other.example/mcp" })).toBe("invalid_target");
    expect(await errorOf({ scope: "admin" })).toBe("invalid_scope");
    expect(await errorOf({ response_type: "token" })).toBe("unsupported_response_type");
    const denied = await form("/api/v1/oauth/authorize", { ...authorizeParams(clientId, p.challenge), decision: "deny" });
    expect(new URL(denied.headers.get("location")!).searchParams.get("error")).toBe("access_denied");
    // A wrong key on the consent page is another try on the page, and never grants more than the key holds.
    const wrongKey = await form("/api/v1/oauth/authorize", { ...authorizeParams(clientId, p.challenge), api_key: "svc_nope", decision: "allow" });
    expect(wrongKey.status).toBe(400);
    const reader = await gw.newAccount("oauth-reader@example.com", ["read"]);
    const narrowed = (await consent(clientId, p.challenge, ["read", "write"], reader.key)).searchParams.get("code")!;
    const t = await token({ grant_type: "authorization_code", code: narrowed, code_verifier: p.verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(t.body.scope).toBe("read");
  });

  it("expires codes after 60 s and access tokens after SVC_OAUTH_ACCESS_TTL_S", async () => {
    const clientId = await register();
    const late = await codeFor(clientId);
    gw.clock.advance(61_000);
    expect((await token({ grant_type: "authorization_code", code: late.code, code_verifier: late.verifier, client_id: clientId, redirect_uri: REDIRECT })).body.error).toBe("invalid_grant");
    const c = await codeFor(clientId);
    const t = await token({ grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect((await me(t.body.access_token)).status).toBe(200);
    gw.clock.advance(3600_000);
    const expired = await me(t.body.access_token);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { code: string }).code).toBe("expired");
    // The refresh token still renews it.
    const renewed = await token({ grant_type: "refresh_token", refresh_token: t.body.refresh_token, client_id: clientId });
    expect((await me(renewed.body.access_token)).status).toBe(200);
  });

  it("refuses unknown clients and grant types", async () => {
    expect((await token({ grant_type: "authorization_code", code: "x", code_verifier: pkce().verifier, client_id: "nobody" })).status).toBe(401);
    const clientId = await register();
    expect((await token({ grant_type: "client_credentials", client_id: clientId })).body.error).toBe("unsupported_grant_type");
    const page = await fetch(`${base}/api/v1/oauth/authorize?${String(new URLSearchParams(authorizeParams("nobody", pkce().challenge)))}`, { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
  });
});
