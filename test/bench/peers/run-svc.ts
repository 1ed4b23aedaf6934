/**
 * bench:crawl's Svc runner: starts the real `svc serve` (node bin/svc.js serve) on a fresh data
 * directory, crawls the site through the REST API and measures the server process, not itself.
 *
 *   POST /api/v1/sites {host}               the site, as a user adds it
 *   POST /api/v1/crawl/{host}               202 {job}; 404 means the endpoint is not there yet
 *   GET  /api/v1/jobs/{id}                  every 50 ms (not poll_after_s) until done or error: the end is
 *                                           seen within 50 ms of the job's (at 200 ms, up to 6 % of a 3 s crawl)
 *   GET  /api/v1/sites                      meanwhile, one request at a time every 50 ms: latency
 *   GET  /api/v1/crawl/{host}?limit=200     paged through, to count the pages Svc reports
 *   GET  /api/v1/links/{host}               broken links
 *
 * The server's CPU over the crawl (POST to done) is utime + stime from /proc/<pid>/stat, its peak
 * RSS is VmHWM from /proc/<pid>/status. Run from the repository root:
 *
 *   node --import tsx test/bench/peers/run-svc.ts --url http://127.0.0.1:PORT/ [--concurrency 16] [--warm | --warm-crawls N]
 *
 * --warm crawls the site once first (--warm-crawls N: N times), untimed, in the same server, and times the next crawl
 * (`POST /crawl/{host}?fresh=true`): a running server's figure. nginx then counts both crawls'
 * requests. The server's CPU is also given per thread (/proc/<pid>/task), exact.
 *
 * To see what V8 does in the timed crawl: BENCH_NODE_ARGS (node flags for the server, e.g.
 * "--trace-opt --trace-deopt" or "--trace-gc") and BENCH_SERVER_OUTPUT=<dir>, where the server's
 * stdout and stderr go, cut where the timed crawl starts and ends (before.log, timed.log).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CONFIG_FIELDS } from "../../../runtime/index.ts";
import { checkoutLauncher, http, spawnSvc, svcEnvFor, tempDataDir, waitReady, type Answer, type SvcLauncher } from "../../harness/svc-process.ts";
import { cpuSeconds, monotonicUs, printReport, runArgs, sample } from "./protocol.ts";

const KEY = "svc_GdsceXh7HUZbYlpmTxKCpMo8mzuplp5iB4IqHppZ";
const POLL_MS = 50;
const LATENCY_EVERY_MS = 50;
const PROBE_COST_REQUESTS = 50;
// A start under tsx on a loaded 2-core machine took over 60 s (the parse threads load and warm up first).
const READY_TIMEOUT_MS = 180_000;

const { url, concurrency, deadlineMs, profileDir, warmCrawls } = runArgs();
const host = new URL(url).host;
const deadline = Date.now() + deadlineMs;
/** Politeness for the loopback site: N connections, no delay (runtime/config-parse.ts's format). */
const CRAWL_OVERRIDES = `127.0.0.1=${concurrency}/0`;

const TICKS_PER_S = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system, all threads) of another process so far. */
function processCpuS(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S; // fields 14 and 15 of proc(5)
}

/** CPU ticks (user + system) of each thread of another process, by thread id. */
function threadTicks(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * CPU seconds each thread spent between two readings, busiest first: exact (the kernel's counts),
 * where a profile's samples also count the time a thread waited for a core. Node names no thread,
 * so the process's own (its pid) is "main" and the rest are told apart by what they spent.
 */
function threadCpuS(pid: number, before: Map<number, number>, after: Map<number, number>): { thread: string; cpuS: number }[] {
  return [...after]
    .map(([tid, ticks]) => ({ thread: tid === pid ? "main" : String(tid), cpuS: (ticks - (before.get(tid) ?? 0)) / TICKS_PER_S }))
    .filter((t) => t.cpuS > 0)
    .sort((a, b) => b.cpuS - a.cpuS);
}

/** A memory figure of another process from /proc/<pid>/status (VmHWM: peak RSS so far; VmRSS: now), MB. */
function processMemMb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Settings passed only when this version of Svc knows them: an older one would refuse (or ignore) an unknown SVC_ name. */
function ifKnown(settings: Record<string, string>): Record<string, string> {
  const known = new Set(CONFIG_FIELDS.map((f) => f.env));
  return Object.fromEntries(Object.entries(settings).filter(([name]) => known.has(name)));
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

type Api = (path: string, init?: { method?: string; body?: unknown }) => Promise<Answer>;

interface Job {
  readonly id: number;
  readonly state: string;
  readonly self?: string;
  readonly error?: unknown;
}

/** GET /sites one request at a time, every 50 ms, until stopped: the API's latency during the crawl. */
function startLatencyProbe(api: Api): { stop(): Promise<{ requests: number; failed: number; p50Ms: number | null; p99Ms: number | null }> } {
  let running = true;
  let failed = 0;
  const latencies: number[] = [];
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      const ok = await api("/api/v1/sites").then((r) => r.status === 200, () => false);
      if (ok) latencies.push(performance.now() - t);
      else failed++;
      await sleep(LATENCY_EVERY_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { requests: latencies.length, failed, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
    },
  };
}

/** Polls the job every 200 ms until done or error, or until the deadline. */
async function waitJob(api: Api, first: Job, isDead: () => string | null): Promise<{ job: Job; polls: number; timedOut: boolean }> {
  const self = first.self ?? `/api/v1/jobs/${first.id}`;
  let job = first;
  let polls = 0;
  while (job.state !== "done" && job.state !== "error") {
    if (Date.now() > deadline) return { job, polls, timedOut: true };
    const dead = isDead();
    if (dead) throw new Error(dead);
    await sleep(POLL_MS);
    const r = await api(self);
    polls++;
    if (r.status !== 200) throw new Error(`GET ${self} answered ${r.status}: ${r.text}`);
    job = (r.json as { job: Job }).job;
  }
  return { job, polls, timedOut: false };
}

/** BENCH_SERVER_OUTPUT: the server's stdout then stderr so far, each cut where it stood at the timed crawl's start. */
function keepOutput(at: { readonly out: number; readonly err: number }): void {
  const dir = process.env.BENCH_SERVER_OUTPUT;
  if (!dir) return;
  const [out, err] = [svc.stdout(), svc.stderr()];
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "before.log"), out.slice(0, at.out) + err.slice(0, at.err));
  writeFileSync(join(dir, "timed.log"), out.slice(at.out) + err.slice(at.err));
}

/** Server CPU seconds one API request costs, timed on the idle server after the crawl. */
async function cpuPerRequestS(api: Api, pid: number, jobPath: string): Promise<number> {
  const before = processCpuS(pid);
  for (let i = 0; i < PROBE_COST_REQUESTS; i++) {
    await api("/api/v1/sites");
    await api(jobPath);
  }
  return (processCpuS(pid) - before) / (2 * PROBE_COST_REQUESTS);
}

/** The fields of GET /crawl/{host}'s pages[] used here (gateway/operations/crawl.ts). */
interface CrawlPage {
  readonly status: number;
  readonly content_type: string;
  readonly skipped: string | null;
}

/** What Svc reports about the finished crawl: its URLs (paged through), summary and broken links. */
async function crawlResults(api: Api) {
  let urls = 0;
  let pages = 0;
  let summary: unknown = null;
  let answer = await api(`/api/v1/crawl/${host}?limit=200`);
  const crawlStatus = answer.status;
  for (let i = 0; answer.status === 200 && i < 1000; i++) {
    const body = answer.json as { pages: CrawlPage[]; summary: unknown; page: { next_offset: number | null } };
    urls += body.pages.length;
    pages += body.pages.filter((p) => p.status === 200 && p.content_type.startsWith("text/html") && !p.skipped).length;
    summary ??= body.summary;
    if (body.page.next_offset === null) break;
    answer = await api(`/api/v1/crawl/${host}?limit=200&offset=${body.page.next_offset}`);
  }
  const links = await api(`/api/v1/links/${host}?limit=200`);
  const body = links.status === 200 ? (links.json as { broken: { url: string }[]; counts: Record<string, number> }) : null;
  return {
    urls,
    pages,
    summary,
    broken: body?.counts.broken ?? body?.broken.length ?? 0,
    brokenSample: sample((body?.broken ?? []).map((b) => b.url)),
    answers: { crawl: crawlStatus, links: links.status },
  };
}

const data = await tempDataDir();
const { env, port, adminPort } = await svcEnvFor(data.dir, {
  SVC_BOOTSTRAP_KEY: KEY,
  SVC_ALLOW_PRIVATE_TARGETS: "1",
  SVC_CRAWL_OVERRIDES: CRAWL_OVERRIDES,
  // Only the crawl the bench starts: no periodic check of the newly added site.
  SVC_PLAN_EVERY_S: "0",
  // A crawl is measured, not the minute-later second look at a severe failure.
  SVC_CONFIRM_DELAY_MS: "0",
  // The bench's polls and latency probes are thousands of requests; a crawl counts as 3 checks.
  SVC_RATE_PER_HOUR: "10000000",
  SVC_PLAN_CHECKS_PER_DAY: "1000000",
  // The plan's crawl size (500 URLs by default) would cut the site short; the bench wants it whole.
  ...ifKnown({ SVC_PLAN_CRAWL_PAGES: "100000" }),
  // The generated scale site's pages are all /p/{n}: one URL pattern, which the trap rule would cut at 100.
  ...(process.env.BENCH_SITE?.startsWith("scale-") ? { SVC_CRAWL_MAX_PER_PATTERN: "1000000" } : {}),
  // The harness shortens the parse threads' warm-up for tests; the bench runs what users run.
  ...ifKnown({ SVC_PARSE_WARMUP_PAGES: CONFIG_FIELDS.find((f) => f.env === "SVC_PARSE_WARMUP_PAGES")?.default ?? "" }),
});
// With --profile-dir, every thread of the server writes a CPU profile there when it ends (the bench
// cuts them to the crawl's window): --cpu-prof is refused in NODE_OPTIONS, so it goes on the command.
const launcher: SvcLauncher = (args, svcEnv) => {
  const l = checkoutLauncher(args, svcEnv);
  const flags = [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)];
  return { ...l, argv: [...flags, ...l.argv] };
};
const svc = spawnSvc(["serve"], env, launcher);
const api: Api = (path, init = {}) => http(`http://127.0.0.1:${port}${path}`, { ...init, key: KEY, timeoutMs: 30_000 });
const unavailable = { tool: "svc", available: false, crawlWallS: 0, crawlCpuS: 0, peakRssMb: null, pagesReported: 0, brokenInternal: 0, brokenSample: [], connectionErrors: 0, timedOut: false, failure: null };

try {
  await waitReady(svc, adminPort, READY_TIMEOUT_MS);
  const added = await api("/api/v1/sites", { method: "POST", body: { host } });
  if (added.status !== 201 && added.status !== 200) throw new Error(`POST /api/v1/sites answered ${added.status}: ${added.text}`);

  // --warm: the same crawl, untimed, in this server first (its code then compiled, as in a running server).
  const warmingCrawlsS: number[] = [];
  for (let i = 0; i < warmCrawls; i++) {
    const t = performance.now();
    const first = await api(`/api/v1/crawl/${host}${i > 0 ? "?fresh=true" : ""}`, { method: "POST" });
    const job = (first.json as { job?: Job } | null)?.job;
    if (first.status !== 202 || !job) throw new Error(`POST /api/v1/crawl/${host} (warming crawl ${i + 1}) answered ${first.status}: ${first.text}`);
    const done = await waitJob(api, job, () => (svc.exit() ? `svc exited during warming crawl ${i + 1}; stderr:\n${svc.stderr()}` : null));
    if (done.job.state !== "done") throw new Error(`warming crawl ${i + 1} ended ${done.job.state}: ${JSON.stringify(done.job.error ?? null)}`);
    warmingCrawlsS.push((performance.now() - t) / 1000);
  }
  const warm = warmCrawls > 0;
  const outputAt = { out: svc.stdout().length, err: svc.stderr().length };
  const hwmBeforeCrawlMb = processMemMb(svc.pid, "VmHWM");
  const cpu0 = processCpuS(svc.pid);
  const threads0 = threadTicks(svc.pid);
  const runnerCpu0 = cpuSeconds();
  const t0 = performance.now();
  const fromUs = monotonicUs();
  const started = await api(`/api/v1/crawl/${host}${warm ? "?fresh=true" : ""}`, { method: "POST" });
  if (started.status === 404) {
    process.stdout.write("svc: crawl endpoint not available\n");
    printReport({ ...unavailable, extra: { answer: started.json ?? started.text } });
  } else {
    if (started.status !== 202 && started.status !== 200) throw new Error(`POST /api/v1/crawl/${host} answered ${started.status}: ${started.text}`);
    const first = (started.json as { job?: Job }).job;
    if (!first) throw new Error(`POST /api/v1/crawl/${host} answered no job: ${started.text}`);

    const probe = startLatencyProbe(api);
    const dead = (): string | null => {
      const exit = svc.exit();
      return exit ? `svc exited during the crawl (${JSON.stringify(exit)}); stderr:\n${svc.stderr()}` : null;
    };
    // The probe stops after the crawl's figures are taken (its last request would add to them),
    // or at once when the wait fails, so that the process can end.
    const { job, polls, timedOut } = await waitJob(api, first, dead).catch(async (err: unknown) => {
      await probe.stop();
      throw err;
    });
    const crawlWallS = (performance.now() - t0) / 1000;
    keepOutput(outputAt);
    const toUs = monotonicUs();
    const crawlCpuS = processCpuS(svc.pid) - cpu0;
    const threads = threadCpuS(svc.pid, threads0, threadTicks(svc.pid));
    const runnerCpuS = cpuSeconds() - runnerCpu0;
    const latency = await probe.stop();
    const peakRssMb = processMemMb(svc.pid, "VmHWM");
    const rssAtDoneMb = processMemMb(svc.pid, "VmRSS");
    const probeCpuS = (await cpuPerRequestS(api, svc.pid, first.self ?? `/api/v1/jobs/${first.id}`)) * (latency.requests + latency.failed + polls + 1);
    const results = job.state === "done" ? await crawlResults(api) : null;

    printReport({
      tool: "svc",
      available: true,
      crawlWallS,
      crawlCpuS,
      peakRssMb,
      pagesReported: results?.pages ?? 0,
      brokenInternal: results?.broken ?? 0,
      brokenSample: results?.brokenSample ?? [],
      connectionErrors: 0,
      timedOut,
      failure: job.state === "error" ? `job ${job.id} ended in error: ${JSON.stringify(job.error ?? null)}` : null,
      extra: {
        overrides: CRAWL_OVERRIDES,
        windowUs: [fromUs, toUs],
        settings: Object.fromEntries(Object.entries(env).filter(([k]) => !["SVC_DATA_DIR", "SVC_PORT", "SVC_ADMIN_PORT", "SVC_BOOTSTRAP_KEY"].includes(k))),
        memory: { hwmBeforeCrawlMb, rssAtDoneMb },
        job: { id: job.id, state: job.state, error: job.error ?? null },
        sitesLatency: latency,
        polls,
        threads,
        warm: warm ? { firstCrawlS: warmingCrawlsS[0] ?? null, warmingCrawlsS } : null,
        probeCpuS,
        crawlCpuNetOfProbesS: crawlCpuS - probeCpuS,
        runnerCpuS,
        urlsReported: results?.urls ?? null,
        answers: results?.answers ?? null,
        summary: results?.summary ?? null,
      },
    });
  }
} finally {
  if (svc.exit() === null) svc.child.kill("SIGTERM");
  await svc.waitExit(20_000).catch(() => svc.child.kill("SIGKILL"));
  await data.remove();
}
