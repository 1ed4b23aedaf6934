/**
 * One prober process of the uptime benchmark. MODE=svc runs Svc's uptime probe (the crawler's
 * stream-lane probe kind on a real crawler node: its egress guard, DNS through SVC_DNS_SERVERS,
 * a connection of its own per probe) on BENCH_STREAM_SLOTS slots, as a crawler worker runs stream
 * batches (one batch per domain: one probe each here). MODE=bare is the ceiling: undici
 * `request` over a fresh connection per probe (the same work: DNS, TCP, TLS, GET) with no guard,
 * no bookkeeping, at most BENCH_STREAM_SLOTS at once.
 *
 * Every site has a slot at a stable offset within the interval (as the uptime planner spreads
 * them); a slot's probe is started as soon as a free slot allows. Lateness is start − slot.
 * Prints one JSON line: probes, ok, lateness percentiles, CPU seconds, peak RSS.
 */
import { Resolver } from "node:dns/promises";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";

// BENCH_DIST=1: Svc's code from the compiled build, as a deployed crawler runs it.
const DIST = process.env.BENCH_DIST === "1";
const crawler = (await import(DIST ? "../../../dist/crawler/index.js" : "../../../crawler/index.ts")) as typeof import("../../../crawler/index.ts");
const runtime = (await import(DIST ? "../../../dist/runtime/index.js" : "../../../runtime/index.ts")) as typeof import("../../../runtime/index.ts");

const MODE = process.env.MODE ?? "svc";
const SITES = Number(process.env.BENCH_SITES ?? 1000);
const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SLOTS = Number(process.env.BENCH_STREAM_SLOTS ?? 128);
const PORT = Number(process.env.BENCH_PORT);
const DNS = process.env.BENCH_DNS ?? "";
const CA = process.env.BENCH_CA ?? "";

type Probe = (host: string, url: string, slot: number) => Promise<boolean>;

async function svcProbe(): Promise<Probe> {
  const caFile = join(tmpdir(), `svc-fleet-ca-${process.pid}.pem`);
  writeFileSync(caFile, CA);
  const { createCrawlerNode, crawlerStreamKinds, ProbeHealth } = crawler;
  const { loadConfig, systemClock } = runtime;
  const config = loadConfig({ ...process.env, SVC_DNS_SERVERS: DNS, SVC_EXTRA_CA_FILE: caFile, SVC_ALLOW_PRIVATE_TARGETS: "1" }, "crawler");
  const node = createCrawlerNode({ ...config.crawl, allowPrivateTargets: true, allowLinkLocal: [], extraCa: CA }, systemClock);
  await node.ready();
  const kind = crawlerStreamKinds(new ProbeHealth()).probe;
  return async (host, url, slot) => {
    const result = await kind.run({ targets: [{ host, url, slot, confirm: false, timeoutMs: 10_000, keyword: "", schemeUnknown: false }] }, { node, plannedMs: slot * 1000 });
    return result.outcomes[0]?.ok === true;
  };
}

async function bareProbe(): Promise<Probe> {
  const resolver = new Resolver();
  resolver.setServers([DNS]);
  return async (host, url) => {
    const [address] = await resolver.resolve4(host);
    // The address resolved above, given to the connection (Node asks for all addresses by default).
    const lookup = (_name: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => (opts.all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4));
    const agent = new Agent({ connect: { ca: CA, servername: host, lookup } as never, pipelining: 0 });
    try {
      const res = await request(url, { dispatcher: agent, headersTimeout: 10_000, bodyTimeout: 10_000 });
      await res.body.text();
      return res.statusCode < 400;
    } catch {
      return false;
    } finally {
      void agent.close();
    }
  };
}

let peakRss = 0;
let atPeak = process.memoryUsage();
// Also keeps the process alive while the node's parse threads load (idle threads are unref'd).
const rssTimer = setInterval(() => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) [peakRss, atPeak] = [m.rss, m];
}, 250);
const probe = MODE === "bare" ? await bareProbe() : await svcProbe();

// The schedule: site i's slots at start + offset(i) + k × interval.
const start = Math.ceil(Date.now() / 1000) + 1;
const due: { at: number; i: number }[] = [];
for (let k = 0; k < ROUNDS; k++) for (let i = 0; i < SITES; i++) due.push({ at: start + ((i * 7919) % (INTERVAL_S * 1000)) / 1000 + k * INTERVAL_S, i });
due.sort((a, b) => a.at - b.at);

const lateness: number[] = [];
let ok = 0;
let inflight = 0;
let next = 0;
const cpu0 = process.cpuUsage();

await new Promise<void>((resolve) => {
  const pump = () => {
    const now = Date.now() / 1000;
    while (next < due.length && inflight < SLOTS && (due[next]?.at ?? Infinity) <= now) {
      const d = due[next++]!;
      inflight += 1;
      lateness.push(Date.now() / 1000 - d.at);
      const host = `s${d.i}.fleet.test`;
      void probe(host, `https://${host}:${PORT}/`, d.at).then(
        (up) => (ok += up ? 1 : 0),
        () => undefined,
      ).finally(() => {
        inflight -= 1;
        if (next >= due.length && inflight === 0) resolve();
        else setImmediate(pump);
      });
    }
  };
  const timer = setInterval(() => {
    pump();
    if (next >= due.length) clearInterval(timer);
  }, 20);
});
clearInterval(rssTimer);
const cpu = process.cpuUsage(cpu0);
lateness.sort((a, b) => a - b);
const pct = (p: number) => lateness[Math.min(lateness.length - 1, Math.floor((p / 100) * lateness.length))] ?? 0;
process.stdout.write(
  `${JSON.stringify({
    mode: MODE,
    probes: lateness.length,
    ok,
    p50_late_s: pct(50),
    p99_late_s: pct(99),
    max_late_s: pct(100),
    cpu_s: (cpu.user + cpu.system) / 1e6,
    peak_rss_mb: Math.max(peakRss, process.memoryUsage().rss) / 1048576,
    max_rss_mb: process.resourceUsage().maxRSS / 1024,
    // Where the peak was (MB): the main thread's V8 heap, and memory outside it (TLS, buffers).
    at_peak_mb: { heap_total: atPeak.heapTotal / 1048576, heap_used: atPeak.heapUsed / 1048576, external: atPeak.external / 1048576, array_buffers: atPeak.arrayBuffers / 1048576 },
  })}\n`,
);
process.exit(0);
