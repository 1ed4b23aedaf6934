import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_PLAN_SITES: "6" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const hosts = async (key?: string) => ((await gw.call("GET", "/api/v1/sites", key ? { key } : {})).json().sites as { host: string }[]).map((s) => s.host);

describe("POST /sites", () => {
  it("adds a site normalised to its host, with the default interval of 24 hours", async () => {
    const res = await gw.call("POST", "/api/v1/sites", { body: { host: "https://WWW.Example.COM/some/page" } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ host: "www.example.com", added: true, interval_h: 24 });
    const again = await gw.call("POST", "/api/v1/sites", { body: { host: "www.example.com", interval: 6 } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ host: "www.example.com", added: false, interval_h: 24 });
  });

  it("keeps an explicit non-default port and converts IDN to punycode", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: "shop.example.com:8443", interval: 1 } })).json()).toEqual({ host: "shop.example.com:8443", added: true, interval_h: 1 });
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: "Пример.рф" } })).json().host).toBe("xn--e1afmkfd.xn--p1ai");
  });

  it("refuses .test names and private addresses unless private targets are allowed", async () => {
    for (const host of ["shop-a.test", "127.0.0.2", "[::1]:8080", "192.168.1.1"]) {
      const res = await gw.call("POST", "/api/v1/sites", { body: { host } });
      expect(res.statusCode, host).toBe(400);
      expect(res.json().code).toBe("bad_host");
    }
    const open = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1" } });
    try {
      expect((await open.call("POST", "/api/v1/sites", { body: { host: "Shop-A.test" } })).json()).toEqual({ host: "shop-a.test", added: true, interval_h: 24 });
      expect((await open.call("POST", "/api/v1/sites", { body: { host: "127.0.0.2:8080" } })).json().host).toBe("127.0.0.2:8080");
    } finally {
      await open.close();
    }
  });

  it("answers 429 limit once the plan's number of sites is reached", async () => {
    const acc = await gw.newAccount("full@example.com");
    for (let i = 0; i < 6; i++) expect((await gw.call("POST", "/api/v1/sites", { key: acc.key, body: { host: `s${i}.example.org` } })).statusCode).toBe(201);
    const over = await gw.call("POST", "/api/v1/sites", { key: acc.key, body: { host: "s6.example.org" } });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: "limit", details: { policy: "sites", max: 6 } });
    expect(over.headers["retry-after"]).toBeDefined();
    // Re-adding a site already there is not a new site.
    expect((await gw.call("POST", "/api/v1/sites", { key: acc.key, body: { host: "s0.example.org" } })).statusCode).toBe(200);
    expect(await hosts(acc.key)).toHaveLength(6);
  });
});

describe("GET /sites", () => {
  it("lists the caller's sites only, by host, with null ranks before the first check", async () => {
    const acc = await gw.newAccount("lister@example.com");
    for (const h of ["b.example.net", "a.example.net", "c.example.net"]) await gw.call("POST", "/api/v1/sites", { key: acc.key, body: { host: h, interval: 12 } });
    const res = await gw.call("GET", "/api/v1/sites?limit=2", { key: acc.key });
    expect(res.json()).toEqual({
      sites: [
        { host: "a.example.net", added: Math.floor(gw.clock.nowMs() / 1000), interval_h: 12, rank: null, prev_rank: null, label: null, last_run: null, importance: "normal", project: null },
        { host: "b.example.net", added: Math.floor(gw.clock.nowMs() / 1000), interval_h: 12, rank: null, prev_rank: null, label: null, last_run: null, importance: "normal", project: null },
      ],
      page: { limit: 2, offset: 0, total: 3, next_offset: 2 },
    });
    const last = await gw.call("GET", "/api/v1/sites?limit=2&offset=2", { key: acc.key });
    expect(last.json().page).toEqual({ limit: 2, offset: 2, total: 3, next_offset: null });
    expect(await hosts()).not.toContain("a.example.net");
  });
});

describe("DELETE /sites/{host}", () => {
  it("removes a site, and says removed false when it was not there", async () => {
    await gw.call("POST", "/api/v1/sites", { body: { host: "gone.example.com" } });
    expect((await gw.call("DELETE", "/api/v1/sites/Gone.Example.com")).json()).toEqual({ host: "gone.example.com", removed: true });
    expect((await gw.call("DELETE", "/api/v1/sites/gone.example.com")).json()).toEqual({ host: "gone.example.com", removed: false });
    expect(await hosts()).not.toContain("gone.example.com");
  });

  it("cannot remove another account's site", async () => {
    const acc = await gw.newAccount("keeper@example.com");
    await gw.call("POST", "/api/v1/sites", { key: acc.key, body: { host: "mine.example.com" } });
    expect((await gw.call("DELETE", "/api/v1/sites/mine.example.com")).json().removed).toBe(false);
    expect(await hosts(acc.key)).toEqual(["mine.example.com"]);
  });
});

describe("PATCH /sites/{host} and GET /overview", () => {
  it("sets interval, importance and project; the overview filters and sorts by them", async () => {
    const acc = await gw.newAccount("overview@example.com");
    for (const h of ["alpha.example.com", "beta.example.com", "gamma.example.com"]) await gw.call("POST", "/api/v1/sites", { key: acc.key, body: { host: h } });
    const patched = await gw.call("PATCH", "/api/v1/sites/beta.example.com", { key: acc.key, body: { interval: 6, importance: "critical", project: "Shops" } });
    expect(patched.json()).toEqual({ host: "beta.example.com", interval_h: 6, importance: "critical", project: "Shops", project_id: expect.any(Number) });
    const projectId = patched.json().project_id as number;
    await gw.call("PATCH", "/api/v1/sites/gamma.example.com", { key: acc.key, body: { project: "Shops" } });

    const all = await gw.call("GET", "/api/v1/overview", { key: acc.key });
    expect(all.json().summary).toEqual({ n: 3, rated: 0, avg: null, best: null, worst: null, crit: 0, open: 0, falling: 0, down: 0, stale: 0, never: 3 });
    expect(all.json().sites[1]).toEqual({
      host: "beta.example.com",
      project: "Shops",
      project_id: projectId,
      importance: "critical",
      rank: null,
      rank_delta: null,
      rank_band: null,
      critical_tasks: 0,
      open_tasks: 0,
      potential_gain: 0,
      online: null,
      last_check: null,
      never_checked: true,
      stale: false,
      falling: false,
      interval_h: 6,
      crawl: false,
      profile: null,
      rank_without_exclusions: null,
    });
    const names = async (q: string) => ((await gw.call("GET", `/api/v1/overview?${q}`, { key: acc.key })).json().sites as { host: string }[]).map((s) => s.host);
    expect(await names(`project=${projectId}`)).toEqual(["beta.example.com", "gamma.example.com"]);
    expect(await names("q=shops")).toEqual(["beta.example.com", "gamma.example.com"]);
    expect(await names("q=ALPHA")).toEqual(["alpha.example.com"]);
    expect(await names("importance=critical")).toEqual(["beta.example.com"]);
    expect(await names("sort=name&dir=desc")).toEqual(["gamma.example.com", "beta.example.com", "alpha.example.com"]);
    expect(await names("state=never")).toEqual(["alpha.example.com", "beta.example.com", "gamma.example.com"]);
    expect(await names("state=falling")).toEqual([]);
    expect(await names("rmax=50")).toEqual([]);
    const paged = await gw.call("GET", "/api/v1/overview?limit=1&offset=1", { key: acc.key });
    expect(paged.json().page).toEqual({ limit: 1, offset: 1, total: 3, next_offset: 2 });

    const detached = await gw.call("PATCH", "/api/v1/sites/beta.example.com", { key: acc.key, body: { project: null } });
    expect(detached.json()).toMatchObject({ project: null, project_id: null });
  });

  it("answers not_found for a site the caller does not monitor, and bad_param for an empty change", async () => {
    expect((await gw.call("PATCH", "/api/v1/sites/nobody.example.com", { body: { interval: 2 } })).json().code).toBe("not_found");
    await gw.call("POST", "/api/v1/sites", { body: { host: "empty.example.com" } });
    expect((await gw.call("PATCH", "/api/v1/sites/empty.example.com", { body: {} })).json().code).toBe("bad_param");
    expect((await gw.call("PATCH", "/api/v1/sites/empty.example.com", { body: { importance: "huge" } })).json()).toMatchObject({ code: "bad_param", param: "importance" });
  });
});
