/**
 * bench:distribution: what the distributed mode costs against the embedded one, in one run
 * (issue 20 §8): the CPU an idle installation burns per second, and the CPU per crawled page.
 *
 * Embedded: one `svc serve` process (PGlite, the in-process bus). Distributed: `svc gateway`, one
 * `svc scheduler` and one `svc crawler` on a Postgres server, a Kafka broker and a ClickHouse server (the time series) the harness starts.
 * Both from the same build (dist/ when fresh, as `svc` picks), the same settings, the same sites:
 * fan sites of 201 pages, each on its own loopback address, crawled (POST /crawl/{host}?fresh=true,
 * all at once, polled through GET /jobs/{id}) in each round.
 *
 * Figures: idle CPU-seconds per second of Svc's processes and of the whole cluster with its engines
 * (the target: ≤ 0.05 CPU-s/s; the embedded process holds its database
 * and bus; the distributed roles' Postgres, Kafka and ClickHouse are printed beside them), measured after the
 * start has settled; CPU-ms per crawled page of Svc's processes, and with the engines; the ratios
 * (distributed over embedded). Modes run one after the other (never both at once).
 *
 *   npm run bench:distribution               8 sites × 201 pages, 3 rounds per mode, 30 s idle
 *   npm run bench:distribution -- --smoke    4 sites × 31 pages, 1 round, 10 s idle (also CI=true)
 *   BENCH_IDLE_S=…  BENCH_SETTLE_S=…  BENCH_MODES=embedded|distributed (one mode only: to profile it, say)
 *   BENCH_ROUNDS=… (0: the idle figures only)
 *   BENCH_NODE_OPTIONS=… (reaches Svc's processes: --import a profiler, say)
 *   BENCH_ENGINE_DETAIL=1: each round's engine CPU per page by process (Postgres's backends by title)
 *   BENCH_CENSUS_FLAG=PATH: the file exists while the crawl rounds run (test/bench/idle-census.ts's
 *     flag=PATH counts what each role does over them)
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 */
import { rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { fanSite, serveFanSite, startCluster, type Cluster, type ServedSite } from "../harness/cluster.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { startKafka, type KafkaBroker } from "../harness/kafka.ts";
import { startPostgres, type PostgresServer } from "../harness/postgres.ts";
import { http, spawnSvc, svcEnvFor, tempDataDir, waitReady, type Answer } from "../harness/svc-process.ts";
import { dirname } from "node:path";
import { clickhouseProcesses, commandLine, engineProcesses, memMb, processCpuS, threadCpuS } from "./proc.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const SITES = SMOKE ? 4 : 8;
const SITE = SMOKE ? fanSite({ sections: 5, leaves: 5 }) : fanSite({ sections: 10, leaves: 19 });
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? (SMOKE ? 10 : 30));
/**
 * Time after /readyz before the idle measurement: consumer-group joins, the planners' first passes
 * and V8's compilation of what the start ran keep the roles busy for about a minute (measured per
 * process: 0.03 CPU-s/s in the first minute, 0.004-0.006 after).
 */
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? (SMOKE ? 20 : 60));
const CENSUS_FLAG = process.env.BENCH_CENSUS_FLAG;
/** BENCH_ENGINE_DETAIL=1: each round's engine CPU by process (Postgres's backends by title, the broker, ClickHouse). */
const ENGINE_DETAIL = process.env.BENCH_ENGINE_DETAIL === "1";
const KEY = "svc_Dx7kq2VbN9pLr4TtY6hWm3cZs8Gf1JeA5uQiRoEn";
const ENV = {
  SVC_ALLOW_PRIVATE_TARGETS: "1",
  SVC_CONFIRM_DELAY_MS: "0",
  SVC_CRAWL_MIN_DELAY_MS: "0",
  SVC_RATE_PER_HOUR: "10000000",
  SVC_PLAN_CHECKS_PER_DAY: "1000000",
  SVC_KAFKA_TOPIC_PREFIX: "dist.",
  SVC_LOG_LEVEL: "warn",
  SVC_BROWSER: "off",
  // BENCH_NODE_OPTIONS reaches Svc's processes (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
  ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
};

const out = (line = "") => process.stdout.write(`${line}\n`);
const f2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : "n/a");
const f3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : "n/a");

interface Mode {
  readonly name: string;
  /** Svc's processes, labelled. */
  readonly processes: () => { pid: number; label: string }[];
  readonly api: (path: string, method?: string) => Promise<Answer>;
  /** The engines' processes (Postgres and its backends, the Kafka broker); none embedded. */
  readonly engines: () => number[];
  /** The engines' processes by engine (postgres, kafka), to print their idle apart. */
  readonly enginesBy?: () => Record<string, number[]>;
}

interface Figures {
  idleCpuPerS: number;
  /** Per process: label and idle CPU-s/s. */
  idleBy: string[];
  /** Per process: idle CPU-s/s by thread name. */
  idleThreads: string[];
  idleEnginesPerS: number;
  /** Per engine: label and idle CPU-s/s. */
  idleEnginesBy: string[];
  /** The machine's 1-minute load average at the start and at the end of the idle time (a shared machine's noise). */
  idleLoad: [number, number];
  /** Per process: resident MB at the end of the idle time, and the peak (VmHWM) after the crawl rounds. */
  rssIdleBy: string[];
  rssPeakBy: string[];
  /** Per round: CPU-ms per page of Svc's processes, and with the engines. */
  perPage: number[];
  perPageWithEngines: number[];
  /** Per round: CPU-ms per page by process and by engine. */
  roundBy: string[];
  pages: number;
  rssMb: number;
}

const cpuOf = (procs: { pid: number }[]) => procs.reduce((sum, p) => sum + processCpuS(p.pid), 0);
/** CPU seconds of processes so far, by pid, to subtract later (a process started meanwhile counts from 0). */
const snapshot = (pids: number[]) => new Map(pids.map((pid) => [pid, processCpuS(pid)]));
const since = (before: Map<number, number>, pids: number[]) => pids.reduce((sum, pid) => sum + Math.max(0, (processCpuS(pid) || 0) - (before.get(pid) ?? 0)), 0);

async function measure(mode: Mode, sites: readonly ServedSite[]): Promise<Figures> {
  await sleep(SETTLE_S * 1000);
  const procs = mode.processes();
  const each0 = procs.map((p) => processCpuS(p.pid));
  const threads0 = procs.map((p) => threadCpuS(p.pid));
  const engines0 = snapshot(mode.engines());
  const enginesBy0 = Object.entries(mode.enginesBy?.() ?? {}).map(([name, pids]) => [name, pids, snapshot(pids)] as const);
  const load0 = loadavg()[0] ?? NaN;
  const t0 = performance.now();
  await sleep(IDLE_S * 1000);
  const idleS = (performance.now() - t0) / 1000;
  const each = procs.map((p, i) => (processCpuS(p.pid) - (each0[i] ?? 0)) / idleS);
  // Where a process's idle CPU goes, by thread name (main thread "node", V8's workers, libuv's pool…).
  const byThread = procs.map((p, i) => {
    const sums = new Map<string, number>();
    for (const [tid, t] of threadCpuS(p.pid)) sums.set(t.name, (sums.get(t.name) ?? 0) + t.cpuS - (threads0[i]?.get(tid)?.cpuS ?? 0));
    return `${p.label}: ${[...sums].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([n, v]) => `${n} ${f3(v / idleS)}`).join(", ")}`;
  });
  const figures: Figures = {
    idleCpuPerS: each.reduce((a, b) => a + b, 0),
    idleBy: procs.map((p, i) => `${p.label} ${f3(each[i] ?? NaN)}`),
    idleThreads: byThread,
    idleEnginesPerS: since(engines0, mode.engines()) / idleS,
    idleLoad: [load0, loadavg()[0] ?? NaN],
    idleEnginesBy: enginesBy0.map(([name, pids, before]) => `${name} ${f3(since(before, pids) / idleS)}`),
    rssIdleBy: procs.map((p) => `${p.label} ${Math.round(memMb(p.pid, "VmRSS"))}`),
    rssPeakBy: [],
    perPage: [],
    perPageWithEngines: [],
    roundBy: [],
    pages: 0,
    rssMb: 0,
  };
  if (CENSUS_FLAG) writeFileSync(CENSUS_FLAG, "");
  for (let r = 0; r < ROUNDS; r++) {
    const pages0 = sites.reduce((n, s) => n + s.served.pages, 0);
    const cpu0 = cpuOf(mode.processes());
    const e0 = snapshot(mode.engines());
    const by0 = Object.entries(mode.enginesBy?.() ?? {}).map(([name, pids]) => [name, pids, snapshot(pids)] as const);
    const procs0 = mode.processes().map((p) => [p.label, p.pid, processCpuS(p.pid)] as const);
    const wall0 = performance.now();
    const engineThreads0 = ENGINE_DETAIL ? new Map(mode.engines().map((pid) => [pid, threadCpuS(pid)])) : new Map<number, ReturnType<typeof threadCpuS>>();
    const ids = await Promise.all(
      sites.map(async (s) => {
        const a = await mode.api(`/crawl/${s.host}?fresh=true`, "POST");
        if (a.status !== 202) throw new Error(`${mode.name}: POST /crawl answered ${a.status}: ${a.text}`);
        return (a.json as { job: { id: number } }).job.id;
      }),
    );
    for (const id of ids) {
      for (;;) {
        const { job } = (await mode.api(`/jobs/${id}`)).json as { job: { state: string; error: string | null } };
        if (job.state === "done") break;
        if (job.state === "error") throw new Error(`${mode.name}: crawl job ${id} failed: ${job.error}`);
        await sleep(250);
      }
    }
    const pages = sites.reduce((n, s) => n + s.served.pages, 0) - pages0;
    const cpu = cpuOf(mode.processes()) - cpu0;
    figures.pages = pages;
    figures.perPage.push((1000 * cpu) / pages);
    figures.perPageWithEngines.push((1000 * (cpu + since(e0, mode.engines()))) / pages);
    // Where a round's CPU went, per page: each of Svc's processes and each engine (the machine's load beside it).
    const parts = [...procs0.map(([label, pid, c0]) => `${label} ${f2((1000 * (processCpuS(pid) - c0)) / pages)}`), ...by0.map(([name, pids, before]) => `${name} ${f2((1000 * since(before, pids)) / pages)}`)];
    figures.roundBy.push(`round ${r + 1}: ${parts.join(", ")} CPU-ms/page; ${f2((performance.now() - wall0) / 1000)} s; load ${f2(loadavg()[0] ?? NaN)}`);
    if (ENGINE_DETAIL) {
      // The engines' processes by what they are (a Postgres backend's title without its client's address and state).
      const byTitle = new Map<string, number>();
      for (const pid of mode.engines()) {
        const title = commandLine(pid).replace(/\d+\.\d+\.\d+\.\d+\(\d+\).*$/, "").slice(0, 60) || "(gone)";
        byTitle.set(title, (byTitle.get(title) ?? 0) + Math.max(0, (processCpuS(pid) || 0) - (e0.get(pid) ?? 0)));
      }
      // A multi-threaded engine (ClickHouse, the broker's JVM) by thread name: inserts apart from merges.
      const byThread = new Map<string, number>();
      for (const [pid, before] of engineThreads0) {
        if (before.size < 2) continue;
        const name = commandLine(pid).split(" ")[0]?.split("/").pop() ?? "?";
        for (const [tid, t] of threadCpuS(pid)) byThread.set(`${name}/${t.name}`, (byThread.get(`${name}/${t.name}`) ?? 0) + t.cpuS - (before.get(tid)?.cpuS ?? 0));
      }
      figures.roundBy.push(`  engine threads: ${[...byThread].filter(([, v]) => v > 0.005).sort((a, b) => b[1] - a[1]).map(([t, v]) => `${t} ${f2((1000 * v) / pages)}`).join("; ")}`);
      figures.roundBy.push(`  engines by process: ${[...byTitle].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([t, v]) => `${t} ${f2((1000 * v) / pages)}`).join("; ")}`);
    }
  }
  if (CENSUS_FLAG) {
    rmSync(CENSUS_FLAG, { force: true });
    await sleep(500); // the census looks every 100 ms and writes its report
  }
  figures.rssMb = mode.processes().reduce((sum, p) => sum + memMb(p.pid, "VmRSS"), 0);
  figures.rssPeakBy = mode.processes().map((p) => `${p.label} ${Math.round(memMb(p.pid, "VmHWM"))}`);
  return figures;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function print(name: string, f: Figures): void {
  for (const line of f.idleThreads) out(`  idle by thread, ${line}`);
  if (f.idleEnginesBy.length > 0) out(`  idle engines: ${f.idleEnginesBy.join(", ")} CPU-s/s`);
  out(`  idle, with the engines: ${f3(f.idleCpuPerS + f.idleEnginesPerS)} CPU-s/s; load average ${f2(f.idleLoad[0])} → ${f2(f.idleLoad[1])} over the idle time`);
  for (const line of f.roundBy) out(`  ${line}`);
  out(`  RSS MB idle: ${f.rssIdleBy.join(", ")}; peak (VmHWM) after the crawls: ${f.rssPeakBy.join(", ")}`);
  out(
    `${name.padEnd(12)} idle ${f3(f.idleCpuPerS)} CPU-s/s (${f.idleBy.join(", ")}; engines ${f3(f.idleEnginesPerS)}); ` +
      `crawl ${f.pages} pages a round: ${f.perPage.map(f2).join(" / ")} CPU-ms/page (with engines ${f.perPageWithEngines.map(f2).join(" / ")}); RSS after ${Math.round(f.rssMb)} MB`,
  );
}

async function main(): Promise<void> {
  out(`bench:distribution (${SMOKE ? "smoke" : "full"}): ${SITES} sites × ${SITE.paths.length} pages, ${ROUNDS} round(s) per mode, ${IDLE_S} s idle after ${SETTLE_S} s settling; node ${process.version}`);
  const sites: ServedSite[] = [];
  for (let i = 0; i < SITES; i++) sites.push(await serveFanSite(SITE, `127.0.0.${41 + i}`));
  const modes = (process.env.BENCH_MODES ?? "embedded,distributed").split(",");
  let embedded: Figures | null = null;
  let distributed: Figures | null = null;

  // Embedded: svc serve.
  if (modes.includes("embedded")) {
  const dir = await tempDataDir();
  const { env, port, adminPort } = await svcEnvFor(dir.dir, { ...ENV, SVC_BOOTSTRAP_KEY: KEY });
  const serve = spawnSvc(["serve"], env);
  try {
    await waitReady(serve, adminPort, 120_000);
    embedded = await measure({ name: "embedded", processes: () => [{ pid: serve.pid, label: "serve" }], engines: () => [], api: (path, method) => http(`http://127.0.0.1:${port}/api/v1${path}`, { key: KEY, ...(method ? { method } : {}), timeoutMs: 30_000 }) }, sites);
    print("embedded", embedded);
  } finally {
    serve.child.kill("SIGTERM");
    await serve.exited;
    await dir.remove();
  }
  }

  // Distributed: gateway, scheduler, crawler on Postgres, Kafka and ClickHouse (the time series), as the chart runs them.
  let pgServer: PostgresServer | null = null;
  let kafka: KafkaBroker | null = null;
  let clickhouse: ClickHouseServer | null = null;
  let cluster: Cluster | null = null;
  try {
    if (!modes.includes("distributed")) return;
    [pgServer, kafka, clickhouse] = await Promise.all([startPostgres(), startKafka(), startClickHouse()]);
    const url = await pgServer.createDatabase("bench_distribution");
    const seriesUrl = await clickhouse.createDatabase("bench_distribution");
    cluster = await startCluster({ postgresUrl: url, brokers: kafka.brokers, key: KEY, env: { ...ENV, SVC_CLICKHOUSE_URL: seriesUrl }, crawlers: 1, readyTimeoutMs: 120_000 });
    const c = cluster;
    const engines = [pgServer.port, dirname(kafka.logFile)] as const;
    const chPids = clickhouseProcesses(clickhouse.httpPort);
    distributed = await measure({ name: "distributed", engines: () => [...engineProcesses([engines[0]], [engines[1]]), ...chPids], enginesBy: () => ({ postgres: engineProcesses([engines[0]], []), kafka: engineProcesses([], [engines[1]]), clickhouse: chPids }), processes: () => [c.gateway, ...c.schedulers, ...c.crawlers].map((p) => ({ pid: p.proc.pid, label: p.label })), api: (path, method) => c.api(path, { ...(method ? { method } : {}), timeoutMs: 30_000 }) }, sites);
    print("distributed", distributed);
  } finally {
    await cluster?.close();
    await kafka?.stop();
    await clickhouse?.stop();
    pgServer?.stop();
    await Promise.all(sites.map((s) => s.close()));
  }

  if (!embedded || !distributed) return;
  out();
  // The target is the whole cluster's: the roles with Postgres, Kafka and ClickHouse (the embedded process holds its own).
  out(`idle, the whole cluster: ${f3(distributed.idleCpuPerS + distributed.idleEnginesPerS)} CPU-s/s with the engines (target ≤ 0.05), embedded ${f3(embedded.idleCpuPerS)}`);
  out(`distributed/embedded: idle CPU ${f2(distributed.idleCpuPerS / embedded.idleCpuPerS)}× (Svc's processes: ${f3(distributed.idleCpuPerS)} against ${f3(embedded.idleCpuPerS)} CPU-s/s), ` +
    `CPU per crawled page ${f2(median(distributed.perPage) / median(embedded.perPage))}× (medians; target ≤ 1.2×), with the engines ${f2(median(distributed.perPageWithEngines) / median(embedded.perPageWithEngines))}×`);
}

await main();
process.exit(0);
