import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Q5: U+0000 in a free-text field reached PostgreSQL, which refuses it in text: 500 server,
// retryable, so contract clients retried it five times. Now 400 bad_param naming the field.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
  expect((await gw.call("POST", "/api/v1/sites", { body: { host: "example.com" } })).statusCode).toBe(201);
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

describe("Q5: U+0000 in a field is 400 bad_param naming it, never 500", () => {
  it.each([
    ["GET", "/api/v1/overview?q=a%00", undefined, "q", 'query field "q" contains U+0000 (NUL), which no text may hold'],
    ["POST", "/api/v1/keys", { name: "a\u0000b", scopes: ["read"] }, "name", 'body field "name" contains U+0000 (NUL), which no text may hold'],
    ["POST", "/api/v1/webhooks", { url: "https://hooks.example.com/x", name: "a\u0000b" }, "name", 'body field "name" contains U+0000 (NUL), which no text may hold'],
    ["POST", "/api/v1/work/example.com/notes", { text: "a\u0000b" }, "text", 'body field "text" contains U+0000 (NUL), which no text may hold'],
    ["PATCH", "/api/v1/sites/example.com", { project: "p\u0000q" }, "project", 'body field "project" contains U+0000 (NUL), which no text may hold'],
    ["POST", "/api/v1/webhooks", { url: "https://hooks.example.com/x", hosts: ["example.com", "a\u0000.com"] }, "hosts.1", 'body field "hosts.1" contains U+0000 (NUL), which no text may hold'],
  ] as const)("%s %s", async (method, url, body, param, error) => {
    const res = await gw.call(method, url, body ? { body } : {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_param", param, error, retryable: false });
  });

  it("the OAuth endpoints refuse it in their own error shape", async () => {
    const register = await gw.app.inject({ method: "POST", url: "/api/v1/oauth/register", payload: { client_name: "a\u0000b", redirect_uris: ["http://127.0.0.1:7777/cb"] } });
    expect([register.statusCode, register.json()]).toEqual([400, { error: "invalid_client_metadata", error_description: "client_name contains U+0000 (NUL), which no value may hold" }]);
    const uri = await gw.app.inject({ method: "POST", url: "/api/v1/oauth/register", payload: { redirect_uris: ["http://127.0.0.1:7777/c\u0000b"] } });
    expect([uri.statusCode, uri.json()]).toEqual([400, { error: "invalid_client_metadata", error_description: "redirect_uris.0 contains U+0000 (NUL), which no value may hold" }]);
    const token = await gw.app.inject({ method: "POST", url: "/api/v1/oauth/token", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "grant_type=refresh_token&refresh_token=x&client_id=a%00b" });
    expect([token.statusCode, token.json()]).toEqual([400, { error: "invalid_request", error_description: "client_id contains U+0000 (NUL), which no value may hold" }]);
    const consent = await gw.app.inject({ method: "GET", url: "/api/v1/oauth/authorize?client_id=a%00b&redirect_uri=x" });
    expect(consent.statusCode).toBe(400);
  });
});
