/**
 * bench:analyze: wall time and CPU of one site analysis through the running service, from
 * POST /api/v1/analyze to the job being done, on a 20-page fixture site (home + 19 internal pages
 * of 30-60 KB HTML, robots.txt, sitemap.xml) served on loopback by a child process.
 *
 *   cold   the first analysis after the service started (fresh robots, DNS and connection caches,
 *          code not yet optimised by the JIT)
 *   warm   repeat analyses with fresh: true (N rounds)
 *
 * The service is the whole work path in this process (startTestGateway: gateway, gRPC scheduler,
 * bus, crawler worker, PGlite). The site runs in a child process, so process.cpuUsage() here is
 * the service's only (plus this script's polling of GET /api/v1/jobs/{id} every 10 ms, which goes
 * through the gateway like any client's). The site counts what it serves, by path, so the number of
 * pages fetched is the crawler's real one.
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:analyze                 full: 1 cold + 10 warm rounds
 *   npm run bench:analyze -- --smoke      smoke: 1 cold + 2 warm rounds (also when CI=true)
 *
 * Override (environment): BENCH_ROUNDS (warm rounds). SVC_* names are left alone: loadConfig
 * would only warn of a misspelt one.
 */
import { availableParallelism, cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { writeBenchOutput } from "./bench-output.ts";
import { PAGE_PATHS, startTwentyPageSite, type ServedRequest, type SiteStats, type TwentyPageSite } from "./sites/twenty-pages.ts";

// ---------------------------------------------------------------------------------------------
// Settings

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

const WARM_ROUNDS = envInt("BENCH_ROUNDS", SMOKE ? 2 : 10, 1);
const POLL_MS = 10;
const JOB_DEADLINE_MS = 60_000;
const TARGET_MS = 1000;

/** The service's settings: politeness overridden for a loopback fixture, limits out of the way. */
const SERVICE_ENV = {
  SVC_ALLOW_PRIVATE_TARGETS: "1",
  SVC_PAGE_SAMPLE: "20",
  SVC_CRAWL_MIN_DELAY_MS: "0",
  SVC_CRAWL_CONNECTIONS_PER_HOST: "8",
  SVC_RATE_PER_HOUR: "10000000",
  SVC_PLAN_CHECKS_PER_DAY: "1000000",
};

// ---------------------------------------------------------------------------------------------
// One analysis

/** Epoch milliseconds with sub-millisecond resolution, comparable with the site process's. */
const nowMs = () => performance.timeOrigin + performance.now();

interface Observed {
  readonly atMs: number;
  readonly state: string;
  readonly step: string | null;
  readonly progress: number;
}

interface Round {
  readonly label: string;
  readonly jobId: number;
  readonly state: string;
  readonly error: string | null;
  readonly wallMs: number;
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly polls: number;
  readonly startMs: number;
  readonly doneMs: number;
  readonly observed: Observed[];
  readonly site: SiteStats;
}

const cpuMs = (r: Round) => r.cpuUserMs + r.cpuSystemMs;
const isPage = (q: ServedRequest) => q.status === 200 && PAGE_PATHS.includes(q.path);
const pagesOf = (r: Round) => r.site.requests.filter(isPage).length;
const pagesPerS = (r: Round) => (r.wallMs > 0 ? (pagesOf(r) * 1000) / r.wallMs : 0);

async function analyse(gw: TestGateway, site: TwentyPageSite, label: string): Promise<Round> {
  await site.take(); // anything served before this round is not its
  const cpu0 = process.cpuUsage();
  const startMs = nowMs();
  const res = await gw.call("POST", "/api/v1/analyze", { body: { host: site.host, fresh: true } });
  if (res.statusCode !== 202) throw new Error(`POST /api/v1/analyze answered ${res.statusCode}: ${res.body}`);
  const jobId = Number(res.json().job.id);
  const observed: Observed[] = [];
  let polls = 0;
  let job: { state: string; progress: number; items?: { step: string | null; error: string | null }[] };
  for (;;) {
    const r = await gw.call("GET", `/api/v1/jobs/${jobId}`);
    polls += 1;
    if (r.statusCode !== 200) throw new Error(`GET /api/v1/jobs/${jobId} answered ${r.statusCode}: ${r.body}`);
    job = r.json().job;
    const step = job.items?.[0]?.step ?? null;
    const last = observed.at(-1);
    if (!last || last.state !== job.state || last.step !== step || last.progress !== job.progress) observed.push({ atMs: nowMs(), state: job.state, step, progress: job.progress });
    if (job.state === "done" || job.state === "error") break;
    if (nowMs() - startMs > JOB_DEADLINE_MS) throw new Error(`job ${jobId} still ${job.state} after ${JOB_DEADLINE_MS / 1000} s`);
    await sleep(POLL_MS);
  }
  const doneMs = nowMs();
  const cpu = process.cpuUsage(cpu0);
  const served = await site.take();
  return {
    label,
    jobId,
    state: job.state,
    error: job.items?.[0]?.error ?? null,
    wallMs: doneMs - startMs,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    polls,
    startMs,
    doneMs,
    observed,
    site: served,
  };
}

const POLL_COST_SAMPLES = 50;

/** CPU milliseconds of one GET /api/v1/jobs/{id} (after a few untimed ones). */
async function pollCost(gw: TestGateway, jobId: number): Promise<number> {
  for (let i = 0; i < 5; i++) await gw.call("GET", `/api/v1/jobs/${jobId}`);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < POLL_COST_SAMPLES; i++) await gw.call("GET", `/api/v1/jobs/${jobId}`);
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / POLL_COST_SAMPLES;
}

// ---------------------------------------------------------------------------------------------
// Where the time goes, from the site's side: when each request started and ended

interface Phases {
  /** POST → the first HTTP request reaches the site (accept, queue, bus, lease over gRPC, the refused https attempt). */
  readonly dispatch: number;
  /** First request → home page served (the https attempt fails first, then http). */
  readonly home: number;
  /** Home page → robots.txt and sitemap.xml served (the sample waits for both). */
  readonly robotsSitemap: number;
  /** → the last request served (the page sample, and the probes running beside it). */
  readonly pages: number;
  /** Last request served → job seen done (extraction of the last page, analysis, storage, Complete, poll). */
  readonly after: number;
}

const PHASE_NAMES: readonly (keyof Phases)[] = ["dispatch", "home", "robotsSitemap", "pages", "after"];
const PHASE_LABELS: Record<keyof Phases, string> = {
  dispatch: "POST -> first HTTP",
  home: "home page",
  robotsSitemap: "robots+sitemap",
  pages: "page sample",
  after: "last fetch -> done",
};

function phases(r: Round): Phases | null {
  const reqs = r.site.requests;
  if (reqs.length === 0) return null;
  const first = Math.min(...reqs.map((q) => q.startMs));
  const end = (path: string) => reqs.find((q) => q.path === path)?.endMs ?? first;
  const home = end("/");
  const prelim = Math.max(home, end("/robots.txt"), end("/sitemap.xml"));
  const last = Math.max(...reqs.map((q) => q.endMs));
  return { dispatch: first - r.startMs, home: home - first, robotsSitemap: prelim - home, pages: last - prelim, after: r.doneMs - last };
}

// ---------------------------------------------------------------------------------------------
// Printing

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "n/a");
const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "n/a");
const out = (line = "") => process.stdout.write(`${line}\n`);

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 8) : c.padStart(widths[i] ?? 8))).join("");
}

const ROUND_COLS = ["round", "wall ms", "cpu ms", "user", "sys", "cpu/wall", "pages", "pages/s", "requests", "non-http", "new conns", "polls", "site cpu ms"];
// new conns: TCP connections the site accepted, the non-HTTP (TLS) ones included
const ROUND_W = [8, 9, 9, 8, 7, 10, 7, 9, 10, 10, 11, 7, 13];

function roundRow(r: Round): string {
  const s = r.site;
  return row(
    [
      r.label,
      f0(r.wallMs),
      f0(cpuMs(r)),
      f0(r.cpuUserMs),
      f0(r.cpuSystemMs),
      `${f0((100 * cpuMs(r)) / r.wallMs)}%`,
      String(pagesOf(r)),
      f1(pagesPerS(r)),
      String(s.requests.length),
      String(s.nonHttp),
      String(s.connections),
      String(r.polls),
      f0((s.cpuUser + s.cpuSystem) / 1000),
    ],
    ROUND_W,
  );
}

function printPhases(rounds: readonly Round[]): void {
  const all = rounds.map((r) => ({ r, p: phases(r) }));
  const widths = [22, ...rounds.map(() => 8), 13];
  out(row(["phase (ms)", ...rounds.map((r) => r.label), "median warm"], widths));
  for (const name of PHASE_NAMES) {
    const warm = all.filter(({ r }) => r.label !== "cold").map(({ p }) => (p ? p[name] : NaN));
    out(row([PHASE_LABELS[name], ...all.map(({ p }) => (p ? f0(p[name]) : "n/a")), f0(median(warm))], widths));
  }
}

function printTimeline(r: Round): void {
  out(`timeline of round ${r.label} (ms after POST; site side: request start-end, connection; service side: job as polled)`);
  const events: { at: number; text: string }[] = [];
  for (const q of r.site.requests) events.push({ at: q.startMs - r.startMs, text: `${q.path} ${q.status} ${q.gzip ? "gzip " : ""}${q.bytes} B, until +${f1(q.endMs - r.startMs)}, conn #${q.connection}` });
  for (const o of r.observed) events.push({ at: o.atMs - r.startMs, text: `job: ${o.state}${o.step ? `, step ${o.step}` : ""}, progress ${o.progress}` });
  events.sort((a, b) => a.at - b.at);
  for (const e of events) out(`  +${f1(e.at).padStart(7)}  ${e.text}`);
}

function printRequestsByPath(rounds: readonly Round[]): void {
  const paths = new Set<string>();
  for (const r of rounds) for (const q of r.site.requests) paths.add(q.path.startsWith("/svc-probe-") ? "/svc-probe-<random>" : q.path);
  const ordered = [...PAGE_PATHS.filter((p) => paths.has(p)), ...[...paths].filter((p) => !PAGE_PATHS.includes(p)).sort()];
  const widths = [30, ...rounds.map(() => 8)];
  out(row(["path (requests per round)", ...rounds.map((r) => r.label)], widths));
  for (const path of ordered) {
    const counts = rounds.map((r) => r.site.requests.filter((q) => (q.path.startsWith("/svc-probe-") ? "/svc-probe-<random>" : q.path) === path).length);
    out(row([path, ...counts.map(String)], widths));
  }
  out(row(["(non-HTTP connections: TLS)", ...rounds.map((r) => String(r.site.nonHttp))], widths));
  const never = PAGE_PATHS.filter((p) => !paths.has(p));
  if (never.length > 0) out(`pages never fetched: ${never.join(", ")}`);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  let site: TwentyPageSite | null = null;
  let gw: TestGateway | null = null;
  try {
    site = await startTwentyPageSite();
    const sizes = site.pages.map((p) => p.bytes);
    const gz = site.pages.map((p) => p.gzipBytes);
    gw = await startTestGateway({ validateResponses: false, env: SERVICE_ENV });
    const added = await gw.call("POST", "/api/v1/sites", { body: { host: site.host } });
    if (added.statusCode !== 201) throw new Error(`adding ${site.host} answered ${added.statusCode}: ${added.body}`);

    const c = gw.config.crawl;
    const cores = typeof availableParallelism === "function" ? availableParallelism() : cpus().length;
    out(`bench:analyze (${SMOKE ? "smoke" : "full"}): 1 cold + ${WARM_ROUNDS} warm round(s), each POST /api/v1/analyze {fresh: true} until GET /api/v1/jobs/{id} says done (polled every ${POLL_MS} ms)`);
    out(
      `politeness (override for the loopback fixture): min delay ${c.minDelayMs} ms, ${c.connectionsPerHost} connections per host, page sample ${c.pageSample}; ` +
        `fetch timeout ${c.fetchTimeoutMs} ms, crawl-delay cap ${c.crawlDelayCapSeconds} s, worker concurrency ${gw.config.workerConcurrency}`,
    );
    out(
      `site: ${site.url}, node:http in a child process (pid ${site.pid}), keep-alive 60 s, gzip; home + ${site.pages.length - 1} internal pages, ` +
        `HTML ${f1(Math.min(...sizes) / 1024)}-${f1(Math.max(...sizes) / 1024)} KB (${f1(gz.reduce((a, b) => a + b, 0) / 1024)} KB gzip in all), robots.txt, sitemap.xml (20 URLs), favicon.ico`,
    );
    out(
      `service: startTestGateway in this process (gateway via inject, gRPC scheduler on loopback, in-process bus, crawler worker, PGlite in memory, response validation off); ` +
        `cpu = this process's process.cpuUsage() delta, the site's CPU is reported apart`,
    );
    out(`machine: ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}`);
    out();

    const rounds: Round[] = [];
    rounds.push(await analyse(gw, site, "cold"));
    for (let i = 1; i <= WARM_ROUNDS; i++) rounds.push(await analyse(gw, site, `warm ${i}`));

    out(row(ROUND_COLS, ROUND_W));
    for (const r of rounds) out(roundRow(r));
    for (const r of rounds) if (r.state !== "done") out(`WARNING: round ${r.label} (job ${r.jobId}) ended ${r.state}${r.error ? ` (${r.error})` : ""}: its figures do not measure the happy path`);
    out();

    const cold = rounds[0] as Round;
    const warm = rounds.slice(1);
    const medWall = median(warm.map((r) => r.wallMs));
    const medCpu = median(warm.map(cpuMs));
    const medPps = median(warm.map(pagesPerS));
    out(`median warm: wall ${f0(medWall)} ms, cpu ${f0(medCpu)} ms (${f0((100 * medCpu) / medWall)}% of wall), ${f1(medPps)} pages/s, ${median(warm.map(pagesOf))} pages fetched`);
    out(`cold:        wall ${f0(cold.wallMs)} ms, cpu ${f0(cpuMs(cold))} ms, ${f1(pagesPerS(cold))} pages/s, ${pagesOf(cold)} pages fetched`);
    // What one poll costs: the CPU figures include this script's GET /api/v1/jobs/{id} every 10 ms.
    const pollCpuMs = await pollCost(gw, cold.jobId);
    out(`one poll (GET /api/v1/jobs/{id}, measured over ${POLL_COST_SAMPLES} after the rounds): ${f1(pollCpuMs)} ms cpu; median warm cpu without the polls ≈ ${f0(median(warm.map((r) => cpuMs(r) - r.polls * pollCpuMs)))} ms`);
    const warmCpuNoPolls = median(warm.map((r) => cpuMs(r) - r.polls * pollCpuMs));
    const warmPages = median(warm.map(pagesOf));
    writeBenchOutput({
      bench: "analyze",
      mode: SMOKE ? "smoke" : "full",
      figures: {
        analysis_wall_ms: medWall,
        analysis_cpu_ms: warmCpuNoPolls,
        pages_per_analysis: warmPages,
        cpu_ms_per_page: warmPages > 0 ? warmCpuNoPolls / warmPages : null,
        rss_bytes: process.memoryUsage.rss(),
      },
    });
    out(`pages fetched (counted by the site, home included): cold ${pagesOf(cold)}, warm ${warm.map(pagesOf).join(" ")} (of ${PAGE_PATHS.length} pages; sample ${c.pageSample} internal + home)`);
    out();
    out(`politeness: min delay ${c.minDelayMs} ms, ${c.connectionsPerHost} connections per host, page sample ${c.pageSample}`);
    out(`target: <= 1 s wall; median warm ${f0(medWall)} ms, cold ${f0(cold.wallMs)} ms`);
    out(`pages per second: median warm ${f1(medPps)}, cold ${f1(pagesPerS(cold))}`);
    if (medWall > TARGET_MS) out(`NOTE: median warm is above the 1 s target (see the phases below)`);
    out();

    printPhases(rounds);
    out();
    printRequestsByPath(rounds);
    out();
    printTimeline(cold);
    const typical = [...warm].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((warm.length - 1) / 2)];
    if (typical) {
      out();
      printTimeline(typical);
    }
  } finally {
    if (gw) await gw.close().catch((err: unknown) => process.stderr.write(`closing the service failed: ${String(err)}\n`));
    if (site) await site.close().catch((err: unknown) => process.stderr.write(`stopping the site failed: ${String(err)}\n`));
  }
}

try {
  await main();
  process.exit(0);
} catch (err) {
  process.stderr.write(`bench:analyze failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
