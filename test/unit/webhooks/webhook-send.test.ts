import { describe, expect, it } from "vitest";
import {
  createEgress,
  CRAWLER_KINDS,
  crawlerStreamKinds,
  EgressBlockedError,
  failureOf,
  NonRetryableWorkError,
  signatureHeaders,
  type CrawlerNode,
  type WorkContext,
} from "../../../crawler/index.ts";
import { Retry, WebhookAttempt, WebhookBatch, WebhookTask } from "../../../proto/index.ts";
import { ManualClock } from "../../../runtime/index.ts";
import { Registry } from "prom-client";
import { webhookMetrics } from "../../../crawler/webhook-metrics.ts";
import { fixedResolver, makeCerts, startHttps } from "../crawler/servers.ts";
import { verifyLegacySignature, verifySignature } from "../../harness/webhook-receiver.ts";

// What a receiver can check of a send, and what the sender refuses before it sends anything.

const BODY = Buffer.from('{"type":"test","delivery":1}');

describe("the signature", () => {
  it("is HMAC-SHA256 over \"<t>.<body>\" (v2) and over the body alone (legacy), hex, as openssl computes them", () => {
    expect(signatureHeaders("whsec_test", 1_700_000_000, BODY)).toEqual({
      "x-svc-timestamp": "1700000000",
      // printf '%s' '1700000000.{"type":"test","delivery":1}' | openssl dgst -sha256 -hmac whsec_test
      "x-svc-signature-v2": "t=1700000000,v1=3df2f60daccc16947cecf0a24e0f013c7d29dc962c4ab78d02f050ea99a6bf96",
      // printf '%s' '{"type":"test","delivery":1}' | openssl dgst -sha256 -hmac whsec_test
      "x-svc-signature": "sha256=aad80dc2f31d90005d0aabb111953aaf5b20e40e50595a8b9f2bab3b734e5b0e",
    });
  });

  it("verifies as docs/webhooks.md tells receivers: fresh for 5 minutes, not with another secret or another body", () => {
    const h = signatureHeaders("whsec_test", 1_700_000_000, BODY);
    const v2 = h["x-svc-signature-v2"] as string;
    expect(verifySignature("whsec_test", v2, BODY, 1_700_000_000 + 300)).toEqual({ ok: true, t: 1_700_000_000 });
    expect(verifySignature("whsec_test", v2, BODY, 1_700_000_000 + 301)).toMatchObject({ ok: false, reason: "stale" });
    expect(verifySignature("whsec_other", v2, BODY, 1_700_000_000)).toMatchObject({ ok: false, reason: "mismatch" });
    expect(verifySignature("whsec_test", v2, Buffer.from('{"type":"test","delivery":2}'), 1_700_000_000)).toMatchObject({ ok: false, reason: "mismatch" });
    // A replay with its timestamp moved forward does not verify: t is signed.
    expect(verifySignature("whsec_test", v2.replace("t=1700000000", "t=1700000300"), BODY, 1_700_000_300)).toMatchObject({ ok: false, reason: "mismatch" });
    expect(verifyLegacySignature("whsec_test", h["x-svc-signature"], BODY)).toBe(true);
    expect(verifyLegacySignature("whsec_other", h["x-svc-signature"], BODY)).toBe(false);
  });
});

/** A crawler node with only what the webhook kind uses: the egress (guarded, on a fixed resolver) and the clock. */
function nodeWith(map: Record<string, string[]>, allowPrivateTargets = false) {
  const { resolver, calls } = fixedResolver(map);
  const egress = createEgress({ allowPrivateTargets, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 }, { resolver });
  const node = { egress, clock: new ManualClock(1_700_000_000_000), settings: { userAgent: "svc-test" } } as unknown as CrawlerNode;
  const ctx = { node, signal: new AbortController().signal } as unknown as WorkContext;
  return { ctx, calls, close: () => egress.close() };
}

const task = (url: string) => WebhookTask.fromPartial({ delivery: 7, url, secret: "whsec_test", event: "rank", notificationJson: "{}", timeoutMs: 1000 });

describe("a send refuses", () => {
  it.each([
    ["private", "10.0.0.8"],
    ["private", "192.168.1.20"],
    ["loopback", "127.0.0.1"],
    ["loopback", "::1"],
    ["linkLocal", "169.254.10.10"],
    ["linkLocal", "fe80::1"],
    ["metadata", "169.254.169.254"],
    ["metadata", "fd00:ec2::254"],
    ["uniqueLocal", "fc00::5"],
    ["carrierGradeNat", "100.64.0.1"],
    ["loopback", "::ffff:127.0.0.1"],
  ])("a receiver whose name resolves to a %s address (%s), before sending, and for good", async (range, address) => {
    const { ctx, calls, close } = nodeWith({ "hooks.example.com": [address] });
    const err = await CRAWLER_KINDS.webhook.run(task("https://hooks.example.com/in"), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressBlockedError);
    expect(err).toMatchObject({ reason: "blocked_private_address", address, range });
    expect(failureOf(err).retry).toBe(Retry.RETRY_NEVER);
    // Checked on every send: a second attempt resolves again.
    await CRAWLER_KINDS.webhook.run(task("https://hooks.example.com/in"), ctx).catch(() => undefined);
    expect(calls).toEqual(["hooks.example.com", "hooks.example.com"]);
    await close();
  });

  it("an address literal in a private range, without asking DNS", async () => {
    const { ctx, calls, close } = nodeWith({});
    const err = await CRAWLER_KINDS.webhook.run(task("https://127.0.0.1:8443/in"), ctx).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: "blocked_private_address", range: "loopback" });
    expect(calls).toEqual([]);
    await close();
  });

  it("an address that is not https, and a removed webhook's empty address", async () => {
    const { ctx, close } = nodeWith({ "hooks.example.com": ["93.184.215.14"] });
    const http = await CRAWLER_KINDS.webhook.run(task("http://hooks.example.com/in"), ctx).catch((e: unknown) => e);
    expect(http).toBeInstanceOf(NonRetryableWorkError);
    expect(failureOf(http)).toMatchObject({ error: "not_https", retry: Retry.RETRY_NEVER });
    const gone = await CRAWLER_KINDS.webhook.run(task(""), ctx).catch((e: unknown) => e);
    expect(failureOf(gone)).toMatchObject({ error: "webhook_gone", retry: Retry.RETRY_NEVER });
    await close();
  });
});

describe("the webhook metrics of a crawler node", () => {
  it("count attempts by outcome and observe an event's commit-to-2xx delay on the node's clock", async () => {
    const certs = makeCerts();
    let status = 204;
    const server = await startHttps((_req, res) => void res.writeHead(status).end(), certs.valid);
    const registry = new Registry();
    const clock = new ManualClock(1_700_000_100_000);
    const { resolver } = fixedResolver({ "svc.test": ["127.0.0.1"], "inside.example.com": ["10.0.0.8"] });
    const guarded = createEgress({ allowPrivateTargets: false, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 }, { resolver });
    const open = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: certs.ca, connectTimeoutMs: 1000 }, { resolver });
    const metrics = webhookMetrics(registry);
    const ctxOf = (egress: typeof open) => ({ node: { egress, clock, settings: { userAgent: "svc-test" }, webhookMetrics: metrics }, signal: new AbortController().signal }) as unknown as WorkContext;
    const url = `https://svc.test:${server.port}/in`;
    // An event committed 40 s before the node's clock: delivered now.
    const notification = JSON.stringify({ type: "rank", host: "shop.example.com", events: [{ id: 1, at: 1_700_000_060 }] });
    const send = (egress: typeof open, to = url) => CRAWLER_KINDS.webhook.run(WebhookTask.fromPartial({ delivery: 7, url: to, secret: "whsec_test", event: "rank", notificationJson: notification, timeoutMs: 2000 }), ctxOf(egress));
    expect((await send(open)).code).toBe(204);
    status = 503;
    expect((await send(open)).code).toBe(503);
    status = 410;
    await send(open);
    await send(guarded, "https://inside.example.com/in").catch(() => undefined);
    const text = await registry.metrics();
    const count = (outcome: string) => Number(new RegExp(`svc_webhook_attempts_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    expect([count("delivered"), count("http_5xx"), count("http_4xx"), count("blocked")]).toEqual([1, 1, 1, 1]);
    // One delivered event, 40 s after its commit: in the 60 s bucket, not the 30 s one.
    expect(text).toContain("svc_webhook_delivery_delay_seconds_bucket{le=\"30\"} 0");
    expect(text).toContain("svc_webhook_delivery_delay_seconds_bucket{le=\"60\"} 1");
    expect(text).toContain("svc_webhook_delivery_delay_seconds_sum 40");
    await server.close();
    await guarded.close();
    await open.close();
  });
});

describe("a batch of one webhook's attempts (stream lane)", () => {
  it("sends in order over kept-alive connections, each signed with its own timestamp; an attempt past its latest start is not sent", async () => {
    const certs = makeCerts();
    const got: { delivery: string; verified: boolean; socket: number }[] = [];
    const sockets = new WeakMap<object, number>();
    let nextSocket = 0;
    const clock = new ManualClock(1_700_000_100_000);
    const server = await startHttps((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (!sockets.has(req.socket)) sockets.set(req.socket, nextSocket++);
        const ok = verifySignature("whsec_test", req.headers["x-svc-signature-v2"] as string, Buffer.concat(chunks), Math.floor(clock.nowMs() / 1000)).ok;
        got.push({ delivery: String(req.headers["x-svc-delivery"]), verified: ok, socket: sockets.get(req.socket)! });
        res.writeHead(204).end();
      });
    }, certs.valid);
    const { resolver } = fixedResolver({ "svc.test": ["127.0.0.1"] });
    const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: certs.ca, connectTimeoutMs: 1000 }, { resolver });
    const node = { egress, clock, settings: { userAgent: "svc-test" } } as unknown as CrawlerNode;
    const now = clock.nowMs();
    const attempt = (delivery: number, notAfterMs: number) => WebhookAttempt.fromPartial({ delivery, n: 1, event: "rank", notificationJson: '{"type":"rank","events":[]}', notAfterMs, timeoutMs: 2000 });
    const batch = WebhookBatch.fromPartial({ webhook: 3, url: `https://svc.test:${server.port}/in`, secret: "whsec_test", attempts: [attempt(11, now), attempt(12, now), attempt(13, now - 1), attempt(14, now), attempt(15, now), attempt(16, now)] });
    const result = await crawlerStreamKinds().webhook.run(batch, { node, plannedMs: now });
    expect(result.outcomes.map((o) => [o.delivery, o.n, o.code, o.error])).toEqual([
      [11, 1, 204, ""],
      [12, 1, 204, ""],
      [13, 1, 0, "not_sent"],
      [14, 1, 204, ""],
      [15, 1, 204, ""],
      [16, 1, 204, ""],
    ]);
    expect(got.map((g) => [g.delivery, g.verified])).toEqual(["11", "12", "14", "15", "16"].map((d) => [d, true]));
    // The pool keeps connections: five sends, not five connections (undici may open a second one after the first request).
    expect(new Set(got.map((g) => g.socket)).size).toBeLessThanOrEqual(2);
    await server.close();
    await egress.close();
  });

  it("refuses every attempt of an address that resolves to a private address, and sends none", async () => {
    const { resolver } = fixedResolver({ "hooks.example.com": ["10.0.0.8"] });
    const egress = createEgress({ allowPrivateTargets: false, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 }, { resolver });
    const clock = new ManualClock(1_700_000_100_000);
    const node = { egress, clock, settings: { userAgent: "svc-test" } } as unknown as CrawlerNode;
    const attempts = [21, 22].map((delivery) => WebhookAttempt.fromPartial({ delivery, n: 2, event: "rank", notificationJson: "{}", notAfterMs: clock.nowMs() + 1000, timeoutMs: 2000 }));
    const result = await crawlerStreamKinds().webhook.run(WebhookBatch.fromPartial({ webhook: 3, url: "https://hooks.example.com/in", secret: "s", attempts }), { node, plannedMs: 0 });
    expect(result.outcomes.map((o) => [o.delivery, o.n, o.code, o.error])).toEqual([
      [21, 2, 0, "blocked_private_address"],
      [22, 2, 0, "blocked_private_address"],
    ]);
    await egress.close();
  });
});
