/**
 * bench:crawl-scale: Svc's whole-site crawl at 1,000, 10,000 and 100,000 pages, in one run.
 *
 * The site is generated (test/bench/sites/scale-site.ts: about 17 KB of HTML a page, a tree of
 * fan-out 50 plus navigation and related links, near-duplicate clusters and broken links planted)
 * and served on 127.0.0.1 by its own process. For each size a fresh `svc serve` (embedded mode,
 * its own data directory) crawls it through the REST API, as a user would:
 *
 *   POST /api/v1/sites {host}, then POST /api/v1/crawl/{host}, GET /api/v1/jobs/{id} every 500 ms
 *
 * Figures of the server process: pages/s (pages the crawl summary counts, over the wall time from
 * POST to done), CPU-ms per page (utime + stime from /proc, parse threads included, over the same
 * span), peak RSS (the largest VmRSS sampled every 500 ms during the crawl: VmHWM would count the
 * start's warm-up) and RSS 10 s after the job, each against the idle RSS before the crawl. The report's
 * findings are checked against what the site planted (pages, broken links, near-duplicate
 * clusters) and printed alongside.
 *
 * The cluster mode does the same on `svc gateway`, `svc scheduler` and ONE `svc crawler` (Postgres,
 * Kafka and ClickHouse started by the harness, crawl pages in ClickHouse): its figures of memory are
 * the crawler node's, CPU per page both of all three roles and of the crawler alone. Where the
 * memory is (main thread's V8 heap, external memory, PGlite's WASM heap) is read from the measured
 * process's /metrics at idle, when the job is done and after.
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:crawl-scale                    1,000, 10,000 and 100,000 pages, embedded and cluster
 *   npm run bench:crawl-scale -- --smoke         1,000 pages only (also when CI=true)
 *
 * Overrides (environment): BENCH_SIZES (comma-separated, e.g. 1000,10000), BENCH_MODES (embedded,
 * cluster: either or both), BENCH_CONNECTIONS (8), BENCH_MALLOC_ARENA_MAX (2, as the launchers set
 * it; "default": glibc's). Svc runs with --expose-gc, as the launchers start it.
 * Figures go to .tmp/bench-crawl-scale.json too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { memMb, processCpuS, smapsMb } from "./proc.ts";
import { loadavg } from "node:os";
import { startCluster, type Cluster, type RoleProcess } from "../harness/cluster.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { startKafka, type KafkaBroker } from "../harness/kafka.ts";
import { startPostgres, type PostgresServer } from "../harness/postgres.ts";
import { http, REPO_ROOT, spawnSvc, svcEnvFor, tempDataDir, waitReady, type Answer } from "../harness/svc-process.ts";
import { manifest } from "./sites/scale-site.ts";
import { writeBenchOutput } from "./bench-output.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const SIZES = (process.env.BENCH_SIZES ?? (SMOKE ? "1000" : "1000,10000,100000")).split(",").map((s) => Number(s.trim()));
for (const n of SIZES) if (!Number.isInteger(n) || n < 10) throw new Error(`BENCH_SIZES: ${JSON.stringify(process.env.BENCH_SIZES)} is not a list of sizes`);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const MODES = (process.env.BENCH_MODES ?? "embedded,cluster").split(",").map((m) => m.trim()) as Mode[];
for (const m of MODES) if (m !== "embedded" && m !== "cluster") throw new Error(`BENCH_MODES: ${JSON.stringify(process.env.BENCH_MODES)} names a mode other than embedded and cluster`);
const KEY = "svc_GdsceXh7HUZbYlpmTxKCpMo8mzuplp5iB4IqHppZ";
const OUT_FILE = join(REPO_ROOT, ".tmp/bench-crawl-scale.json");
const SETTLE_MS = 10_000;
const log = (line: string): void => void process.stdout.write(`${line}\n`);

/** The generated site in its own process; resolves once it listens. */
async function startSite(pages: number): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "test/bench/sites/scale-site.ts"), String(pages)], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (b: Buffer) => {
      out += b.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on("exit", (code) => reject(new Error(`the site exited (${code})`)));
  });
  return { port, child };
}

/** Where the server's memory is, from its /metrics: main thread's V8 heap, external memory (Buffers, ArrayBuffers), PGlite's WASM heap, in MB. */
interface Breakdown {
  /** V8's heap as committed (what RSS holds) and as used by live objects at the last GC. */
  readonly heapMb: number;
  readonly heapUsedMb: number;
  readonly externalMb: number;
  readonly wasmMb: number;
  /** Resident memory by mapping (test/bench/proc.ts smapsMb): main malloc arena, thread arenas, other anonymous, file-backed; threads. */
  readonly smaps: ReturnType<typeof smapsMb>;
}

async function breakdown(adminPort: number, pid: number): Promise<Breakdown> {
  const text = (await http(`http://127.0.0.1:${adminPort}/metrics`, { timeoutMs: 30_000 })).text;
  const value = (name: string): number => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, "m").exec(text);
    return m ? Math.round(Number(m[1]) / 1048576) : NaN;
  };
  return { heapMb: value("nodejs_heap_size_total_bytes"), heapUsedMb: value("nodejs_heap_size_used_bytes"), externalMb: value("nodejs_external_memory_bytes"), wasmMb: value("svc_store_wasm_heap_bytes"), smaps: smapsMb(pid) };
}

type Mode = "embedded" | "cluster";

interface Figures {
  readonly size: number;
  readonly mode: Mode;
  readonly state: string;
  readonly pages: number;
  readonly wallS: number;
  readonly pagesPerS: number;
  /** CPU of every Svc process (`svc serve`, or gateway + scheduler + crawler; not the engines) per page. */
  readonly cpuMsPerPage: number;
  /** CPU of the measured process alone (the crawler node in the cluster mode) per page. */
  readonly measuredCpuMsPerPage: number;
  readonly idleRssMb: number;
  readonly peakRssMb: number;
  /** The job's progress (%) at the peak sample: ≤ 95 while crawling, the analysis after. */
  readonly peakProgress: number;
  readonly afterRssMb: number;
  /** Main heap, external and WASM heap at idle, near the peak (read when it last grew by 10 MB; null if it never did), when the job ended and after it settled. */
  readonly memory: { readonly idle: Breakdown; readonly peak: Breakdown | null; readonly done: Breakdown; readonly after: Breakdown };
  readonly found: { broken: number; clusters: number; nearPairs: number; truncatedBy: unknown };
  readonly planted: { broken: number; clusters: number };
}

/** The settings of every Svc process of the bench (the embedded one, or each role of the cluster). */
function svcSettings(size: number): Record<string, string> {
  return {
    SVC_BOOTSTRAP_KEY: KEY,
    SVC_ALLOW_PRIVATE_TARGETS: "1",
    SVC_CRAWL_OVERRIDES: `127.0.0.1=${CONNECTIONS}/0`,
    SVC_PLAN_EVERY_S: "0",
    SVC_CONFIRM_DELAY_MS: "0",
    SVC_RATE_PER_HOUR: "10000000",
    SVC_PLAN_CHECKS_PER_DAY: "1000000",
    SVC_PLAN_CRAWL_PAGES: String(size + 1000),
    // Every page is /p/{number}: one URL pattern, not a trap.
    SVC_CRAWL_MAX_PER_PATTERN: "1000000",
    SVC_CRAWL_MAX_MINUTES: "240",
    SVC_PARSE_WARMUP_PAGES: "100",
    SVC_BROWSER: "off",
    // As the launchers run Svc (the image, the Helm chart, npm start: docs/operations.md, Memory): two
    // malloc arenas and --expose-gc. BENCH_MALLOC_ARENA_MAX=default leaves glibc's own (8 per core).
    ...(process.env.BENCH_MALLOC_ARENA_MAX === "default" ? {} : { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX ?? "2" }),
    NODE_OPTIONS: "--expose-gc",
  };
}

/**
 * What a mode gives the measurement: the REST API, the process whose memory is measured (`svc
 * serve`, or the one `svc crawler`), every Svc process whose CPU counts, and how to stop it all.
 */
interface Target {
  readonly api: (path: string, init?: { method?: string; body?: unknown }) => Promise<Answer>;
  /** The process measured for RSS, and its admin port (for /metrics). */
  readonly measured: { readonly pid: number; readonly adminPort: number; readonly exit: () => unknown; readonly stderr: () => string };
  /** Every Svc process (CPU per page counts them all); the measured one only in the embedded mode. */
  readonly processes: () => number[];
  close(): Promise<void>;
}

async function embedded(size: number): Promise<Target> {
  const data = await tempDataDir();
  const { env, port, adminPort } = await svcEnvFor(data.dir, svcSettings(size));
  const svc = spawnSvc(["serve"], env);
  const close = async () => {
    if (svc.exit() === null) svc.child.kill("SIGTERM");
    await svc.waitExit(30_000).catch(() => svc.child.kill("SIGKILL"));
    await data.remove();
  };
  try {
    await waitReady(svc, adminPort, 120_000);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    api: (path, init = {}) => http(`http://127.0.0.1:${port}${path}`, { ...init, key: KEY, timeoutMs: 60_000 }),
    measured: { pid: svc.pid, adminPort, exit: () => svc.exit(), stderr: () => svc.stderr() },
    processes: () => [svc.pid],
    close,
  };
}

/** The engines of the cluster mode, started once for every size (each size gets databases of its own). */
let engines: { pg: PostgresServer; kafka: KafkaBroker; ch: ClickHouseServer } | null = null;

async function stopEngines(): Promise<void> {
  if (!engines) return;
  await engines.ch.stop();
  // Killed, not stopped: its data is thrown away, and a graceful stop of a loaded broker took minutes.
  await engines.kafka.kill();
  engines.pg.stop();
  engines = null;
}

/** A gateway, a scheduler and ONE crawler on Postgres, Kafka and ClickHouse (crawl pages go to ClickHouse). */
async function cluster(size: number): Promise<Target> {
  if (!engines) {
    const [pg, kafka, ch] = await Promise.all([startPostgres(), startKafka(), startClickHouse()]);
    engines = { pg, kafka, ch };
  }
  const name = `scale_${size}_${Date.now()}`;
  const [postgresUrl, clickhouseUrl] = await Promise.all([engines.pg.createDatabase(name), engines.ch.createDatabase(name)]);
  const c: Cluster = await startCluster({
    postgresUrl,
    brokers: engines.kafka.brokers,
    key: KEY,
    crawlers: 1,
    readyTimeoutMs: 180_000,
    env: { ...svcSettings(size), SVC_CLICKHOUSE_URL: clickhouseUrl, SVC_KAFKA_TOPIC_PREFIX: `${name}.`, SVC_LOG_LEVEL: "warn", SVC_CRAWL_MIN_DELAY_MS: "0" },
  });
  const crawler = c.crawlers[0] as RoleProcess;
  return {
    // The cluster's api() is under /api/v1 already.
    api: (path, init = {}) => c.api(path.replace(/^\/api\/v1/, ""), { ...init, timeoutMs: 60_000 }),
    measured: { pid: crawler.proc.pid, adminPort: crawler.adminPort, exit: () => crawler.proc.exit(), stderr: () => crawler.proc.stderr() },
    processes: () => [c.gateway, ...c.schedulers, ...c.crawlers].map((p) => p.proc.pid),
    close: () => c.close(),
  };
}

async function measure(size: number, mode: Mode): Promise<Figures> {
  const site = await startSite(size);
  const host = `127.0.0.1:${site.port}`;
  let target: Target | null = null;
  try {
    target = await (mode === "embedded" ? embedded(size) : cluster(size));
    const { api, measured } = target;
    const added = await api("/api/v1/sites", { method: "POST", body: { host } });
    if (added.status !== 201 && added.status !== 200) throw new Error(`POST /sites answered ${added.status}: ${added.text}`);
    await sleep(3000);
    const idleRssMb = memMb(measured.pid, "VmRSS");
    const idleMemory = await breakdown(measured.adminPort, measured.pid);
    const pids = target.processes();
    const cpuOf = () => pids.reduce((sum, pid) => sum + processCpuS(pid), 0);
    const cpu0 = cpuOf();
    const crawlerCpu0 = processCpuS(measured.pid);
    const t0 = performance.now();
    const started = await api(`/api/v1/crawl/${host}`, { method: "POST" });
    if (started.status !== 202) throw new Error(`POST /crawl answered ${started.status}: ${started.text}`);
    let job = (started.json as { job: { id: number; state: string } }).job;
    let peakRssMb = idleRssMb;
    // The job's progress when the peak was sampled: up to 95 crawling, the whole-crawl analysis after.
    let peakProgress = 0;
    // Where the memory is near the peak: read again whenever the peak has grown by 10 MB since.
    let peakMemory: Breakdown | null = null;
    let peakMemoryAt = 0;
    while (job.state !== "done" && job.state !== "error") {
      const rss = memMb(measured.pid, "VmRSS");
      if (rss > peakRssMb) {
        peakRssMb = rss;
        peakProgress = (job as { progress?: number }).progress ?? 0;
        if (rss - peakMemoryAt >= 10) {
          peakMemory = await breakdown(measured.adminPort, measured.pid).catch(() => peakMemory);
          peakMemoryAt = rss;
        }
      }
      const exit = measured.exit();
      if (exit) throw new Error(`the measured process exited during the crawl (${JSON.stringify(exit)}): ${measured.stderr().slice(-2000)}`);
      await sleep(500);
      job = ((await api(`/api/v1/jobs/${job.id}`)).json as { job: typeof job }).job;
    }
    const wallS = (performance.now() - t0) / 1000;
    const cpuS = cpuOf() - cpu0;
    const crawlerCpuS = processCpuS(measured.pid) - crawlerCpu0;
    peakRssMb = Math.max(peakRssMb, memMb(measured.pid, "VmRSS"));
    const doneMemory = await breakdown(measured.adminPort, measured.pid);
    await sleep(SETTLE_MS);
    const afterRssMb = memMb(measured.pid, "VmRSS");
    const afterMemory = await breakdown(measured.adminPort, measured.pid);
    const crawl = job.state === "done" ? ((await api(`/api/v1/crawl/${host}?limit=1`)).json as { summary: Record<string, unknown> }) : null;
    const s = crawl?.summary ?? {};
    const pages = Number(s["pages"] ?? 0);
    const m = manifest(size);
    return {
      size,
      mode,
      state: job.state,
      pages,
      wallS: round(wallS),
      pagesPerS: round(pages / wallS),
      cpuMsPerPage: round(pages > 0 ? (cpuS * 1000) / pages : 0),
      measuredCpuMsPerPage: round(pages > 0 ? (crawlerCpuS * 1000) / pages : 0),
      idleRssMb: Math.round(idleRssMb),
      peakRssMb: Math.round(peakRssMb),
      peakProgress,
      afterRssMb: Math.round(afterRssMb),
      memory: { idle: idleMemory, peak: peakMemory, done: doneMemory, after: afterMemory },
      found: { broken: Number(s["broken_links"] ?? 0), clusters: Number(s["near_duplicate_clusters"] ?? 0), nearPairs: Number(s["near_duplicates"] ?? 0), truncatedBy: s["truncated_by"] ?? null },
      planted: { broken: m.broken, clusters: m.clusters.size },
    };
  } finally {
    await target?.close();
    site.child.kill("SIGTERM");
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

const results: Figures[] = [];
try {
  for (const size of SIZES) {
    for (const mode of MODES) {
      log(`crawling ${size} pages (${mode})…`);
      const f = await measure(size, mode);
      results.push(f);
      log(JSON.stringify(f));
    }
  }
} finally {
  await stopEngines();
}
const load = loadavg().map((l) => l.toFixed(1)).join(", ");
log("");
log(`load average at the end: ${load}; peak and after are of ${MODES.includes("cluster") ? "`svc serve` (embedded) and the crawler node (cluster)" : "`svc serve`"}`);
log("pages    mode      state  crawled  pages/s  CPU-ms/page (measured)  idle MB  peak MB (+idle)  after MB (+idle)  heap/ext/wasm after MB  broken found/planted  clusters found/planted");
for (const f of results) {
  const a = f.memory.after;
  log(
    `${String(f.size).padEnd(8)} ${f.mode.padEnd(9)} ${f.state.padEnd(6)} ${String(f.pages).padStart(7)}  ${String(f.pagesPerS).padStart(7)}  ${`${f.cpuMsPerPage} (${f.measuredCpuMsPerPage})`.padStart(22)}  ${String(f.idleRssMb).padStart(7)}  ${`${f.peakRssMb} (+${f.peakRssMb - f.idleRssMb})`.padStart(15)}  ${`${f.afterRssMb} (+${f.afterRssMb - f.idleRssMb})`.padStart(16)}  ${`${a.heapMb}/${a.externalMb}/${a.wasmMb}`.padStart(22)}  ${`${f.found.broken}/${f.planted.broken}`.padStart(21)}  ${`${f.found.clusters}/${f.planted.clusters}`.padStart(23)}`,
  );
}
for (const mode of MODES) {
  const of = results.filter((f) => f.mode === mode);
  const first = of[0];
  const last = of[of.length - 1];
  if (first && last && first !== last && first.cpuMsPerPage > 0) log(`${mode}: CPU-ms per page at ${last.size} / at ${first.size}: ${round(last.cpuMsPerPage / first.cpuMsPerPage)}× (measured process ${round(last.measuredCpuMsPerPage / first.measuredCpuMsPerPage)}×)`);
}
await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
await writeFile(OUT_FILE, JSON.stringify({ at: new Date().toISOString(), smoke: SMOKE, connections: CONNECTIONS, load, results }, null, 2));
{
  // The largest crawl of each mode: the crawler node alone in the cluster mode, all of `svc serve` embedded.
  const largest = (mode: string) => results.filter((f) => f.mode === mode).at(-1);
  const cluster = largest("cluster");
  const embedded = largest("embedded");
  writeBenchOutput({
    bench: "crawl-scale",
    mode: SMOKE ? "smoke" : "full",
    figures: {
      pages: (cluster ?? embedded)?.pages ?? null,
      cpu_ms_per_page: (embedded ?? cluster)?.cpuMsPerPage ?? null,
      crawler_cpu_ms_per_page: cluster ? cluster.measuredCpuMsPerPage : (embedded?.measuredCpuMsPerPage ?? null),
      peak_rss_bytes: (cluster ?? embedded) ? ((cluster ?? embedded)!.peakRssMb * 1024 * 1024) : null,
    },
  });
}
process.exit(0);
