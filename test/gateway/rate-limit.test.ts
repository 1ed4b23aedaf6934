import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_ADDRESS_RATE_PER_HOUR: "5", SVC_TRUSTED_PROXIES: "10.9.9.9" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

// The tests' clock starts at 10:00:00 UTC: a full hour remains in the window.
const HOUR_LEFT = 3600;

describe("the hourly limit per key", () => {
  it("reports limit, remaining and reset on every keyed answer, errors included", async () => {
    const { key } = await gw.newAccount("counting@example.com");
    const first = await gw.call("GET", "/api/v1/me", { key });
    expect(first.headers["x-ratelimit-limit"]).toBe("120");
    expect(first.headers["x-ratelimit-remaining"]).toBe("119");
    expect(first.headers["x-ratelimit-reset"]).toBe(String(HOUR_LEFT));
    expect(first.headers["ratelimit-policy"]).toBe('"hour";q=120;w=3600');
    expect(first.headers["ratelimit"]).toBe(`"hour";r=119;t=${HOUR_LEFT}`);
    expect(first.json().rate).toMatchObject({ limit_per_hour: 120, used_this_hour: 1 });
    const bad = await gw.call("GET", "/api/v1/usage?days=0", { key });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers["x-ratelimit-remaining"]).toBe("118");
  });

  it("answers 429 limit with Retry-After once a key's own limit is used up, and counts no further", async () => {
    const created = await gw.call("POST", "/api/v1/keys", { body: { name: "three an hour", scopes: ["read"], rate_limit_per_hour: 3 } });
    const key = created.json().key as string;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await gw.call("GET", "/api/v1/sites", { key })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const over = await gw.call("GET", "/api/v1/sites", { key });
    expect(over.json()).toMatchObject({ code: "limit", retryable: true, retry_after: HOUR_LEFT });
    expect(over.headers["retry-after"]).toBe(String(HOUR_LEFT));
    expect(over.headers["x-ratelimit-limit"]).toBe("3");
    expect(over.headers["x-ratelimit-remaining"]).toBe("0");
    const [row] = await gw.db.query<{ n: number }>("SELECT n FROM rate_counters WHERE subject = $1", [`k:${created.json().id}`]);
    expect(row?.n).toBe(3);
  });

  it("starts a new window at the next clock hour", async () => {
    const created = await gw.call("POST", "/api/v1/keys", { body: { name: "one an hour", scopes: ["read"], rate_limit_per_hour: 1 } });
    const key = created.json().key as string;
    expect((await gw.call("GET", "/api/v1/me", { key })).statusCode).toBe(200);
    expect((await gw.call("GET", "/api/v1/me", { key })).statusCode).toBe(429);
    gw.clock.advance(3_600_000);
    try {
      const next = await gw.call("GET", "/api/v1/me", { key });
      expect(next.statusCode).toBe(200);
      expect(next.headers["x-ratelimit-remaining"]).toBe("0");
    } finally {
      gw.clock.advance(-3_600_000);
    }
  });
});

describe("the per-address limit of keyless routes and failed authentication", () => {
  it("counts keyless calls and 401 answers per client address, then answers 429", async () => {
    const addr = "198.51.100.77";
    const seen: [number, string | undefined][] = [];
    for (const req of [
      { url: "/api/v1/capabilities", key: null },
      { url: "/api/v1/me", key: null },
      { url: "/api/v1/me", key: "svc_wrong" },
      { url: "/api/v1/openapi.json", key: null },
      { url: "/api/v1/capabilities", key: null },
      { url: "/api/v1/capabilities", key: null },
      { url: "/api/v1/me", key: "svc_wrong" },
    ]) {
      const res = await gw.call("GET", req.url, { key: req.key, remoteAddress: addr });
      seen.push([res.statusCode, res.headers["x-ratelimit-remaining"] as string | undefined]);
    }
    expect(seen).toEqual([
      [200, "4"],
      [401, "3"],
      [401, "2"],
      [200, "1"],
      [200, "0"],
      [429, "0"],
      [429, "0"],
    ]);
    // A valid key is not held back by its address's keyless count.
    expect((await gw.call("GET", "/api/v1/me", { remoteAddress: addr })).statusCode).toBe(200);
  });

  it("believes X-Forwarded-For only from a trusted proxy", async () => {
    const viaProxy = await gw.call("GET", "/api/v1/capabilities", { key: null, remoteAddress: "10.9.9.9", headers: { "x-forwarded-for": "203.0.113.50, 10.9.9.9" } });
    expect(viaProxy.statusCode).toBe(200);
    const rows = await gw.db.query<{ subject: string }>("SELECT subject FROM rate_counters WHERE subject LIKE 'a:%'");
    expect(rows.map((r) => r.subject)).toContain("a:203.0.113.50");
    await gw.call("GET", "/api/v1/capabilities", { key: null, remoteAddress: "192.0.2.99", headers: { "x-forwarded-for": "203.0.113.51" } });
    const after = (await gw.db.query<{ subject: string }>("SELECT subject FROM rate_counters WHERE subject LIKE 'a:%'")).map((r) => r.subject);
    expect(after).toContain("a:192.0.2.99");
    expect(after).not.toContain("a:203.0.113.51");
  });

  it("uses the forwarded address for a key's allowed_ips", async () => {
    const created = await gw.call("POST", "/api/v1/keys", { body: { name: "office", scopes: ["read"], allowed_ips: ["203.0.113.0/24"] } });
    const key = created.json().key as string;
    const ok = await gw.call("GET", "/api/v1/me", { key, remoteAddress: "10.9.9.9", headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(ok.statusCode).toBe(200);
    const spoofed = await gw.call("GET", "/api/v1/me", { key, remoteAddress: "192.0.2.1", headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(spoofed.json().code).toBe("ip");
  });
});
