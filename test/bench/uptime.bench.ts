/**
 * bench:uptime: how many HTTPS sites one crawler process holds at a 1-minute interval.
 *
 * A fleet of N distinct host names (test/bench/uptime/fleet.ts: HTTPS with a test CA, its own DNS
 * server, every 20th site slow, every 50th failing) is probed at a fixed interval by Svc's uptime
 * probe on a real crawler node, and in the same run by a bare undici loop doing the same work (the
 * ceiling), each in its own process (test/bench/uptime/prober.ts). Printed per prober: probes,
 * p50/p99/max lateness (start − slot), CPU seconds per 1,000 probes, peak RSS; and the ratios.
 *
 *   npm run bench:uptime                        10,000 sites, 60 s interval, 2 rounds
 *   npm run bench:uptime -- --smoke (CI=true)   300 sites, 10 s interval, 1 round
 *
 * Overrides: BENCH_SITES, BENCH_INTERVAL_S, BENCH_ROUNDS, BENCH_STREAM_SLOTS (128, as SVC_WORKER_STREAM_CONCURRENCY), BENCH_SLOW_MS,
 * BENCH_SOURCES=1 (Svc's probe from the TypeScript sources through tsx instead of the compiled dist/),
 * BENCH_PARSE_IDLE_S (10: SVC_PARSE_IDLE_S of Svc's node, so that the run shows the steady state of a
 * node that has only probed for longer than the default 300 s: its parse threads gone).
 *
 * Svc's prober runs the compiled build (dist/, built first when stale), as `svc crawler` runs in
 * production: under tsx every parse thread registers the loader and compiles its modules, which
 * costs memory a deployed crawler never pays. Both probers' processes register tsx for their own
 * script only (not through --import, which every worker thread would inherit).
 * Then how long an analysis holds a job slot as deployed (the sizing model's wall_s.analysis and
 * wall_s.analysis_confirmed): BENCH_SLOT_ANALYSES fresh analyses (2) of bench:analyze's 20-page
 * site through a real `svc serve` with the default politeness and SVC_BROWSER=auto (Chromium where
 * installed, as production runs), once with SVC_CONFIRM_DELAY_MS=0 and once with its default (60 s).
 * The site is plain HTTP on loopback, so every analysis finds HTTPS missing, a severe failure, and
 * looks again after the delay (as the operator trial's loopback sites did). Each slot is timed from
 * the job first seen running to done. Written as job_slot_s_without_confirm_delay and
 * job_slot_s_with_confirm_delay (medians). Full runs only (about 4 minutes); --job-slots runs this
 * part alone, and its figures join the last output's probe figures.
 *
 * A benchmark, not a test: it never fails on a number.
 */
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { REPO_ROOT } from "../harness/svc-process.ts";
import { existsSync } from "node:fs";
import { readBenchOutput, writeBenchOutput } from "./bench-output.ts";
import { servedAnalyses } from "./served-analyses.ts";
import { startTwentyPageSite } from "./sites/twenty-pages.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const env = {
  BENCH_SITES: process.env.BENCH_SITES ?? (SMOKE ? "300" : "10000"),
  BENCH_INTERVAL_S: process.env.BENCH_INTERVAL_S ?? (SMOKE ? "10" : "60"),
  BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? (SMOKE ? "1" : "2"),
  // SVC_WORKER_STREAM_CONCURRENCY's default.
  BENCH_STREAM_SLOTS: process.env.BENCH_STREAM_SLOTS ?? "128",
  BENCH_SLOW_MS: process.env.BENCH_SLOW_MS ?? "1500",
  SVC_PARSE_IDLE_S: process.env.BENCH_PARSE_IDLE_S ?? "10",
};

const JOB_SLOTS_ONLY = process.argv.includes("--job-slots");
const SLOT_ANALYSES = Number(process.env.BENCH_SLOT_ANALYSES ?? 2);
const CHROMIUM = "/usr/bin/chromium";

/** Median seconds an analysis holds its job slot, without and with the confirm delay. */
async function jobSlots(): Promise<Record<string, number | null>> {
  const site = await startTwentyPageSite();
  try {
    const browser: Record<string, string> = existsSync(CHROMIUM) ? { SVC_BROWSER: "auto", SVC_BROWSER_PATH: CHROMIUM } : { SVC_BROWSER: "off" };
    console.log(`job slots: ${SLOT_ANALYSES} fresh analyses of the 20-page site (plain HTTP: each confirms a severe failure) through svc serve, SVC_BROWSER=${browser.SVC_BROWSER}, default politeness`);
    const median = (xs: readonly number[]) => {
      const v = [...xs].sort((a, b) => a - b);
      return v.length === 0 ? null : ((v[Math.floor((v.length - 1) / 2)] as number) + (v[Math.ceil((v.length - 1) / 2)] as number)) / 2;
    };
    const figures: Record<string, number | null> = {};
    for (const [name, delay] of [["job_slot_s_without_confirm_delay", "0"], ["job_slot_s_with_confirm_delay", "60000"]] as const) {
      const r = await servedAnalyses(site.host, SLOT_ANALYSES, { ...browser, SVC_CONFIRM_DELAY_MS: delay });
      figures[name] = median(r.slotS);
      figures.job_slot_load_avg = r.loadAvg;
      console.log(`  SVC_CONFIRM_DELAY_MS=${delay.padEnd(5)} slot held ${r.slotS.map((x) => x.toFixed(1)).join(", ")} s (median ${figures[name]?.toFixed(1)} s); confirm step seen: ${r.confirmed.join(", ")}; Chromium ran: ${r.browserRan}; load average ${r.loadAvg.toFixed(1)}`);
    }
    return figures;
  } finally {
    await site.close();
  }
}

if (JOB_SLOTS_ONLY) {
  const figures = await jobSlots();
  const last = readBenchOutput("uptime");
  writeBenchOutput({ bench: "uptime", mode: last?.mode ?? "full", figures: { ...(last?.figures ?? {}), ...figures } });
  process.exit(0);
}

const SOURCES = process.env.BENCH_SOURCES === "1";
if (!SOURCES && !SMOKE) {
  const build = spawnSync(process.execPath, ["bin/build.js", "--if-stale"], { cwd: REPO_ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}

/** Runs a TypeScript script with tsx registered in its main thread only (worker threads start plain). */
function child(script: string, extra: Record<string, string>) {
  const boot = `const { register } = await import("tsx/esm/api"); register(); await import(${JSON.stringify(`./${script}`)});`;
  const proc = spawn(process.execPath, ["--input-type=module", "-e", boot], { cwd: REPO_ROOT, env: { ...process.env, ...env, ...extra }, stdio: ["ignore", "pipe", "inherit"] });
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout }).once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`${script} exited with ${code} before answering`)));
  });
  return { proc, firstLine };
}

interface Figures {
  mode: string;
  probes: number;
  ok: number;
  p50_late_s: number;
  p99_late_s: number;
  max_late_s: number;
  cpu_s: number;
  peak_rss_mb: number;
  at_peak_mb: { heap_total: number; heap_used: number; external: number; array_buffers: number };
}

const fleet = child("test/bench/uptime/fleet.ts", {});
const { port, dns, ca } = JSON.parse(await fleet.firstLine) as { port: number; dns: string; ca: string };
console.log(`svc's probe from ${!SOURCES && !SMOKE ? "the compiled dist/" : "the sources (tsx)"}; its parse threads exit after ${env.SVC_PARSE_IDLE_S} s without a page (SVC_PARSE_IDLE_S)`);
console.log(`fleet: ${env.BENCH_SITES} HTTPS sites on 127.0.0.1:${port}, DNS ${dns}; interval ${env.BENCH_INTERVAL_S} s × ${env.BENCH_ROUNDS} round(s); ${env.BENCH_STREAM_SLOTS} probes at once`);
const results: Figures[] = [];
try {
  for (const mode of ["svc", "bare"]) {
    const run = child("test/bench/uptime/prober.ts", { MODE: mode, BENCH_PORT: String(port), BENCH_DNS: dns, BENCH_CA: ca, BENCH_DIST: !SOURCES && !SMOKE ? "1" : "0" });
    const figures = JSON.parse(await run.firstLine) as Figures;
    results.push(figures);
    const f = (n: number, d = 2) => n.toFixed(d);
    console.log(
      `${mode.padEnd(5)} probes ${figures.probes}, up ${figures.ok}; lateness p50 ${f(figures.p50_late_s)} s, p99 ${f(figures.p99_late_s)} s, max ${f(figures.max_late_s)} s; ` +
        `CPU ${f(figures.cpu_s)} s (${f((figures.cpu_s * 1000) / Math.max(1, figures.probes), 3)} s per 1,000 probes, ${f(figures.cpu_s / (Number(env.BENCH_INTERVAL_S) * Number(env.BENCH_ROUNDS)), 3)} cores); peak RSS ${f(figures.peak_rss_mb, 0)} MB ` +
        `(main heap ${f(figures.at_peak_mb.heap_total, 0)} MB, ${f(figures.at_peak_mb.heap_used, 0)} used; external ${f(figures.at_peak_mb.external, 0)} MB)`,
    );
  }
} finally {
  fleet.proc.kill("SIGKILL");
}
const [svc, bare] = results;
if (svc && bare) {
  console.log(`svc/bare: CPU per probe ${(svc.cpu_s / svc.probes / (bare.cpu_s / bare.probes)).toFixed(2)}×, peak RSS ${(svc.peak_rss_mb / bare.peak_rss_mb).toFixed(2)}×, p99 lateness ${svc.p99_late_s.toFixed(2)} s vs ${bare.p99_late_s.toFixed(2)} s`);
  const held = svc.p99_late_s <= 5 && svc.cpu_s / (Number(env.BENCH_INTERVAL_S) * Number(env.BENCH_ROUNDS)) <= 1 && svc.peak_rss_mb <= 300;
  console.log(`target (p99 lateness ≤ 5 s, ≤ 1 core, ≤ 300 MB) for ${env.BENCH_SITES} sites: ${held ? "held" : "not held"}`);
  const slots = SMOKE ? {} : await jobSlots();
  writeBenchOutput({
    bench: "uptime",
    mode: SMOKE ? "smoke" : "full",
    figures: {
      ...slots,
      probes: svc.probes,
      cpu_ms_per_probe: svc.probes > 0 ? (svc.cpu_s * 1000) / svc.probes : null,
      bare_cpu_ms_per_probe: bare.probes > 0 ? (bare.cpu_s * 1000) / bare.probes : null,
      p99_late_s: svc.p99_late_s,
      rss_bytes: svc.peak_rss_mb * 1024 * 1024,
    },
  });
}
