import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventType } from "../../storage/index.ts";
import { createTestCa, type TestCa } from "../harness/fixture-web/ca.ts";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page, startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { startWebhookReceiver, verifySignature, type WebhookReceiver } from "../harness/webhook-receiver.ts";

// Webhooks through the whole work path of `svc serve`: the planner turns events into deliveries,
// each attempt is a job a crawler worker leases, signs and POSTs to a receiver on loopback over
// HTTPS (the test CA), and the outcome is recorded. The clock is a ManualClock: the schedule's
// times are asserted exactly, in the X-Svc-Timestamp the receiver got.

let gw: TestGateway;
let ca: TestCa;
let rx: WebhookReceiver;
let fast: WebhookReceiver;
let site: SmallSite;
const nowS = () => Math.floor(gw.clock.nowMs() / 1000);

beforeAll(async () => {
  ca = await createTestCa();
  site = await startSmallSite();
  site.pages.set("/", page({ title: "Webhook shop", description: "A page to analyse" }));
  gw = await startTestGateway({
    env: {
      SVC_ALLOW_PRIVATE_TARGETS: "1",
      SVC_EXTRA_CA_FILE: ca.caFile,
      SVC_WEBHOOK_PLAN_MS: "100",
      SVC_WORKER_CONCURRENCY: "8",
      SVC_PLAN_WEBHOOKS: "3",
      SVC_PAGE_SAMPLE: "0",
      SVC_RATE_PER_HOUR: "1000000",
    },
  });
  rx = await startWebhookReceiver(ca, nowS);
  fast = await startWebhookReceiver(ca, nowS, "fast.localhost");
});

afterAll(async () => {
  await gw?.close();
  await rx?.close();
  await fast?.close();
  await site?.close();
  await ca?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function account(name: string): Promise<{ key: string; accountId: number }> {
  return gw.newAccount(`${name}@example.com`);
}

async function addHook(key: string, url: string, extra: Json = {}): Promise<Json> {
  const res = await gw.call("POST", "/api/v1/webhooks", { key, body: { url, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  const hook = res.json<Json>();
  rx.secrets.add(hook.secret);
  fast.secrets.add(hook.secret);
  return hook;
}

let seq = 0;
/** An event as the analysis path appends it: a rank change of a site of the account. */
async function emit(accountId: number, host = "shop.example.com", type: EventType = "rank"): Promise<void> {
  seq++;
  const to = 60 + (seq % 10);
  await gw.store.events.add([{ eventKey: `test:${seq}`, accountId, host, type, kind: `${type}.changed`, level: "bad", text: `Rank of ${host} fell from 70 to ${to}`, payload: { from: 70, to, run: seq } }], nowS());
}

async function deliveries(key: string, id: number): Promise<Json[]> {
  const res = await gw.call("GET", `/api/v1/webhooks/${id}/deliveries?limit=100`, { key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ deliveries: Json[] }>().deliveries;
}

/** Waits (real time) until the webhook's deliveries satisfy a condition. */
async function untilDeliveries(key: string, id: number, ok: (d: Json[]) => boolean, timeoutMs = 15_000): Promise<Json[]> {
  const started = Date.now();
  for (;;) {
    const list = await deliveries(key, id);
    if (ok(list)) return list;
    if (Date.now() - started > timeoutMs) throw new Error(`deliveries of ${id} not as expected: ${JSON.stringify(list).slice(0, 800)}`);
    await sleep(50);
  }
}

const stamps = (list: { headers: Json }[]) => list.map((r) => Number(r.headers["x-svc-timestamp"]));

describe("webhook operations", () => {
  it("create one with its secret once, list without secrets, replay without the secret, refuse http and the plan's fourth", async () => {
    const { key } = await account("crud");
    const created = await gw.call("POST", "/api/v1/webhooks", { key, body: { url: `${rx.origin}/crud` }, headers: { "idempotency-key": "hook-1" } });
    expect(created.statusCode).toBe(201);
    const hook = created.json();
    expect(hook).toMatchObject({ name: rx.origin.slice(8), url: `${rx.origin}/crud`, events: ["events", "uptime", "watchdog", "page", "crawl", "rank", "security", "digest"], hosts: [], active: true });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook.note).toContain("shown only now");

    const replay = await gw.call("POST", "/api/v1/webhooks", { key, body: { url: `${rx.origin}/crud` }, headers: { "idempotency-key": "hook-1" } });
    expect(replay.headers["idempotent-replay"]).toBe("true");
    expect(replay.json()).toMatchObject({ id: hook.id, secret: null, note: expect.stringContaining("rotate-secret") });

    const list = (await gw.call("GET", "/api/v1/webhooks", { key })).json();
    expect(list.webhooks).toHaveLength(1);
    expect(list.webhooks[0]).not.toHaveProperty("secret");
    expect(JSON.stringify(list)).not.toContain(hook.secret);

    const http = await gw.call("POST", "/api/v1/webhooks", { key, body: { url: "http://localhost/hook" } });
    expect(http.statusCode).toBe(400);
    expect(http.json()).toMatchObject({ code: "bad_param", param: "url" });
    const badType = await gw.call("POST", "/api/v1/webhooks", { key, body: { url: `${rx.origin}/x`, events: ["payments"] } });
    expect(badType.json().code).toBe("bad_param");

    await addHook(key, `${rx.origin}/two`, { name: "second", events: ["rank"], hosts: ["Example.COM"] });
    const third = await addHook(key, `${rx.origin}/three`);
    expect((await gw.call("GET", "/api/v1/webhooks", { key })).json<{ webhooks: { hosts: string[] }[] }>().webhooks.map((w) => w.hosts)).toEqual([[], ["example.com"], []]);
    const fourth = await gw.call("POST", "/api/v1/webhooks", { key, body: { url: `${rx.origin}/four` } });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ code: "limit", details: { policy: "webhooks" } });

    const removed = await gw.call("DELETE", `/api/v1/webhooks/${third.id}`, { key });
    expect(removed.json()).toEqual({ id: third.id, removed: true });
    expect((await gw.call("GET", `/api/v1/webhooks/${third.id}/deliveries`, { key })).statusCode).toBe(404);
    // DELETE is idempotent, as DELETE /sites: again, 200 and removed false.
    const again = await gw.call("DELETE", `/api/v1/webhooks/${third.id}`, { key });
    expect([again.statusCode, again.json()]).toEqual([200, { id: third.id, removed: false }]);
    const other = await account("crud-other");
    // Another account's webhook is not theirs to remove: the same answer, and it stays.
    expect((await gw.call("DELETE", `/api/v1/webhooks/${hook.id}`, { key: other.key })).json()).toEqual({ id: hook.id, removed: false });
    expect((await gw.call("GET", `/api/v1/webhooks/${hook.id}/deliveries`, { key })).statusCode).toBe(200);
    expect((await gw.call("GET", `/api/v1/webhooks/${hook.id}/deliveries`, { key: other.key })).statusCode).toBe(404);
  });

  it("tests an address, and after a rotation signs with the new secret only", async () => {
    const { key } = await account("rotate");
    const hook = await addHook(key, `${rx.origin}/rotate`);
    const test = await gw.call("POST", `/api/v1/webhooks/${hook.id}/test`, { key });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ ok: true, code: 200, error: null });
    const [first] = rx.on("/rotate");
    expect(first!.headers["x-svc-event"]).toBe("test");
    expect(first!.headers["x-svc-delivery"]).toBe(String(test.json().delivery));
    expect(first!.verifiedWith).toBe(hook.secret);
    expect(first!.body).toMatchObject({ type: "test", event: "test", delivery: test.json().delivery, sent_at: nowS() });

    const rotated = await gw.call("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key, headers: { "idempotency-key": "rot-1" } });
    const secret = rotated.json().secret as string;
    expect(secret).not.toBe(hook.secret);
    rx.secrets.add(secret);
    const replay = await gw.call("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key, headers: { "idempotency-key": "rot-1" } });
    expect(replay.json()).toMatchObject({ id: hook.id, secret: null, note: expect.stringContaining("rotate-secret") });

    await gw.call("POST", `/api/v1/webhooks/${hook.id}/test`, { key });
    const second = rx.on("/rotate")[1]!;
    expect(second.verifiedWith).toBe(secret);
    expect(verifySignature(hook.secret, second.headers["x-svc-signature-v2"] as string, second.raw, nowS()).ok).toBe(false);
    const log = await deliveries(key, hook.id);
    expect(log.map((d): unknown[] => [d.event, d.status, d.code, d.attempts, d.test])).toEqual([
      ["test", "delivered", 200, 1, true],
      ["test", "delivered", 200, 1, true],
    ]);
  });
});

describe("webhook deliveries", () => {
  it("deliver a real analysis's event, signed, with the notification, event, delivery and sent_at", async () => {
    const key = gw.ownerKey;
    const hook = await addHook(key, `${rx.origin}/analysis`, { events: ["events"], hosts: ["127.0.0.1"] });
    const started = await gw.call("POST", "/api/v1/analyze", { key, body: { host: site.host } });
    expect(started.statusCode, started.body).toBe(202);
    await untilJobDone(gw, started.json().job.id);
    const [got] = await rx.until("/analysis", 1);
    expect(got!.verifiedWith).toBe(hook.secret);
    expect(got!.headers["x-svc-event"]).toBe("events");
    expect(got!.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(got!.body).toMatchObject({ type: "events", host: site.host, event: "events", sent_at: nowS() });
    expect(got!.body.events).toEqual([expect.objectContaining({ type: "events", kind: "analysis.done", text: expect.stringMatching(/^Analysis of 127\.0\.0\.1:\d+ done: rank \d+$/) })]);
    const [d] = await untilDeliveries(key, hook.id, (l) => l[0]?.status === "delivered");
    expect(String(d!.id)).toBe(got!.headers["x-svc-delivery"]);
    expect(got!.body.delivery).toBe(d!.id);
  });

  it("retry at 1 min, 5 min, 30 min, 2 h and 12 h, and are lost after the sixth failure", async () => {
    const { key, accountId } = await account("schedule");
    const hook = await addHook(key, `${rx.origin}/schedule`);
    rx.answers.set("/schedule", { status: 500 });
    const t0 = nowS();
    await emit(accountId);
    await rx.until("/schedule", 1);
    let n = 1;
    for (const delay of [60, 300, 1800, 7200, 43_200]) {
      await untilDeliveries(key, hook.id, (l) => l[0]?.status === "failing" && l[0]?.attempts === n);
      gw.clock.advance((delay - 1) * 1000);
      await sleep(1200);
      expect(rx.on("/schedule")).toHaveLength(n);
      gw.clock.advance(1000);
      await rx.until("/schedule", ++n);
    }
    expect(stamps(rx.on("/schedule"))).toEqual([t0, t0 + 60, t0 + 360, t0 + 2160, t0 + 9360, t0 + 52_560]);
    const [d] = await untilDeliveries(key, hook.id, (l) => l[0]?.status === "lost");
    expect(d).toMatchObject({ status: "lost", code: 500, attempts: 6, error: "http_500", next_attempt_at: null, delivered_at: null });
    expect((d!.attempt_log as Json[]).map((a): unknown[] => [a.n, a.sent_at, a.code])).toEqual(stamps(rx.on("/schedule")).map((t, i) => [i + 1, t, 500]));
    // Every attempt carries the same delivery id and a signature of its own.
    expect(new Set(rx.on("/schedule").map((r) => r.headers["x-svc-delivery"])).size).toBe(1);
    expect(rx.on("/schedule").every((r) => r.verifiedWith === hook.secret)).toBe(true);

    // A lost delivery is sent again by hand: the same id, a fresh timestamp, from the first step.
    rx.answers.set("/schedule", { status: 204 });
    const resent = await gw.call("POST", `/api/v1/webhooks/${hook.id}/deliveries/${d!.id}/resend`, { key });
    expect(resent.statusCode, resent.body).toBe(202);
    expect(resent.json()).toMatchObject({ id: d!.id, status: "pending", next_attempt_at: nowS() });
    const seventh = (await rx.until("/schedule", 7))[6]!;
    expect(seventh.headers["x-svc-delivery"]).toBe(String(d!.id));
    expect(Number(seventh.headers["x-svc-timestamp"])).toBe(nowS());
    const [after] = await untilDeliveries(key, hook.id, (l) => l[0]?.status === "delivered");
    expect(after).toMatchObject({ attempts: 7, code: 204, error: null });
    const again = await gw.call("POST", `/api/v1/webhooks/${hook.id}/deliveries/${d!.id}/resend`, { key });
    expect(again.statusCode).toBe(202);
  });

  it("give up after the third failure on a final 4xx, keep the schedule for 408/409/425/429 and 3xx, never follow a redirect", async () => {
    const { key, accountId } = await account("classes");
    const gone = await addHook(key, `${rx.origin}/gone`);
    const busy = await addHook(key, `${rx.origin}/busy`);
    const moved = await addHook(key, `${rx.origin}/moved`);
    rx.answers.set("/gone", { status: 410 });
    rx.answers.set("/busy", { status: 429, headers: { "retry-after": "1" } });
    rx.answers.set("/moved", { status: 302, headers: { location: `${rx.origin}/elsewhere` } });
    await emit(accountId);
    const all = (n: number) => Promise.all([rx.until("/gone", n), rx.until("/busy", n), rx.until("/moved", n)]);
    const settled = async (n: number) => {
      for (const h of [gone, busy, moved]) await untilDeliveries(key, h.id, (l) => l[0]?.attempts === n && l[0]?.status !== "sending");
    };
    await all(1);
    await settled(1);
    gw.clock.advance(60_000);
    await all(2);
    await settled(2);
    gw.clock.advance(300_000);
    await all(3);
    await settled(3);
    const t = nowS();
    expect((await deliveries(key, gone.id))[0]).toMatchObject({ status: "lost", code: 410, attempts: 3, error: "http_410", next_attempt_at: null });
    expect((await deliveries(key, busy.id))[0]).toMatchObject({ status: "failing", code: 429, attempts: 3, next_attempt_at: t + 1800 });
    expect((await deliveries(key, moved.id))[0]).toMatchObject({ status: "failing", code: 302, attempts: 3, error: "http_302", next_attempt_at: t + 1800 });
    expect(rx.on("/elsewhere")).toHaveLength(0);
    // Resending the lost one while the others fail is the user's call; it must not be under way.
    const underWay = await gw.call("POST", `/api/v1/webhooks/${busy.id}/deliveries/${(await deliveries(key, busy.id))[0]!.id}/resend`, { key });
    expect(underWay.json().code).toBe("unsupported");
    // Leave nothing due for the tests after this one.
    await gw.call("DELETE", `/api/v1/webhooks/${busy.id}`, { key });
    await gw.call("DELETE", `/api/v1/webhooks/${moved.id}`, { key });
  });

  it("disable the address after 15 deliveries lost in a row, with an event; a successful test re-activates it", async () => {
    const { key, accountId } = await account("disable");
    const hook = await addHook(key, `${rx.origin}/down`);
    rx.answers.set("/down", { status: 404 });
    for (let i = 0; i < 15; i++) await emit(accountId, `s${i}.example.com`);
    const round = async (n: number) => {
      await rx.until("/down", 15 * n);
      await untilDeliveries(key, hook.id, (l) => l.length === 15 && l.every((d) => d.attempts === n && d.status !== "sending"));
    };
    await round(1);
    gw.clock.advance(60_000);
    await round(2);
    gw.clock.advance(300_000);
    await round(3);
    const [view] = (await gw.call("GET", "/api/v1/webhooks", { key })).json().webhooks;
    expect(view).toMatchObject({ id: hook.id, active: false, failed_in_a_row: 15, disabled_at: nowS() });
    const rows = (await gw.store.events.list({ accountId, type: "events", limit: 10, offset: 0 })).rows.filter((r) => r.kind === "webhook.disabled");
    expect(rows.map((r) => r.payload)).toEqual([{ webhook: hook.id, url: hook.url, state: "disabled", lost: 15, dropped_deliveries: 0 }]);

    // Disabled: a new event is not delivered.
    await emit(accountId, "late.example.com");
    await sleep(1200);
    expect(await deliveries(key, hook.id)).toHaveLength(15);
    const resend = await gw.call("POST", `/api/v1/webhooks/${hook.id}/deliveries/${(await deliveries(key, hook.id))[0]!.id}/resend`, { key });
    expect(resend.json().code).toBe("unsupported");

    rx.answers.set("/down", { status: 200 });
    expect((await gw.call("POST", `/api/v1/webhooks/${hook.id}/test`, { key })).json()).toMatchObject({ ok: true, code: 200 });
    expect((await gw.call("GET", "/api/v1/webhooks", { key })).json().webhooks[0]).toMatchObject({ active: true, failed_in_a_row: 0, disabled_at: null });
  });

  it("a receiver that does not answer in 8 s fails with timeout without holding up other receivers, on its domain or another", async () => {
    const { key, accountId } = await account("slow");
    const slowHook = await addHook(key, `${rx.origin}/slow`);
    // Another receiver on the slow one's host (one registrable domain), and one elsewhere.
    const sameHook = await addHook(key, `${rx.origin}/same`);
    const otherHook = await addHook(key, `${fast.origin}/fast`);
    rx.answers.set("/slow", { status: 200, delayMs: 9000 });
    const slowStillOpen = async () => (await deliveries(key, slowHook.id)).every((d) => d.status !== "failing" && d.status !== "delivered");
    await emit(accountId);
    await rx.until("/slow", 1);
    await rx.until("/same", 1);
    await fast.until("/fast", 1);
    // Two more events while the slow receiver still holds the first: the others get them at once.
    await emit(accountId);
    await emit(accountId);
    await rx.until("/same", 3);
    await fast.until("/fast", 3);
    // All of that happened while the slow receiver's first attempt was still waiting for an answer.
    expect(await slowStillOpen()).toBe(true);
    const first = (l: Json[]) => l.find((d) => d.attempts === 1 && d.status === "failing");
    const slow = first(await untilDeliveries(key, slowHook.id, (l) => first(l) !== undefined, 20_000));
    expect(slow).toMatchObject({ status: "failing", code: null, error: "timeout" });
    expect(slow!.duration_ms).toBeGreaterThanOrEqual(7900);
    expect(slow!.duration_ms).toBeLessThan(9000);
    for (const hook of [sameHook, otherHook]) {
      expect((await untilDeliveries(key, hook.id, (l) => l.length === 3 && l.every((d) => d.status === "delivered"))).length).toBe(3);
    }
    await gw.call("DELETE", `/api/v1/webhooks/${slowHook.id}`, { key });
  }, 40_000);
});
