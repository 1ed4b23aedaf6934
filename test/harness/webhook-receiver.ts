import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { TestCa } from "./fixture-web/ca.ts";

// A webhook receiver on loopback, over HTTPS with the test CA's certificate for "localhost" (the
// crawler trusts it through SVC_EXTRA_CA_FILE). It verifies every request as docs/webhooks.md tells
// receivers to, records what it got, and answers as the test says.

/** The spec's freshness: a receiver drops requests signed more than 5 minutes ago. */
export const FRESHNESS_S = 300;

/**
 * Verifies X-Svc-Signature-V2 as a receiver does: the HMAC-SHA256 (hex) of "<t>.<raw body>" with
 * the secret, compared in constant time, and t no older than 5 minutes. Any of several v1 entries may match.
 */
export function verifySignature(secret: string, header: string | undefined, rawBody: Buffer, nowSeconds: number): { ok: boolean; reason?: string; t?: number } {
  if (!header) return { ok: false, reason: "no signature" };
  const parts = header.split(",").map((p) => p.split("=", 2) as [string, string?]);
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t)) return { ok: false, reason: "no timestamp" };
  if (nowSeconds - t > FRESHNESS_S) return { ok: false, reason: "stale", t };
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  const match = parts.some(([k, v]) => k === "v1" && v !== undefined && v.length === expected.length * 2 && timingSafeEqual(Buffer.from(v, "hex"), expected));
  return match ? { ok: true, t } : { ok: false, reason: "mismatch", t };
}

/** The older header: sha256=<hex HMAC-SHA256 of the body alone>. */
export function verifyLegacySignature(secret: string, header: string | undefined, rawBody: Buffer): boolean {
  const expected = `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
  return header !== undefined && header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  readonly body: Record<string, unknown>;
  /** The secret it verified with (v2 and the legacy header both), or null when none of the receiver's secrets did. */
  readonly verifiedWith: string | null;
  readonly reason?: string;
  /** The receiver's clock when it arrived (unix seconds). */
  readonly at: number;
}

/** How the receiver answers a request on a path: a status, after a delay, optionally with headers. */
export interface Answer {
  readonly status: number;
  readonly delayMs?: number;
  readonly headers?: Record<string, string>;
}

export interface WebhookReceiver {
  /** https://<name>:<port> */
  readonly origin: string;
  readonly received: Received[];
  /** Secrets the receiver accepts (as a receiver that knows its webhooks' secrets). */
  readonly secrets: Set<string>;
  /** How each path answers (default 200). */
  readonly answers: Map<string, Answer | ((n: number) => Answer)>;
  on(path: string): Received[];
  /** Waits until a path got n requests (real time). */
  until(path: string, n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A receiver at https://<name>:<port> (a *.localhost name resolves to loopback, and is a bus key of its own). */
export async function startWebhookReceiver(ca: TestCa, nowSeconds: () => number, name = "localhost"): Promise<WebhookReceiver> {
  const cert = ca.issue("valid", [name]);
  const received: Received[] = [];
  const secrets = new Set<string>();
  const answers = new Map<string, Answer | ((n: number) => Answer)>();
  const held = new Set<ServerResponse>();
  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? "/";
      const at = nowSeconds();
      let verifiedWith: string | null = null;
      let reason: string | undefined;
      for (const s of secrets) {
        const v = verifySignature(s, req.headers["x-svc-signature-v2"] as string | undefined, raw, at);
        if (v.ok && verifyLegacySignature(s, req.headers["x-svc-signature"] as string | undefined, raw)) verifiedWith = s;
        else reason ??= v.reason;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {
        reason = "not json";
      }
      received.push({ path, headers: req.headers, raw, body, verifiedWith, ...(reason && !verifiedWith ? { reason } : {}), at });
      const spec = answers.get(path) ?? { status: 200 };
      const answer = typeof spec === "function" ? spec(received.filter((r) => r.path === path).length) : spec;
      const send = () => {
        held.delete(res);
        if (!res.destroyed) res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers }).end("ok");
      };
      held.add(res);
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const on = (path: string) => received.filter((r) => r.path === path);
  return {
    origin: `https://${name}:${port}`,
    received,
    secrets,
    answers,
    on,
    async until(path, n, timeoutMs = 15_000) {
      const started = Date.now();
      while (on(path).length < n) {
        if (Date.now() - started > timeoutMs) throw new Error(`${path} got ${on(path).length} of ${n} requests in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return on(path);
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
