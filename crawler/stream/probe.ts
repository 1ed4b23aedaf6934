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

/** One probe: the address resolved (timed) and checked by the egress guard, then a GET of the URL. */
export async function probeOne(target: ProbeTarget, node: CrawlerNode): Promise<ProbeOutcome> {
  const atMs = node.clock.nowMs();
  const base = { host: target.host, slot: target.slot, confirm: target.confirm, atMs };
  let hostname: string;
  try {
    hostname = new URL(target.url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return ProbeOutcome.fromPartial({ ...base, ok: false, cause: "http", detail: `not a URL: ${target.url}` });
  }
  const t0 = performance.now();
  try {
    await node.egress.resolve(hostname);
  } catch (err) {
    const blocked = err instanceof EgressBlockedError;
    return ProbeOutcome.fromPartial({ ...base, ok: false, cause: blocked ? "blocked" : "dns", detail: (err as Error).message, dnsMs: round(performance.now() - t0) });
  }
  const dnsMs = performance.now() - t0;
  // A connection of its own: a probe measures what a new visitor meets (connect and TLS included).
  const timed = node.egress.timed();
  const res = await fetchUrl(target.url, {
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
    return ProbeOutcome.fromPartial({ ...base, ok: false, status: r.status, cause: CAUSES[r.error] ?? "connect", detail: r.errorDetail || r.error, dnsMs: round(dnsMs), connectMs, tlsMs, ttfbMs: r.ttfbMs, totalMs });
  }
  // A site is up when it answers its home page with a success (after redirects): 4xx and 5xx are
  // down; so is an answer without the site's keyword, when it has one.
  const answered = r.status >= 200 && r.status < 400;
  const keywordMissing = answered && target.keyword !== "" && !res.text.includes(target.keyword);
  const ok = answered && !keywordMissing;
  return ProbeOutcome.fromPartial({
    ...base,
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
