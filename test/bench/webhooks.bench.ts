/**
 * bench:webhooks: webhook deliveries through Svc's whole path, against a bare loop doing the same.
 *
 * A receiver on loopback (HTTPS, certificate of a test CA that Svc trusts through
 * SVC_EXTRA_CA_FILE) verifies every request as docs/webhooks.md tells receivers to (X-Svc-Signature-V2
 * over "<t>.<body>", 5-minute freshness) and answers 204. Two senders, each in its own process
 * (test/bench/webhooks/sender.ts), one after the other:
 *
 *   svc   the embedded mode: events appended to the event log (as the analysis path appends them)
 *         → the webhooks planner (deliveries, then one batch per webhook through the outbox) →
 *         the in-process bus → the crawler worker's webhook batches (SSRF check, signing, POST
 *         over the keep-alive pool) → the results topic → the batch recorded. BENCH_HOOKS
 *         webhooks (one per account), events spread over them.
 *   bare  a bare undici loop signing and posting the same bodies: the ceiling.
 *
 * Two phases per sender. burst: BENCH_EVENTS events appended as fast as the log takes them (100 per
 * transaction): deliveries/s, CPU per delivery (the sender process's CPU over the phase), p50/p99
 * delay from the event's commit to the receiver's 2xx (mostly queueing here). paced: BENCH_PACED
 * events at BENCH_RATE a second, one per transaction: the delay of one event when Svc keeps up.
 * Peak RSS is the sender process's. Printed per sender, then svc/bare ratios; the figures are also
 * written to .tmp/bench/webhooks.json (test/bench/bench-output.ts) for bench:summary: its ratio is
 * the deliveries a core sends per second over the target's 500.
 *
 *   npm run bench:webhooks                        10,000 events burst, 1,000 paced at 50/s, 20 webhooks
 *   npm run bench:webhooks -- --smoke (CI=true)   500 burst, 100 paced at 50/s
 *
 * Overrides: BENCH_EVENTS, BENCH_PACED, BENCH_RATE, BENCH_HOOKS, BENCH_APPEND_BATCH, and any SVC_*
 * setting for the svc side (e.g. SVC_WEBHOOK_PLAN_MS); BENCH_CPU_PROF=<dir> writes a CPU profile of
 * the svc sender there. A benchmark, not a test: it never fails on a number.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:https";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import { createTestCa } from "../harness/fixture-web/ca.ts";
import { REPO_ROOT } from "../harness/svc-process.ts";
import { verifySignature } from "../harness/webhook-receiver.ts";
import { writeBenchOutput } from "./bench-output.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const EVENTS = Number(process.env.BENCH_EVENTS ?? (SMOKE ? 500 : 10_000));
const PACED = Number(process.env.BENCH_PACED ?? (SMOKE ? 100 : 1000));
const RATE = Number(process.env.BENCH_RATE ?? 50);
const HOOKS = Number(process.env.BENCH_HOOKS ?? 20);
const nowMs = () => performance.timeOrigin + performance.now();

const ca = await createTestCa();
const cert = ca.issue("valid", ["localhost"]);
const secrets = Array.from({ length: HOOKS }, (_, i) => `whsec_bench_${i}`);

/** What the receiver got in the current phase: when each event's delivery was answered 2xx. */
let phase = "";
let answered = new Map<number, number>();
let duplicates = 0;
let refused = 0;
let expected = 0;
let allIn: (() => void) | null = null;

const receiver = createServer({ key: cert.key, cert: cert.cert, keepAliveTimeout: 30_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    const hook = Number((req.url ?? "").split("/").pop());
    const secret = secrets[hook];
    const header = req.headers["x-svc-signature-v2"] as string | undefined;
    if (secret === undefined || !verifySignature(secret, header, raw, Math.floor(Date.now() / 1000)).ok) {
      refused++;
      res.writeHead(401).end();
      return;
    }
    const body = JSON.parse(raw.toString("utf8")) as { events: { data: { phase: string; n: number } }[] };
    const { phase: p, n } = body.events[0]!.data;
    res.writeHead(204).end();
    if (p !== phase) return;
    if (answered.has(n)) duplicates++;
    else answered.set(n, nowMs());
    if (answered.size === expected) allIn?.();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const origin = `https://localhost:${(receiver.address() as { port: number }).port}`;

interface Result {
  readonly started: number;
  readonly cpu_s: number;
  readonly peak_rss_mb: number;
  readonly committed: number[];
}

interface Figures {
  readonly events: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly cpuMsPerDelivery: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly rss: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function runSender(mode: "svc" | "bare"): Promise<Record<string, Figures>> {
  // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the svc sender there (for finding what is slow).
  const prof = mode === "svc" && process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, "--import", "tsx", "test/bench/webhooks/sender.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, MODE: mode, BENCH_ORIGIN: origin, BENCH_CA_FILE: ca.caFile, BENCH_HOOKS: String(HOOKS) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`the ${mode} sender exited with ${code}`))));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const read = async <T>() => JSON.parse((await Promise.race([lines.next(), exited])).value as string) as T;
  await read<{ ready: true }>();
  const out: Record<string, Figures> = {};
  for (const [name, n, rate] of [["burst", EVENTS, 0], ["paced", PACED, RATE]] as const) {
    phase = name;
    answered = new Map();
    duplicates = 0;
    refused = 0;
    expected = n;
    const done = new Promise<void>((resolve) => (allIn = resolve));
    child.stdin.write(`${JSON.stringify({ phase: name, n, rate })}\n`);
    await Promise.race([done, exited]);
    child.stdin.write(`${JSON.stringify({ done: true })}\n`);
    const r = await read<Result>();
    const delays = r.committed.map((c, i) => answered.get(i)! - c).sort((a, b) => a - b);
    const last = Math.max(...answered.values());
    const seconds = (last - r.started) / 1000;
    out[name] = { events: n, seconds, perSecond: n / seconds, cpuMsPerDelivery: (r.cpu_s * 1000) / n, p50: quantile(delays, 0.5), p99: quantile(delays, 0.99), max: delays[delays.length - 1]!, rss: r.peak_rss_mb };
    const f = out[name];
    console.log(
      `${mode.padEnd(4)} ${name.padEnd(5)} ${n} events${rate ? ` at ${rate}/s` : ""}: ${f.perSecond.toFixed(0)} deliveries/s (${f.seconds.toFixed(1)} s); ` +
        `CPU ${f.cpuMsPerDelivery.toFixed(2)} ms per delivery; commit→2xx p50 ${f.p50.toFixed(0)} ms, p99 ${f.p99.toFixed(0)} ms, max ${f.max.toFixed(0)} ms; ` +
        `peak RSS ${f.rss.toFixed(0)} MB; duplicates ${duplicates}, refused signatures ${refused}`,
    );
  }
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  return out;
}

console.log(`receiver ${origin} (HTTPS, test CA; verifies X-Svc-Signature-V2 and freshness); ${HOOKS} webhooks; node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
try {
  const svc = await runSender("svc");
  const bare = await runSender("bare");
  const b = svc.burst!;
  const bb = bare.burst!;
  console.log(
    `svc/bare: deliveries/s ${(b.perSecond / bb.perSecond).toFixed(2)}×, CPU per delivery ${(b.cpuMsPerDelivery / bb.cpuMsPerDelivery).toFixed(1)}×, peak RSS ${(b.rss / bb.rss).toFixed(1)}×; ` +
      `paced p99 commit→2xx ${svc.paced!.p99.toFixed(0)} ms vs ${bare.paced!.p99.toFixed(0)} ms`,
  );
  // Issue 36's target: ≥ 500 deliveries a second per core (a core's second over the CPU a delivery costs), ≤ 2 CPU-ms a delivery.
  const perCore = 1000 / b.cpuMsPerDelivery;
  console.log(`svc: ${perCore.toFixed(0)} deliveries/s per core (target ≥ 500), ${b.cpuMsPerDelivery.toFixed(2)} CPU-ms per delivery (target ≤ 2)`);
  const round = (x: number, digits = 2) => Number(x.toFixed(digits));
  const figures = (f: Figures) => ({ events: f.events, seconds: round(f.seconds, 1), deliveries_per_s: round(f.perSecond, 0), cpu_ms_per_delivery: round(f.cpuMsPerDelivery), p50_ms: round(f.p50, 0), p99_ms: round(f.p99, 0), rss_mb: round(f.rss, 0) });
  // bench:summary's line: the per-core rate over the issue's 500 a second (met at ≥ 1); the bare
  // signed POST loop of the same run is the ceiling it names.
  const flat = (prefix: string, f: Figures) => Object.fromEntries(Object.entries(figures(f)).map(([k, v]) => [`${prefix}_${k}`, v]));
  writeBenchOutput({
    bench: "webhooks",
    mode: SMOKE ? "smoke" : "full",
    figures: {
      ...flat("svc_burst", b),
      ...flat("svc_paced", svc.paced!),
      ...flat("bare_burst", bb),
      ...flat("bare_paced", bare.paced!),
      deliveries_per_s_per_core: round(perCore, 0),
      bare_deliveries_per_s_per_core: round(1000 / bb.cpuMsPerDelivery, 0),
      svc_over_bare_deliveries_per_s: round(b.perSecond / bb.perSecond),
      cpu_ratio: round(b.cpuMsPerDelivery / bb.cpuMsPerDelivery, 1),
      rss_ratio: round(b.rss / bb.rss, 1),
      load_average_1m: round(loadavg()[0]!, 1),
    },
    hotPath: {
      path: "webhook delivery",
      ratio: round(perCore / 500),
      ratioRounds: [],
      ceiling: `500 deliveries/s per core (the bare signed POST loop: ${(1000 / bb.cpuMsPerDelivery).toFixed(0)}/s per core)`,
      target: 1,
      rssBytes: Math.round(b.rss * 1024 * 1024),
    },
  });
} finally {
  receiver.close();
  receiver.closeAllConnections();
  await ca.close();
}
