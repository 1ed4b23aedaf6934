import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, inject, it } from "vitest";
import { AuthRepo, IdempotencyRepo, type ClaimOutcome, type Db, type Reservation, type Store } from "../../storage/index.ts";
import { freshDatabase } from "../harness/databases.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// The limit and idempotency guarantees under concurrency, on a Postgres server with real pools,
// then with two gateway instances on separate pools sharing one database. Deliberately racy
// repositories (read, pause, write) run through the same measurements to show they would fail.

class RacyAuthRepo extends AuthRepo {
  override async reserve(subject: string, hour: number, want: number, cap: number): Promise<Reservation | null> {
    const [row] = await this.db.query<{ n: number }>("SELECT n FROM rate_counters WHERE subject = $1 AND hour = $2", [subject, hour]);
    const seen = row?.n ?? 0;
    await sleep(20); // read, then write: the lost-update window
    if (seen >= cap) return null;
    const granted = Math.min(want, cap - seen);
    await this.db.query(
      "INSERT INTO rate_counters (subject, hour, n) VALUES ($1, $2, $3) ON CONFLICT (subject, hour) DO UPDATE SET n = $3",
      [subject, hour, seen + granted],
    );
    return { granted, n: seen + granted };
  }
}

class RacyIdempotencyRepo extends IdempotencyRepo {
  override async claim(accountId: number, key: string, fingerprint: string, now: number, lockSeconds: number, ttlSeconds: number): Promise<ClaimOutcome> {
    const db = this.db;
    const [row] = await db.query("SELECT 1 FROM idempotency_keys WHERE account_id = $1 AND key = $2", [accountId, key]);
    if (row) return super.claim(accountId, key, fingerprint, now, lockSeconds, ttlSeconds);
    await sleep(20); // check, then insert: both requests see no row
    await db.query(
      `INSERT INTO idempotency_keys (account_id, key, fingerprint, state, locked_until, created, expires_at)
       VALUES ($1, $2, $3, 'running', $4, $4, $5) ON CONFLICT (account_id, key) DO NOTHING`,
      [accountId, key, fingerprint, now + lockSeconds, now + ttlSeconds],
    );
    return { kind: "claimed" };
  }
}

const racy = (store: Store, db: Db): Store => ({ ...store, auth: new RacyAuthRepo(db), idempotency: new RacyIdempotencyRepo(db) });

const opened: TestGateway[] = [];
afterEach(async () => {
  for (const gw of opened.splice(0).reverse()) await gw.close();
});

async function gateways(count: 1 | 2, storeOverrides?: (s: Store, db: Db) => Store): Promise<TestGateway[]> {
  const url = await freshDatabase(inject("postgresUrl"));
  const first = await startTestGateway({ postgresUrl: url, poolSize: 8, env: { SVC_PLAN_API_KEYS: "1000" }, ...(storeOverrides ? { storeOverrides } : {}) });
  opened.push(first);
  const all = [first];
  if (count === 2) {
    const second = await startTestGateway({ postgresUrl: url, poolSize: 8, shareWith: first, env: { SVC_PLAN_API_KEYS: "1000" }, ...(storeOverrides ? { storeOverrides } : {}) });
    opened.push(second);
    all.push(second);
  }
  return all;
}

/** 20 concurrent GET /me with a key limited to 10 an hour, spread over the gateways. */
async function rateRace(gws: TestGateway[]): Promise<{ ok: number; limited: number; counter: number }> {
  const [first] = gws as [TestGateway];
  const created = await first.call("POST", "/api/v1/keys", { body: { name: "ten", scopes: ["read"], rate_limit_per_hour: 10 } });
  const { key, id } = created.json<{ key: string; id: number }>();
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (gws[i % gws.length] as TestGateway).call("GET", "/api/v1/me", { key })));
  const [row] = await first.db.query<{ n: number }>("SELECT n FROM rate_counters WHERE subject = $1", [`k:${id}`]);
  return { ok: answers.filter((a) => a.statusCode === 200).length, limited: answers.filter((a) => a.statusCode === 429).length, counter: row?.n ?? 0 };
}

/** 50 concurrent identical POST /keys with one Idempotency-Key; counts the keys actually made. */
async function idempotencyRace(gws: TestGateway[]): Promise<{ executions: number; statuses: Record<number, number>; replays: number }> {
  const [first] = gws as [TestGateway];
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      (gws[i % gws.length] as TestGateway).call("POST", "/api/v1/keys", { body: { name: "once", scopes: ["read"] }, headers: { "idempotency-key": "race-1" } }),
    ),
  );
  const [row] = await first.db.query<{ n: number }>("SELECT count(*) AS n FROM api_keys WHERE name = 'once'");
  const statuses: Record<number, number> = {};
  for (const a of answers) statuses[a.statusCode] = (statuses[a.statusCode] ?? 0) + 1;
  return { executions: row?.n ?? 0, statuses, replays: answers.filter((a) => a.headers["idempotent-replay"] === "true").length };
}

describe("the hourly limit under concurrency (Postgres server, pool of 8)", () => {
  it("admits exactly the limit of 20 concurrent requests in one gateway", async () => {
    expect(await rateRace(await gateways(1))).toEqual({ ok: 10, limited: 10, counter: 10 });
  });

  it("admits exactly the limit across two gateways sharing the database", async () => {
    expect(await rateRace(await gateways(2))).toEqual({ ok: 10, limited: 10, counter: 10 });
  });

  it("test of the test: a read-then-write counter admits more than the limit", async () => {
    const result = await rateRace(await gateways(2, racy));
    expect(result.ok).toBeGreaterThan(10);
  });
});

describe("Idempotency-Key under concurrency (Postgres server, pool of 8)", () => {
  it("executes 50 identical concurrent requests once in one gateway", async () => {
    const r = await idempotencyRace(await gateways(1));
    expect(r.executions).toBe(1);
    expect(Object.keys(r.statuses).sort()).toEqual(expect.arrayContaining(["201"]));
    expect((r.statuses[201] ?? 0) + (r.statuses[409] ?? 0)).toBe(50);
    expect(r.replays).toBe((r.statuses[201] ?? 0) - 1);
  });

  it("executes them once across two gateways sharing the database", async () => {
    const r = await idempotencyRace(await gateways(2));
    expect(r.executions).toBe(1);
    expect((r.statuses[201] ?? 0) + (r.statuses[409] ?? 0)).toBe(50);
  });

  it("test of the test: a check-then-insert claim executes more than once", async () => {
    const r = await idempotencyRace(await gateways(2, racy));
    expect(r.executions).toBeGreaterThan(1);
  });
});

describe("the plan's site limit under concurrency (Postgres server, pool of 8)", () => {
  it("adds exactly the plan's number of sites among 20 concurrent POST /sites across two gateways", async () => {
    const gws = await gateways(2);
    const first = gws[0] as TestGateway;
    await first.admin.setPlan("default", { sites: 5 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (gws[i % 2] as TestGateway).call("POST", "/api/v1/sites", { body: { host: `race${i}.example.com` } })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect([statuses.filter((s) => s === 201).length, statuses.filter((s) => s === 429).length]).toEqual([5, 15]);
    const [row] = await first.db.query<{ n: number }>("SELECT count(*) AS n FROM sites WHERE host LIKE 'race%'");
    expect(row?.n).toBe(5);
  });

  it("removes every site of 10 concurrent add-then-remove cycles (100 requests, within the hourly 120), each add with its own Idempotency-Key", async () => {
    const gws = await gateways(2);
    const removed: boolean[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async (_, c) => {
        const gw = gws[c % 2] as TestGateway;
        for (let n = 0; n < 5; n++) {
          const host = `cycle${c}-${n}.example.com`;
          const added = await gw.call("POST", "/api/v1/sites", { body: { host }, headers: { "idempotency-key": `add-${host}` } });
          expect(added.statusCode, added.body).toBe(201);
          const gone = await gw.call("DELETE", `/api/v1/sites/${host}`);
          removed.push(gone.json<{ removed: boolean }>().removed);
        }
      }),
    );
    expect(removed.filter((r) => r)).toHaveLength(50);
    const [row] = await (gws[0] as TestGateway).db.query<{ n: number }>("SELECT count(*) AS n FROM sites WHERE host LIKE 'cycle%'");
    expect(row?.n).toBe(0);
  });
});
