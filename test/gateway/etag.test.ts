import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
  await gw.call("POST", "/api/v1/sites", { body: { host: "etag.example.com" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

describe("ETag and If-None-Match", () => {
  it("puts a weak ETag on GET answers and answers 304 with no body for an unchanged resource", async () => {
    const first = await gw.call("GET", "/api/v1/sites");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const again = await gw.call("GET", "/api/v1/sites", { headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["x-request-id"]).toBeTruthy();
    expect(again.headers["x-api-version"]).toBe("1.3");
    expect(again.headers["x-ratelimit-limit"]).toBe("120");
  });

  it("does not count a 304 against the hourly limit", async () => {
    const first = await gw.call("GET", "/api/v1/sites");
    const before = Number(first.headers["x-ratelimit-remaining"]);
    const cached = await gw.call("GET", "/api/v1/sites", { headers: { "if-none-match": first.headers.etag as string } });
    expect(cached.statusCode).toBe(304);
    expect(Number(cached.headers["x-ratelimit-remaining"])).toBe(before);
    const next = await gw.call("GET", "/api/v1/sites");
    expect(Number(next.headers["x-ratelimit-remaining"])).toBe(before - 1);
  });

  it("matches any tag of a list, weak or strong, and *", async () => {
    const etag = (await gw.call("GET", "/api/v1/sites")).headers.etag as string;
    const strong = etag.replace(/^W\//, "");
    expect((await gw.call("GET", "/api/v1/sites", { headers: { "if-none-match": `"nope", ${strong}` } })).statusCode).toBe(304);
    expect((await gw.call("GET", "/api/v1/sites", { headers: { "if-none-match": "*" } })).statusCode).toBe(304);
    expect((await gw.call("GET", "/api/v1/sites", { headers: { "if-none-match": 'W/"other"' } })).statusCode).toBe(200);
  });

  it("changes the ETag when the data changes", async () => {
    const before = (await gw.call("GET", "/api/v1/sites")).headers.etag as string;
    await gw.call("POST", "/api/v1/sites", { body: { host: "etag2.example.com" } });
    const res = await gw.call("GET", "/api/v1/sites", { headers: { "if-none-match": before } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(before);
  });

  it("gives another account a different validator for the same bytes", async () => {
    const a = await gw.newAccount("etag-a@example.com");
    const b = await gw.newAccount("etag-b@example.com");
    const ea = (await gw.call("GET", "/api/v1/sites", { key: a.key })).headers.etag as string;
    const eb = (await gw.call("GET", "/api/v1/sites", { key: b.key })).headers.etag as string;
    expect((await gw.call("GET", "/api/v1/sites", { key: a.key })).body).toBe((await gw.call("GET", "/api/v1/sites", { key: b.key })).body);
    expect(ea).not.toBe(eb);
    expect((await gw.call("GET", "/api/v1/sites", { key: b.key, headers: { "if-none-match": ea } })).statusCode).toBe(200);
  });

  it("ignores If-None-Match on writes and never tags errors", async () => {
    const write = await gw.call("POST", "/api/v1/sites", { body: { host: "etag3.example.com" }, headers: { "if-none-match": "*" } });
    expect(write.statusCode).toBe(201);
    expect(write.headers.etag).toBeUndefined();
    const error = await gw.call("GET", "/api/v1/usage?days=500");
    expect(error.statusCode).toBe(400);
    expect(error.headers.etag).toBeUndefined();
  });
});
