/**
 * bench:parse — the crawler's parse pool with one task per thread at a time (what crawler nodes
 * run: a thread that crashes fails only its own page) beside several tasks per thread (a thread
 * keeps busy while the main thread is late to hand it the next page, but a crash fails every page
 * the thread holds). Issue 21 §5 asked for the two side by side.
 *
 * Each variant runs in a process of its own (clean RSS): `threads` parse threads, pages of the
 * generated scale site (~20 KB of HTML each, parsed into stored crawl pages as a crawl does), kept
 * `inFlight` at a time like a crawl's connections. Two conditions:
 *   - idle main thread: results are handed back and the next page posted at once;
 *   - busy main thread: after each result the main thread works `busyMs` synchronously (what a
 *     crawler's main thread does between pages: fetching, decoding, storing, serving the API),
 *     so a thread that holds only one task waits for it.
 * Figures: pages/s, CPU-ms per page (every thread of the process, from /proc), peak RSS (VmHWM).
 *
 *   npm run bench:parse                  3,000 pages, 3 rounds per variant (about 5 min)
 *   npm run bench:parse -- --smoke       300 pages, 1 round (also CI=true)
 *   BENCH_PAGES=3000 BENCH_THREADS=2 BENCH_PER_THREAD=1,2,4 BENCH_IN_FLIGHT=16 BENCH_BUSY_MS=2 npm run bench:parse
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { HttpResponse } from "../../proto/index.ts";
import { threadParsePool } from "../../crawler/index.ts";
import { pageHtml } from "./sites/scale-site.ts";
import { memMb, processCpuS } from "./proc.ts";

// CI runs every bench in smoke mode (CI=true): a few hundred pages, one round.
const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const PAGES = Number(process.env.BENCH_PAGES ?? (SMOKE ? 300 : 3000));
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16);
const BUSY_MS = Number(process.env.BENCH_BUSY_MS ?? 2);
const PER_THREAD = (process.env.BENCH_PER_THREAD ?? "1,2,4").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));

interface Figures {
  perThread: number;
  busyMs: number;
  pagesPerS: number;
  cpuMsPerPage: number;
  rssPeakMb: number;
}

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: the main thread's own work
  }
}

/** One variant in this process: the pool, PAGES pages through it, the figures on stdout. */
async function child(perThread: number, busyMs: number): Promise<void> {
  // The pool's idle threads do not hold the process open (as on a node): this does, until the end.
  const keepAlive = setInterval(() => undefined, 1000);
  const pool = threadParsePool(THREADS, 20, { resourceLimits: { maxYoungGenerationSizeMb: 8 }, tasksPerThread: perThread });
  await pool.ready();
  const origin = "http://127.0.0.1:8080";
  const bodies = Array.from({ length: 500 }, (_, i) => Buffer.from(pageHtml(PAGES, i === 0 ? "/" : `/p/${i}`) ?? ""));
  const input = (i: number) => {
    const path = i === 0 ? "/" : `/p/${i}`;
    const body = bodies[i % bodies.length]!;
    const response = HttpResponse.fromPartial({ requestedUrl: origin + path, finalUrl: origin + path, status: 200, contentType: "text/html", charset: "utf-8", bodyBytes: body.length });
    // A copy that owns its memory, as a fetched body does: it moves to the thread.
    return { url: origin + path, depth: 1, response, html: "", body: new Uint8Array(body), originHost: "127.0.0.1:8080", origin, site: "127.0.0.1:8080", checkedAt: 1_800_000_000 };
  };
  const cpu0 = processCpuS(process.pid);
  const t0 = performance.now();
  let next = 0;
  let done = 0;
  await new Promise<void>((resolve, reject) => {
    const start = () => {
      const i = next++;
      pool.page(input(i)).then(() => {
        done += 1;
        spin(busyMs);
        if (next < PAGES) start();
        else if (done === PAGES) resolve();
      }, reject);
    };
    for (let k = 0; k < Math.min(IN_FLIGHT, PAGES); k++) start();
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpuS = processCpuS(process.pid) - cpu0 - (busyMs * PAGES) / 1000;
  const figures: Figures = { perThread, busyMs, pagesPerS: PAGES / seconds, cpuMsPerPage: (cpuS * 1000) / PAGES, rssPeakMb: memMb(process.pid, "VmHWM") };
  await pool.close();
  clearInterval(keepAlive);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function runChild(perThread: number, busyMs: number): Figures {
  const out = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", String(perThread), String(busyMs)], { encoding: "utf8", env: { ...process.env, BENCH_PAGES: String(PAGES) }, maxBuffer: 1 << 20 });
  if (out.status !== 0) throw new Error(`child ${perThread}/${busyMs} failed (${out.status}): ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()!) as Figures;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  console.log(`bench:parse — ${PAGES} pages of ~20 KB, ${THREADS} parse threads, ${IN_FLIGHT} in flight, ${ROUNDS} rounds (median); CPU-ms/page excludes the main thread's simulated work`);
  console.log("main thread | tasks/thread | pages/s | CPU-ms/page | peak RSS MB");
  for (const busyMs of [0, BUSY_MS]) {
    for (const perThread of PER_THREAD) {
      const runs: Figures[] = [];
      // Alternating rounds would be fairer still; a variant's rounds back to back keep it simple.
      for (let r = 0; r < ROUNDS; r++) runs.push(runChild(perThread, busyMs));
      const m = (k: keyof Figures) => median(runs.map((f) => f[k]));
      console.log(`${busyMs === 0 ? "idle" : `busy ${busyMs} ms/page`} | ${perThread} | ${m("pagesPerS").toFixed(0)} | ${m("cpuMsPerPage").toFixed(2)} | ${m("rssPeakMb").toFixed(0)}`);
    }
  }
}

if (process.argv[2] === "--child") await child(Number(process.argv[3]), Number(process.argv[4]));
else await main();
