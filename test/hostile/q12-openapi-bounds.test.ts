import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Q12 (P1's fix): the server refuses ids and integer query values above 2^53 − 1 with 400
// bad_param, but the OpenAPI document published only minimum: 1, so a schema-driven client sent
// values it thought valid. The document now states the bound the server enforces.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

type Doc = { paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: { maximum?: number; minimum?: number } }[] }>> };

describe("Q12: the OpenAPI document states the integer bounds the server enforces", () => {
  it.each([
    ["/webhooks/{id}/deliveries", "get", "id"],
    ["/jobs/{id}", "get", "id"],
    ["/keys/{id}", "delete", "id"],
    ["/overview", "get", "project"],
    ["/changes/{host}", "get", "from"],
  ])("%s %s: %s", async (path, method, name) => {
    const doc = (await gw.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json<Doc>();
    const param = doc.paths[path]?.[method]?.parameters?.find((p) => p.name === name);
    expect(param?.schema.maximum).toBe(Number.MAX_SAFE_INTEGER);
    // And the server answers one past it as the document now says: out of range.
    const url = `/api/v1${path.replace("{id}", String(Number.MAX_SAFE_INTEGER + 1)).replace("{host}", "example.com")}${param?.in === "query" ? `?${name}=9007199254740992` : ""}`;
    const res = await gw.call(method.toUpperCase(), url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_param", param: name });
  });
});
