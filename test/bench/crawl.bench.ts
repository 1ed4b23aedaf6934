/**
 * bench:crawl: Svc's whole-site crawl against peer crawlers on a real large site, in one run.
 *
 * The site is Debian's python3-doc (about 530 HTML files, 527 reachable from /), served by
 * Debian's nginx in its own process with a private configuration on 127.0.0.1. The tools run one
 * at a time, each in its own process under /usr/bin/time, interleaved in rounds (svc, crawlee,
 * linkinator, bare, svc, …) so that drift of the machine hits every tool alike:
 *
 *   svc         `svc serve` crawling through its REST API (test/bench/peers/run-svc.ts)
 *   crawlee     @crawlee/cheerio's CheerioCrawler, same-origin enqueueLinks
 *   linkinator  linkinator's recursive check, everything off the origin skipped
 *   bare        undici + htmlparser2 fetch-parse-enqueue loop: the ceiling
 *
 * Pages are counted from nginx's access log (distinct URIs answered 200 text/html to a GET), not
 * from each tool's report. The peers live in test/bench/peers with their own package.json and
 * lock file; this script installs them there (npm ci) when they are missing, and the Debian
 * packages (nginx, python3-doc, time) when they are missing.
 *
 * A benchmark, not a test: it prints figures and never fails on a number, nor on a tool that
 * fails or is slow; it exits non-zero only when the harness itself cannot run.
 *
 *   npm run bench:crawl                 full: an untimed warm-up pass per tool, then 3 rounds
 *   npm run bench:crawl -- --smoke      smoke: 1 round, each tool cut at 120 s, under 4 minutes
 *                                       in all (also when CI=true)
 *
 * After the rounds (full runs; BENCH_BREAKDOWN=1 or 0 to choose), one more run each of svc and
 * bare under `node --cpu-prof`: their crawl's CPU by stage (fetch, parse, extraction, links,
 * checks, storage…, test/bench/cpu-stages.ts) in CPU-ms per page, printed and in the JSON.
 *
 * BENCH_SITE=scale-N serves the generated scale site of N pages (test/bench/sites/scale-site.ts,
 * written out as files) instead of python3-doc, to see how time and RSS grow with pages; its
 * figures go to .tmp/bench-crawl-scale-N.json and .tmp/bench/crawl-scale-N.json.
 *
 * Overrides (environment): BENCH_ROUNDS, BENCH_CONNECTIONS (16: Svc's politeness override, the
 * Crawlee concurrency and the bare loop's connections), BENCH_LINKINATOR_CONCURRENCY (16),
 * BENCH_TOOLS (comma-separated subset, e.g. bare,linkinator), BENCH_TOOL_TIMEOUT_S, BENCH_KEEP_PROFILES
 * (a directory: the profiled runs' .cpuprofile files are kept there, per tool, with the window).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { REPO_ROOT } from "../harness/svc-process.ts";
import { ensureDebianPackages, PYTHON_DOC_ROOT, startNginx, summarise, type NginxSite, type ServedSummary } from "./peers/nginx-site.ts";
import { reportIn, type ToolReport } from "./peers/protocol.ts";
import { writeBenchOutput } from "./bench-output.ts";
import { writeScaleSite } from "./sites/scale-files.ts";
import { scaledTo, STAGE_MEANING, STAGES, stageBreakdown, type StageBreakdown } from "./cpu-stages.ts";

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

const ROUNDS = envInt("BENCH_ROUNDS", SMOKE ? 1 : 3, 1);
const CONNECTIONS = envInt("BENCH_CONNECTIONS", 16, 1);
/** linkinator's --concurrency does not bound its sockets (about 500 a run through fetch's global pool); 16 matches the others. */
const LINKINATOR_CONCURRENCY = envInt("BENCH_LINKINATOR_CONCURRENCY", 16, 1);
const TOOL_TIMEOUT_MS = envInt("BENCH_TOOL_TIMEOUT_S", SMOKE ? 120 : 600, 10) * 1000;
/** Smoke: everything, installs included, within this; a tool gets what is left (never more than its timeout). */
const SMOKE_BUDGET_MS = 225_000;
/** After the rounds, one more run each of svc and bare under `node --cpu-prof`, its CPU split by stage (cpu-stages.ts); a full run's default. */
const BREAKDOWN = process.env.BENCH_BREAKDOWN === undefined || process.env.BENCH_BREAKDOWN === "" ? !SMOKE : process.env.BENCH_BREAKDOWN !== "0";
/** Tools whose CPU the breakdown splits. */
const PROFILED = new Set(["svc", "bare"]);
const PEERS_DIR = join(REPO_ROOT, "test/bench/peers");
/** python-doc (Debian's python3-doc), or scale-N: the generated scale site of N pages as static files (how time and RSS grow with pages). */
const SITE = process.env.BENCH_SITE || "python-doc";
const SCALE_PAGES = /^scale-(\d+)$/.exec(SITE)?.[1];
if (SITE !== "python-doc" && !SCALE_PAGES) throw new Error(`BENCH_SITE must be python-doc or scale-<pages>, got ${SITE}`);
const OUT_FILE = join(REPO_ROOT, SITE === "python-doc" ? ".tmp/bench-crawl.json" : `.tmp/bench-crawl-${SITE}.json`);

interface Tool {
  readonly name: string;
  readonly script: string;
  readonly concurrency: number;
  /** More arguments to the runner. */
  readonly args?: readonly string[];
  /** Run only when BENCH_TOOLS names it. */
  readonly optIn?: boolean;
}

const RUN_SVC_SCRIPT = "run-svc.ts";
const ALL_TOOLS: readonly Tool[] = [
  { name: "svc", script: RUN_SVC_SCRIPT, concurrency: CONNECTIONS },
  // A running server: the same crawl timed the second time in one process (run-svc.ts --warm).
  { name: "svc-warm", script: RUN_SVC_SCRIPT, concurrency: CONNECTIONS, args: ["--warm"] },
  // Opt-in (BENCH_TOOLS): the fourth crawl of one server, what a server that has crawled for a while pays.
  { name: "svc-warm3", script: RUN_SVC_SCRIPT, concurrency: CONNECTIONS, args: ["--warm-crawls", "3"], optIn: true },
  { name: "crawlee", script: "run-crawlee.ts", concurrency: CONNECTIONS },
  { name: "linkinator", script: "run-linkinator.ts", concurrency: LINKINATOR_CONCURRENCY },
  { name: "bare", script: "run-bare.ts", concurrency: CONNECTIONS },
];
const chosen = (process.env.BENCH_TOOLS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
for (const name of chosen) if (!ALL_TOOLS.some((t) => t.name === name)) throw new Error(`BENCH_TOOLS: unknown tool ${name}`);
const TOOLS = chosen.length > 0 ? ALL_TOOLS.filter((t) => chosen.includes(t.name)) : ALL_TOOLS.filter((t) => !t.optIn);

const startedAt = Date.now();
const log = (line: string): void => void process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// One tool run

/** /usr/bin/time's figures for the tool's whole process (start, module loading, crawl, exit). */
interface ProcessFigures {
  readonly wallS: number;
  readonly cpuS: number;
  readonly maxRssMb: number;
}

interface Run {
  readonly tool: string;
  readonly round: number | "warm-up" | "profiled";
  readonly served: ServedSummary;
  readonly process: ProcessFigures | null;
  readonly report: ToolReport | null;
  readonly exitCode: number | null;
  readonly killed: boolean;
  /** Why the run gave no figures (crash, kill, endpoint missing), or null. */
  readonly problem: string | null;
  /** The crawl's CPU by stage, for a profiled run. */
  readonly breakdown?: StageBreakdown | null;
}

/** The figures a run is compared on; null when the run gave none. */
interface Figures {
  readonly pages: number;
  readonly broken: number;
  readonly wallS: number;
  readonly cpuS: number;
  readonly pagesPerS: number;
  readonly cpuPerPage: number;
  readonly rssMb: number;
}

function figuresOf(run: Run): Figures | null {
  const r = run.report;
  if (!r || !r.available || run.problem !== null || r.crawlWallS <= 0) return null;
  const pages = run.served.pages;
  const rssMb = r.peakRssMb ?? run.process?.maxRssMb ?? 0;
  return { pages, broken: r.brokenInternal, wallS: r.crawlWallS, cpuS: r.crawlCpuS, pagesPerS: pages / r.crawlWallS, cpuPerPage: pages > 0 ? r.crawlCpuS / pages : 0, rssMb };
}

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_PROXY: "127.0.0.1", no_proxy: "127.0.0.1" };
  for (const name of ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith("SVC_")) delete env[name];
  return env;
}

function parseTime(text: string): ProcessFigures | null {
  // With -f "%e %U %S %M" the figures are the last line; a killed command gets a line before it.
  const last = text.trim().split("\n").pop() ?? "";
  const [wall, user, sys, rss] = last.split(" ").map(Number);
  if ([wall, user, sys, rss].some((n) => n === undefined || !Number.isFinite(n))) return null;
  return { wallS: wall!, cpuS: user! + sys!, maxRssMb: rss! / 1024 };
}

async function runTool(tool: Tool, round: Run["round"], site: NginxSite, timeoutMs: number): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), "bench-crawl-time-"));
  const timeFile = join(dir, "time.txt");
  const offset = await site.logOffset();
  const profileDir = round === "profiled" ? join(dir, "profiles") : null;
  // svc's runner profiles the server it starts; the other runners are the crawler themselves.
  const nodeFlags = profileDir && tool.script !== RUN_SVC_SCRIPT ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const args = ["-o", timeFile, "-f", "%e %U %S %M", process.execPath, ...nodeFlags, "--import", "tsx", join(PEERS_DIR, tool.script)];
  // The runner stops its own crawl a little before the bench kills it, so that it still reports.
  args.push("--url", `${site.origin}/`, "--concurrency", String(tool.concurrency), "--deadline-ms", String(Math.max(1000, timeoutMs - 8000)));
  args.push(...(tool.args ?? []));
  if (profileDir && tool.script === RUN_SVC_SCRIPT) args.push("--profile-dir", profileDir);
  const child = spawn("/usr/bin/time", args, { cwd: REPO_ROOT, env: childEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    // The whole process group: time, the runner, and for svc the server it started.
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, timeoutMs);
  const exitCode = await new Promise<number | null>((done) => {
    child.once("close", (code) => done(code));
    child.once("error", (err) => {
      stderr += `spawn failed: ${err.message}\n`;
      done(null);
    });
  });
  clearTimeout(timer);
  await sleep(200); // nginx writes a request's log line when the request ends
  const served = summarise(await site.entriesSince(offset));
  const processFigures = parseTime(await readFile(timeFile, "utf8").catch(() => ""));
  const report = reportIn(stdout);
  const window = (report?.extra as { windowUs?: [number, number] } | undefined)?.windowUs;
  const breakdown = profileDir && window && existsSync(profileDir) ? stageBreakdown(profileDir, window[0], window[1]) : null;
  // BENCH_KEEP_PROFILES=<dir>: the profiled runs' .cpuprofile files are kept there (<dir>/<tool>), with the crawl's window.
  if (profileDir && window && process.env.BENCH_KEEP_PROFILES && existsSync(profileDir)) {
    const kept = join(process.env.BENCH_KEEP_PROFILES, tool.name);
    await cp(profileDir, kept, { recursive: true });
    await writeFile(join(kept, "window.json"), JSON.stringify({ windowUs: window }));
  }
  await rm(dir, { recursive: true, force: true });

  let problem: string | null = null;
  if (killed) problem = `killed after ${(timeoutMs / 1000).toFixed(0)} s`;
  else if (!report) problem = `exited ${exitCode ?? "by signal"} without a report: ${tail(stderr || stdout)}`;
  else if (!report.available) problem = "not available";
  else if (report.failure) problem = report.failure;
  else if (report.timedOut) problem = `stopped at its deadline (${((timeoutMs - 8000) / 1000).toFixed(0)} s)`;
  else if (exitCode !== 0) problem = `exited ${exitCode ?? "by signal"}: ${tail(stderr)}`;
  if (report && !report.available && tool.name === "svc") log("svc: crawl endpoint not available");
  return { tool: tool.name, round, served, process: processFigures, report, exitCode, killed, problem, ...(profileDir ? { breakdown } : {}) };
}

function tail(text: string, lines = 6): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

// ---------------------------------------------------------------------------------------------
// Printing

const pad = (s: string, n: number): string => s.padEnd(n);
const lpad = (s: string, n: number): string => s.padStart(n);
const num = (v: number | null | undefined, digits = 1): string => (v === null || v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(digits));
const HEAD = ["round", "tool", "pages", "broken", "wall s", "CPU s", "pages/s", "CPU-ms/page", "RSS MB", "proc wall s", "proc CPU s", "requests", "conns"];

function row(cells: readonly string[]): string {
  const [round = "", tool = "", ...rest] = cells;
  return `${pad(round, 8)}${pad(tool, 11)}${rest.map((c, i) => lpad(c, i < 2 ? 7 : 12)).join("")}`;
}

function runRow(run: Run): string {
  const f = figuresOf(run);
  const p = run.process;
  const cells = [String(run.round), run.tool, String(run.served.pages), f ? String(f.broken) : "-", num(f?.wallS, 2), num(f?.cpuS, 2), num(f?.pagesPerS), num(f ? f.cpuPerPage * 1000 : null, 2), num(f?.rssMb, 0)];
  cells.push(num(p?.wallS, 2), num(p?.cpuS, 2), String(run.served.requests), String(run.served.connections));
  return row(cells) + (run.problem ? `   (${run.problem})` : "");
}

/** What only Svc's runner measures: API latency during the crawl, memory, its own summary. */
function svcNotes(r: ToolReport, name: string): string {
  const x = r.extra as {
    sitesLatency?: { requests: number; p50Ms: number | null; p99Ms: number | null };
    crawlCpuNetOfProbesS?: number;
    memory?: { hwmBeforeCrawlMb: number; rssAtDoneMb: number };
    summary?: { duration_ms?: number; truncated_by?: string | null; pages?: number } | null;
    job?: { id: number; state: string };
    threads?: { thread: string; cpuS: number }[];
  };
  const lat = x.sitesLatency;
  const threads = (x.threads ?? []).filter((t) => t.cpuS >= 0.05);
  return (
    `         ${name}: GET /api/v1/sites during the crawl: ${lat?.requests ?? 0} requests, p50 ${num(lat?.p50Ms)} ms, p99 ${num(lat?.p99Ms)} ms; ` +
    `server CPU net of the bench's requests ≈ ${num(x.crawlCpuNetOfProbesS, 2)} s; RSS before the crawl (peak) ${num(x.memory?.hwmBeforeCrawlMb, 0)} MB, at done ${num(x.memory?.rssAtDoneMb, 0)} MB; ` +
    `job ${x.job?.id ?? "?"} ${x.job?.state ?? "?"}, its summary: ${x.summary?.pages ?? "?"} pages in ${num((x.summary?.duration_ms ?? NaN) / 1000, 2)} s, truncated_by ${x.summary?.truncated_by ?? "null"}` +
    (threads.length > 0 ? `\n         ${name}: CPU s by thread over the crawl (/proc, exact; threads under 0.05 s left out): ${threads.map((t) => `${t.thread} ${num(t.cpuS, 2)}`).join(", ")}` : "")
  );
}

/** CPU-ms per page of each stage, per profiled tool: what each stage of a crawl costs. */
type StagesPerPage = Record<string, Record<string, number> & { total: number }>;

function stagesPerPage(profiled: readonly Run[]): StagesPerPage {
  const out: StagesPerPage = {};
  for (const run of profiled) {
    const b = run.breakdown;
    const cpuMs = (run.report?.crawlCpuS ?? 0) * 1000;
    if (!b || run.served.pages === 0 || cpuMs <= 0) continue;
    const stages = scaledTo(b, cpuMs);
    const perPage = Object.fromEntries(STAGES.map((s) => [s, stages[s] / run.served.pages])) as Record<string, number>;
    out[run.tool] = { ...perPage, total: cpuMs / run.served.pages };
  }
  return out;
}

function printBreakdown(profiled: readonly Run[], perPage: StagesPerPage): void {
  const tools = Object.keys(perPage);
  if (tools.length === 0) return void log("\nCPU by stage: no profile read (a profiled run failed)");
  log(`\nCPU by stage, CPU-ms per page (one more run of ${tools.join(" and ")} under node --cpu-prof, cut to the crawl's window; each stage's share of the samples times the run's measured CPU)`);
  log(`${pad("stage", 10)}${tools.map((t) => lpad(t, 10) + lpad("share", 7)).join("")}  what`);
  for (const stage of STAGES) {
    if (tools.every((t) => (perPage[t]?.[stage] ?? 0) < 0.005)) continue;
    const cells = tools.map((t) => {
      const v = perPage[t]?.[stage] ?? 0;
      const total = perPage[t]?.total ?? 0;
      return lpad(v.toFixed(2), 10) + lpad(total > 0 ? `${((100 * v) / total).toFixed(0)}%` : "-", 7);
    });
    log(`${pad(stage, 10)}${cells.join("")}  ${STAGE_MEANING[stage]}`);
  }
  log(`${pad("total", 10)}${tools.map((t) => lpad((perPage[t]?.total ?? 0).toFixed(2), 10) + lpad("", 7)).join("")}`);
  for (const run of profiled) {
    const b = run.breakdown;
    if (!b) continue;
    const threads = Object.entries(b.threadsMs).map(([t, ms]) => `${t} ${(ms / 1000).toFixed(2)} s`).join(", ");
    log(`  ${run.tool}: ${run.served.pages} pages, window ${(b.windowMs / 1000).toFixed(2)} s, CPU measured ${num(run.report?.crawlCpuS, 2)} s, sampled ${(b.totalMs / 1000).toFixed(2)} s by thread: ${threads}${run.problem ? `; ${run.problem}` : ""}`);
  }
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

type Medians = Record<keyof Figures, number | null> & { runs: number };

function mediansOf(runs: readonly Run[]): Medians {
  const figs = runs.map(figuresOf).filter((f): f is Figures => f !== null);
  const m = (k: keyof Figures): number | null => median(figs.map((f) => f[k]));
  return { runs: figs.length, pages: m("pages"), broken: m("broken"), wallS: m("wallS"), cpuS: m("cpuS"), pagesPerS: m("pagesPerS"), cpuPerPage: m("cpuPerPage"), rssMb: m("rssMb") };
}

/** Per-round ratios of Svc's pages/s (and CPU per page) to another tool's, and their median. */
function ratios(runs: readonly Run[], other: string, svcTool = "svc"): { pagesPerS: number | null; cpuPerPage: number | null; perRound: number[] } {
  const perRound: number[] = [];
  const cpu: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const svc = runs.find((x) => x.tool === svcTool && x.round === r);
    const peer = runs.find((x) => x.tool === other && x.round === r);
    const a = svc ? figuresOf(svc) : null;
    const b = peer ? figuresOf(peer) : null;
    if (!a || !b || b.pagesPerS <= 0) continue;
    perRound.push(a.pagesPerS / b.pagesPerS);
    if (b.cpuPerPage > 0) cpu.push(a.cpuPerPage / b.cpuPerPage);
  }
  return { pagesPerS: median(perRound), cpuPerPage: median(cpu), perRound };
}

/** The breakdown as bench-output figures: <tool>_stage_<stage>_cpu_ms_per_page. */
function stageFigures(perPage: StagesPerPage): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [tool, stages] of Object.entries(perPage)) for (const [stage, v] of Object.entries(stages)) out[`${tool}_stage_${stage}_cpu_ms_per_page`] = Math.round(v * 1000) / 1000;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Setup

function ensurePeers(): void {
  if (existsSync(join(PEERS_DIR, "node_modules"))) return;
  log("installing the peer crawlers: npm ci --prefix test/bench/peers");
  execFileSync("npm", ["ci", "--prefix", PEERS_DIR, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: REPO_ROOT, stdio: ["ignore", "inherit", "inherit"] });
}

function htmlFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".html")).length;
}

function wrkCeiling(site: NginxSite): { path: string; requestsPerS: number; transferPerS: string } | null {
  if (!existsSync("/usr/bin/wrk")) return null;
  const path = SCALE_PAGES ? "/p/1" : "/library/functions.html";
  try {
    const out = execFileSync("/usr/bin/wrk", ["-t1", `-c${CONNECTIONS}`, "-d2s", `${site.origin}${path}`], { encoding: "utf8", timeout: 15_000 });
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
    const transfer = /Transfer\/sec:\s+(\S+)/.exec(out)?.[1] ?? "?";
    return rps ? { path, requestsPerS: Number(rps), transferPerS: transfer } : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  log(`bench:crawl (${SMOKE ? "smoke" : "full"}): ${TOOLS.map((t) => t.name).join(", ")}`);
  ensureDebianPackages((line) => log(line));
  ensurePeers();
  const scaleDir = SCALE_PAGES ? await mkdtemp(join(tmpdir(), "bench-crawl-scale-site-")) : null;
  const planted = scaleDir ? await writeScaleSite(scaleDir, Number(SCALE_PAGES)) : null;
  const root = scaleDir ?? PYTHON_DOC_ROOT;
  const site = await startNginx(root, scaleDir ? "text/html" : undefined);
  try {
    const nginxVersion = spawnSync("/usr/sbin/nginx", ["-v"], { encoding: "utf8" }).stderr.trim(); // nginx -v prints on stderr
    const files = planted ? planted.pages : htmlFiles(PYTHON_DOC_ROOT);
    const ceiling = wrkCeiling(site);
    const cores = typeof availableParallelism === "function" ? availableParallelism() : cpus().length;
    log(`site: ${root} (${files} HTML files${planted ? `, the generated scale site: ${planted.broken} broken links planted` : ""}) on ${site.origin}/, nginx pid ${site.pid} (1 worker, sendfile, keep-alive 600 s, 16384 connections)`);
    if (ceiling) log(`server ceiling (wrk, ${CONNECTIONS} connections, 2 s, ${ceiling.path}): ${ceiling.requestsPerS.toFixed(0)} requests/s, ${ceiling.transferPerS}/s`);
    log(`machine: ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), node ${process.version}; every tool, its runner and nginx share them`);
    log(`politeness: svc SVC_CRAWL_OVERRIDES=127.0.0.1=${CONNECTIONS}/0 (${CONNECTIONS} connections, no delay); crawlee maxConcurrency ${CONNECTIONS}; linkinator concurrency ${LINKINATOR_CONCURRENCY}; bare ${CONNECTIONS} connections`);
    log(`rounds: ${ROUNDS}${SMOKE ? "" : " after an untimed warm-up pass per tool"}; each tool cut at ${TOOL_TIMEOUT_MS / 1000} s${SMOKE ? `, the whole smoke at ${SMOKE_BUDGET_MS / 1000} s` : ""}`);
    log(`wall and CPU are the crawl's own (timed inside each runner; for svc the server process from POST /crawl to the job done); proc columns are /usr/bin/time's for the whole tool process\n`);

    const timeoutNow = (): number | null => {
      if (!SMOKE) return TOOL_TIMEOUT_MS;
      const left = startedAt + SMOKE_BUDGET_MS - Date.now() - 5_000;
      return left < 15_000 ? null : Math.min(TOOL_TIMEOUT_MS, left);
    };

    const runs: Run[] = [];
    log(row(HEAD));
    // Warm-up: the page cache for the site and for each tool's modules. A smoke run warms only
    // the site, with the cheapest tool.
    const warmUps: Run[] = [];
    for (const tool of SMOKE ? TOOLS.filter((t) => t.name === "bare") : TOOLS) {
      const timeoutMs = timeoutNow();
      if (timeoutMs === null) break;
      const run = await runTool(tool, "warm-up", site, timeoutMs);
      warmUps.push(run);
      log(runRow(run));
    }
    for (let r = 1; r <= ROUNDS; r++) {
      for (const tool of TOOLS) {
        const timeoutMs = timeoutNow();
        if (timeoutMs === null) {
          log(row([String(r), tool.name]) + "   (skipped: smoke time budget spent)");
          continue;
        }
        const run = await runTool(tool, r, site, timeoutMs);
        runs.push(run);
        log(runRow(run));
        if (run.report && run.report.connectionErrors > 0) log(`WARNING: ${tool.name} had ${run.report.connectionErrors} requests without an answer in round ${r}`);
        if (tool.script === RUN_SVC_SCRIPT && run.report?.available) log(svcNotes(run.report, tool.name));
      }
    }

    const profiled: Run[] = [];
    for (const tool of BREAKDOWN ? TOOLS.filter((t) => PROFILED.has(t.name)) : []) {
      const timeoutMs = timeoutNow();
      if (timeoutMs === null) break;
      const run = await runTool(tool, "profiled", site, timeoutMs);
      profiled.push(run);
      log(runRow(run));
    }
    const perStage = stagesPerPage(profiled);

    const medians: Record<string, Medians> = {};
    log(`\nmedians over ${ROUNDS} round(s)`);
    log(row(["", "tool", "pages", "broken", "wall s", "CPU s", "pages/s", "CPU-ms/page", "RSS MB", "runs"]));
    for (const tool of TOOLS) {
      const m = (medians[tool.name] = mediansOf(runs.filter((x) => x.tool === tool.name)));
      log(row(["", tool.name, num(m.pages, 0), num(m.broken, 0), num(m.wallS, 2), num(m.cpuS, 2), num(m.pagesPerS), num(m.cpuPerPage === null ? null : m.cpuPerPage * 1000, 2), num(m.rssMb, 0), String(m.runs)]));
    }

    const ratiosOf = (svcTool: string) => Object.fromEntries(["linkinator", "crawlee", "bare"].map((other) => [other, ratios(runs, other, svcTool)]));
    const svcRatios = ratiosOf("svc");
    const warmRatios = ratiosOf("svc-warm");
    log("");
    for (const [name, set] of [["svc", svcRatios], ["svc-warm", warmRatios], ["svc-warm3", ratiosOf("svc-warm3")]] as const) {
      if (!TOOLS.some((t) => t.name === name)) continue;
      for (const [other, r] of Object.entries(set)) {
        const what = other === "bare" ? " (share of the ceiling)" : "";
        log(`ratio ${name}/${other} pages/s: ${num(r.pagesPerS, 2)}${what}; CPU per page: ${num(r.cpuPerPage, 2)}; per round: ${r.perRound.map((x) => x.toFixed(2)).join(" ") || "-"}`);
      }
    }
    const bare = medians.bare;
    if (bare?.pagesPerS) log(`ceiling (bare loop): ${num(bare.pagesPerS)} pages/s, ${num((bare.cpuPerPage ?? 0) * 1000, 2)} CPU-ms per page, ${num(bare.rssMb, 0)} MB`);
    if (BREAKDOWN) printBreakdown(profiled, perStage);
    const svcRuns = runs.filter((x) => x.tool === "svc");
    if (svcRuns.length > 0 && svcRuns.every((x) => x.report?.available === false)) log("svc: crawl endpoint not available (no Svc figures in this run)");

    await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
    const out = {
      date: new Date().toISOString(),
      mode: SMOKE ? "smoke" : "full",
      machine: { cores, cpu: cpus()[0]?.model ?? null, node: process.version },
      site: { name: SITE, root, htmlFiles: files, planted, origin: site.origin, nginx: nginxVersion, config: site.config },
      ceiling,
      settings: { rounds: ROUNDS, connections: CONNECTIONS, linkinatorConcurrency: LINKINATOR_CONCURRENCY, toolTimeoutS: TOOL_TIMEOUT_MS / 1000, svcCrawlOverrides: `127.0.0.1=${CONNECTIONS}/0` },
      warmUps,
      runs: runs.map((run) => ({ ...run, figures: figuresOf(run) })),
      profiled: profiled.map((run) => ({ ...run, figures: figuresOf(run) })),
      cpuMsPerPageByStage: perStage,
      medians,
      ratios: svcRatios,
      ratiosWarm: warmRatios,
      durationS: (Date.now() - startedAt) / 1000,
    };
    await writeFile(OUT_FILE, JSON.stringify(out, null, 2));
    const svcMedians = medians.svc;
    const rssBytes = svcMedians?.rssMb != null ? Math.round(svcMedians.rssMb * 1024 * 1024) : null;
    const warmMedians = medians["svc-warm"];
    const warmRssBytes = warmMedians?.rssMb != null ? Math.round(warmMedians.rssMb * 1024 * 1024) : null;
    writeBenchOutput({
      // bench:summary reads "crawl" (python3-doc); a scale site's run has its own file.
      bench: SITE === "python-doc" ? "crawl" : `crawl-${SITE}`,
      mode: SMOKE ? "smoke" : "full",
      figures: {
        svc_pages_per_s: svcMedians?.pagesPerS ?? null,
        bare_pages_per_s: bare?.pagesPerS ?? null,
        svc_cpu_ms_per_page: svcMedians?.cpuPerPage != null ? svcMedians.cpuPerPage * 1000 : null,
        bare_cpu_ms_per_page: bare?.cpuPerPage != null ? bare.cpuPerPage * 1000 : null,
        ratio_svc_bare: svcRatios.bare?.pagesPerS ?? null,
        ratio_svc_linkinator: svcRatios.linkinator?.pagesPerS ?? null,
        rss_bytes: rssBytes,
        ratio_svc_linkinator_cpu_per_page: svcRatios.linkinator?.cpuPerPage ?? null,
        linkinator_pages_per_s: medians.linkinator?.pagesPerS ?? null,
        linkinator_rss_bytes: medians.linkinator?.rssMb != null ? Math.round(medians.linkinator.rssMb * 1024 * 1024) : null,
        bare_rss_bytes: bare?.rssMb != null ? Math.round(bare.rssMb * 1024 * 1024) : null,
        svc_warm_pages_per_s: warmMedians?.pagesPerS ?? null,
        svc_warm_cpu_ms_per_page: warmMedians?.cpuPerPage != null ? warmMedians.cpuPerPage * 1000 : null,
        ratio_svc_warm_bare: warmRatios.bare?.pagesPerS ?? null,
        ratio_svc_warm_linkinator: warmRatios.linkinator?.pagesPerS ?? null,
        ...stageFigures(perStage),
      },
      // The hot path of bench:summary is the python3-doc crawl's.
      ...(SITE === "python-doc"
        ? {
            hotPath: { path: "whole-site crawl", ratio: svcRatios.bare?.pagesPerS ?? null, ratioRounds: svcRatios.bare?.perRound ?? [], ceiling: "bare undici + htmlparser2 loop", target: 0.75, rssBytes },
            ...(warmMedians ? { moreHotPaths: [{ path: "whole-site crawl, a running server (its second crawl)", ratio: warmRatios.bare?.pagesPerS ?? null, ratioRounds: warmRatios.bare?.perRound ?? [], ceiling: "bare undici + htmlparser2 loop", target: 0.75, rssBytes: warmRssBytes }] } : {}),
          }
        : {}),
    });
    log(`\nresults: ${OUT_FILE}; bench:crawl took ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  } finally {
    await site.stop();
    if (scaleDir) await rm(scaleDir, { recursive: true, force: true });
  }
}

try {
  await main();
  process.exit(0);
} catch (err) {
  process.stderr.write(`bench:crawl failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
