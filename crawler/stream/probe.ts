import { ProbeOutcome, ProbeResult, type ProbeTarget } from "../../proto/index.ts";
import { EgressBlockedError } from "../fetch/egress.ts";
import { fetchUrl } from "../fetch/fetch-page.ts";
import type { CrawlerNode } from "../node.ts";
import type { CrawlerStreamKind } from "./stream-kind.ts";
import type { ProbeHealth } from "./probe-health.ts";

/** Probes of one batch run at once up to this many (one domain's hosts: usually one or a few). */
const BATCH_CONCURRENCY = 8;

/** Failure causes, as GET /uptime and incidents name them. */
const CAUSES: Readonly<Record<string, string>> = {
  dns: "dns",
  refused: "connect",
  reset: "connect",
  tls: "tls",
  timeout: "timeout",
  blocked_private_address: "blocked",
  too_many_redirects: "http",
};

/** The uptime probe: an HTTP(S) GET of each target's home URL through the node's egress guard. */
export function probeKind(health: ProbeHealth, observe?: (latenessSeconds: number, ok: boolean) => void): CrawlerStreamKind<"probe"> {
  return {
    name: "probe",
    async run(task, { node }) {
      const outcomes: ProbeOutcome[] = [];
      const queue = [...task.targets];
      const worker = async () => {
        for (let t = queue.shift(); t; t = queue.shift()) {
          const outcome = await probeOne(t, node);
          outcomes.push(outcome);
          health.record(outcome.atMs, !outcome.ok, t.host);
          observe?.(Math.max(0, outcome.atMs / 1000 - t.slot), outcome.ok);
        }
      };
      await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, queue.length) }, worker));
      return ProbeResult.fromPartial({ outcomes, nodeSuspect: health.suspect(node.clock.nowMs()) });
    },
  };
}

/**
 * One probe of the target's URL. A site whose scheme no analysis has resolved yet is tried as a
 * visitor's browser would find it: https first, then http:// when https showed the server does not
 * speak it (a TLS protocol error on the same port, or, without a port, nothing on :443).
 */
export async function probeOne(target: ProbeTarget, node: CrawlerNode): Promise<ProbeOutcome> {
  const first = await probeUrl(target, target.url, node);
  const plain = target.schemeUnknown && !first.outcome.ok ? plainFallback(target.url, first.cause, first.rawDetail) : null;
  return plain === null ? first.outcome : (await probeUrl(target, plain, node)).outcome;
}

/** TLS errors of a server that does not speak TLS at all (not a certificate's problem). */
const NOT_TLS = /^(ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG|ERR_SSL_HTTP_REQUEST|ERR_SSL_UNKNOWN_PROTOCOL|EPROTO)\b/;

/** The http:// URL to try after a failed https:// probe of a site of unknown scheme, or null. */
function plainFallback(url: string, cause: string, rawDetail: string): string | null {
  if (!url.startsWith("https://")) return null;
  const u = new URL(url);
  const notTls = cause === "tls" && NOT_TLS.test(rawDetail);
  const nothingOn443 = cause === "connect" && u.port === "" && rawDetail.startsWith("ECONNREFUSED");
  if (!notTls && !nothingOn443) return null;
  u.protocol = "http:";
  return u.href;
}

/** A failure in words a site owner reads: the error's code decides, never the TLS library's own text. */
export function probeFailureText(cause: string, detail: string): string {
  const code = /^[A-Z][A-Z0-9_]+/.exec(detail)?.[0] ?? "";
  if (cause === "tls") {
    if (NOT_TLS.test(detail)) return "TLS handshake failed: the server does not speak HTTPS on this port";
    if (code === "CERT_HAS_EXPIRED") return "TLS handshake failed: the certificate has expired";
    if (code === "ERR_TLS_CERT_ALTNAME_INVALID" || code === "HOSTNAME_MISMATCH") return "TLS handshake failed: the certificate does not cover this host name";
    if (/SELF_SIGNED|UNABLE_TO_/.test(code)) return `TLS handshake failed: the certificate is not signed by a trusted authority (${code})`;
    return code ? `TLS handshake failed (${code})` : "TLS handshake failed";
  }
  if (cause === "connect") {
    if (code === "ECONNREFUSED") return "connection refused";
    if (code === "ECONNRESET") return "connection reset by the server";
    return code ? `connection failed (${code})` : "connection failed";
  }
  return detail;
}

/** One probe of one URL: the address resolved (timed) and checked by the egress guard, then a GET. */
async function probeUrl(target: ProbeTarget, url: string, node: CrawlerNode): Promise<{ outcome: ProbeOutcome; cause: string; rawDetail: string }> {
  const atMs = node.clock.nowMs();
  const base = { host: target.host, slot: target.slot, confirm: target.confirm, atMs, url };
  const done = (o: Partial<ProbeOutcome>, rawDetail = o.detail ?? "") => ({ outcome: ProbeOutcome.fromPartial({ ...base, ...o }), cause: o.cause ?? "", rawDetail });
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return done({ ok: false, cause: "http", detail: `not a URL: ${url}` });
  }
  const t0 = performance.now();
  try {
    await node.egress.resolve(hostname);
  } catch (err) {
    const blocked = err instanceof EgressBlockedError;
    return done({ ok: false, cause: blocked ? "blocked" : "dns", detail: (err as Error).message, dnsMs: round(performance.now() - t0) });
  }
  const dnsMs = performance.now() - t0;
  // A connection of its own: a probe measures what a new visitor meets (connect and TLS included).
  const timed = node.egress.timed();
  const res = await fetchUrl(url, {
    dispatcher: timed.dispatcher,
    userAgent: node.settings.userAgent,
    timeoutMs: target.timeoutMs > 0 ? target.timeoutMs : 10_000,
    maxBodyBytes: 64 * 1024,
    maxRedirects: 5,
  }).finally(() => void timed.close().catch(() => undefined));
  const r = res.response;
  const totalMs = round(performance.now() - t0);
  const connectMs = timed.timings.connectMs ?? 0;
  const tlsMs = timed.timings.tlsMs ?? 0;
  if (r.error) {
    const cause = CAUSES[r.error] ?? "connect";
    const raw = r.errorDetail || r.error;
    return done({ ok: false, status: r.status, cause, detail: probeFailureText(cause, raw), dnsMs: round(dnsMs), connectMs, tlsMs, ttfbMs: r.ttfbMs, totalMs }, raw);
  }
  // A site is up when it answers its home page with a success (after redirects): 4xx and 5xx are
  // down; so is an answer without the site's keyword, when it has one.
  const answered = r.status >= 200 && r.status < 400;
  const keywordMissing = answered && target.keyword !== "" && !res.text.includes(target.keyword);
  const ok = answered && !keywordMissing;
  return done({
    ok,
    status: r.status,
    cause: ok ? "" : keywordMissing ? "keyword" : "http",
    detail: ok ? "" : keywordMissing ? `"${target.keyword}" not found in the first 64 KB` : `http ${r.status}`,
    dnsMs: round(dnsMs),
    connectMs,
    tlsMs,
    ttfbMs: r.ttfbMs,
    totalMs,
  });
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
