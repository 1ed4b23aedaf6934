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
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:crawl-scale                    1,000, 10,000 and 100,000 pages
 *   npm run bench:crawl-scale -- --smoke         1,000 pages only (also when CI=true)
 *
 * Overrides (environment): BENCH_SIZES (comma-separated, e.g. 1000,10000), BENCH_CONNECTIONS (8).
 * Figures go to .tmp/bench-crawl-scale.json too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { memMb, processCpuS } from "./proc.ts";
import { http, REPO_ROOT, spawnSvc, svcEnvFor, tempDataDir, waitReady, type Answer } from "../harness/svc-process.ts";
import { manifest } from "./sites/scale-site.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const SIZES = (process.env.BENCH_SIZES ?? (SMOKE ? "1000" : "1000,10000,100000")).split(",").map((s) => Number(s.trim()));
for (const n of SIZES) if (!Number.isInteger(n) || n < 10) throw new Error(`BENCH_SIZES: ${JSON.stringify(process.env.BENCH_SIZES)} is not a list of sizes`);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
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

interface Figures {
  readonly size: number;
  readonly state: string;
  readonly pages: number;
  readonly wallS: number;
  readonly pagesPerS: number;
  readonly cpuMsPerPage: number;
  readonly idleRssMb: number;
  readonly peakRssMb: number;
  readonly afterRssMb: number;
  readonly found: { broken: number; clusters: number; nearPairs: number; truncatedBy: unknown };
  readonly planted: { broken: number; clusters: number };
}

async function measure(size: number): Promise<Figures> {
  const site = await startSite(size);
  const host = `127.0.0.1:${site.port}`;
  const data = await tempDataDir();
  const { env, port, adminPort } = await svcEnvFor(data.dir, {
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
  });
  const svc = spawnSvc(["serve"], env);
  const api = (path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> => http(`http://127.0.0.1:${port}${path}`, { ...init, key: KEY, timeoutMs: 60_000 });
  try {
    await waitReady(svc, adminPort, 120_000);
    const added = await api("/api/v1/sites", { method: "POST", body: { host } });
    if (added.status !== 201 && added.status !== 200) throw new Error(`POST /sites answered ${added.status}: ${added.text}`);
    await sleep(3000);
    const idleRssMb = memMb(svc.pid, "VmRSS");
    const cpu0 = processCpuS(svc.pid);
    const t0 = performance.now();
    const started = await api(`/api/v1/crawl/${host}`, { method: "POST" });
    if (started.status !== 202) throw new Error(`POST /crawl answered ${started.status}: ${started.text}`);
    let job = (started.json as { job: { id: number; state: string } }).job;
    let peakRssMb = idleRssMb;
    while (job.state !== "done" && job.state !== "error") {
      peakRssMb = Math.max(peakRssMb, memMb(svc.pid, "VmRSS"));
      const exit = svc.exit();
      if (exit) throw new Error(`svc exited during the crawl (${JSON.stringify(exit)}): ${svc.stderr().slice(-2000)}`);
      await sleep(500);
      job = ((await api(`/api/v1/jobs/${job.id}`)).json as { job: typeof job }).job;
    }
    const wallS = (performance.now() - t0) / 1000;
    const cpuS = processCpuS(svc.pid) - cpu0;
    peakRssMb = Math.max(peakRssMb, memMb(svc.pid, "VmRSS"));
    await sleep(SETTLE_MS);
    const afterRssMb = memMb(svc.pid, "VmRSS");
    const crawl = job.state === "done" ? ((await api(`/api/v1/crawl/${host}?limit=1`)).json as { summary: Record<string, unknown> }) : null;
    const s = crawl?.summary ?? {};
    const pages = Number(s["pages"] ?? 0);
    const m = manifest(size);
    return {
      size,
      state: job.state,
      pages,
      wallS: round(wallS),
      pagesPerS: round(pages / wallS),
      cpuMsPerPage: round(pages > 0 ? (cpuS * 1000) / pages : 0),
      idleRssMb: Math.round(idleRssMb),
      peakRssMb: Math.round(peakRssMb),
      afterRssMb: Math.round(afterRssMb),
      found: { broken: Number(s["broken_links"] ?? 0), clusters: Number(s["near_duplicate_clusters"] ?? 0), nearPairs: Number(s["near_duplicates"] ?? 0), truncatedBy: s["truncated_by"] ?? null },
      planted: { broken: m.broken, clusters: m.clusters.size },
    };
  } finally {
    if (svc.exit() === null) svc.child.kill("SIGTERM");
    await svc.waitExit(30_000).catch(() => svc.child.kill("SIGKILL"));
    await data.remove();
    site.child.kill("SIGTERM");
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

const results: Figures[] = [];
for (const size of SIZES) {
  log(`crawling ${size} pages…`);
  const f = await measure(size);
  results.push(f);
  log(JSON.stringify(f));
}
log("");
log("pages    state  crawled  pages/s  CPU-ms/page  idle MB  peak MB (+idle)  after MB (+idle)  broken found/planted  clusters found/planted");
for (const f of results) {
  log(
    `${String(f.size).padEnd(8)} ${f.state.padEnd(6)} ${String(f.pages).padStart(7)}  ${String(f.pagesPerS).padStart(7)}  ${String(f.cpuMsPerPage).padStart(11)}  ${String(f.idleRssMb).padStart(7)}  ${`${f.peakRssMb} (+${f.peakRssMb - f.idleRssMb})`.padStart(15)}  ${`${f.afterRssMb} (+${f.afterRssMb - f.idleRssMb})`.padStart(16)}  ${`${f.found.broken}/${f.planted.broken}`.padStart(21)}  ${`${f.found.clusters}/${f.planted.clusters}`.padStart(23)}`,
  );
}
const first = results[0];
const last = results[results.length - 1];
if (first && last && first !== last && first.cpuMsPerPage > 0) log(`CPU-ms per page at ${last.size} / at ${first.size}: ${round(last.cpuMsPerPage / first.cpuMsPerPage)}×`);
await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
await writeFile(OUT_FILE, JSON.stringify({ at: new Date().toISOString(), smoke: SMOKE, connections: CONNECTIONS, results }, null, 2));
