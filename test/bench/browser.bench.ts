/**
 * bench:browser: Svc's browser measurement against Lighthouse 12.8.2 on the same local pages
 * (issue 16 §3, issue 33 §4), and the browser pool's throughput and memory at 1, 2 and 4 contexts.
 *
 * Pages: built to produce known LCP, CLS, TBT and INP (test/harness/lab-pages.ts and the pages
 * below), served over plain http on 127.0.0.1, one page at a time, a fresh context (Svc) or a
 * fresh tab with a cleared cache (Lighthouse) per run, Debian's Chromium for both. Per page and
 * run, interleaved: Svc's default (SVC_BROWSER_THROTTLING=simulate) and Svc's devtools throttling
 * in the mobile and the desktop profile, then Lighthouse mobile default (simulate), mobile devtools,
 * desktop default (simulate) and desktop devtools. Printed per page and profile, medians of RUNS,
 * for FCP, LCP, TBT and CLS:
 *   - the default pairing: Svc default / Lighthouse default (what a user of Lighthouse or PageSpeed
 *     Insights gets: simulated throttling, Lantern);
 *   - the devtools pairing: Svc devtools / Lighthouse devtools (the same throttling applied the
 *     same way for real: slow 4G and 4x CPU on mobile, none on desktop);
 * each ratio marked when it is outside ±15 % (absolute differences under 20 ms and 0.005 CLS
 * count as equal: below the timers' resolution on this machine); then each tool's run-to-run
 * spread of FCP and LCP (max - min over the runs), and the node's load per core as Svc stated it.
 *
 * Then the pool alone: the same pages in a loop for a fixed count with 1, 2 and 4 contexts, pages
 * per minute and the browser's peak memory (PSS summed over its processes, as the pool samples it
 * after each page), desktop, beside Lighthouse's own pages per minute from its runs above.
 *
 * A benchmark, not a test: it prints figures and writes .tmp/bench-browser.json, never fails on a
 * number, and exits non-zero only when the harness itself cannot run. Lighthouse lives in
 * test/bench/lighthouse (its own package.json and lock, pinned 12.8.2: the newest release whose
 * engines allow Node 20); this script installs it there when missing, as bench:lighthouse-seo does.
 *
 *   npm run bench:browser                 full: every page, 3 runs each, pool at 1/2/4 contexts
 *   npm run bench:browser -- --smoke      smoke (also when CI=true): two pages, one run, pool at 1 and 2 contexts
 *
 * Last, what Chromium costs an analysis as deployed (the sizing model's cpu_ms.browser_analysis):
 * BENCH_ANALYSES fresh analyses (full 3, smoke 1) of bench:analyze's 20-page site through a real
 * `svc serve`, with SVC_BROWSER=auto (Chromium measures the home page and the most linked pages)
 * and again with SVC_BROWSER=off; each process tree's CPU from ready to the last analysis done,
 * Chromium's processes included (/proc: proc.ts processTree), per analysis. Written with
 * bench-output.ts to .tmp/bench/browser.json: analysis_cpu_ms_with_browser (node and Chromium),
 * analysis_cpu_ms_without_browser, and browser_cpu_ms_per_analysis, their difference (what
 * Chromium adds: the model counts the rest per analysed page, from bench:analyze).
 *
 *   npm run bench:browser -- --analyses   that last part only
 *   npm run bench:browser -- --pairings   the pairings with Lighthouse only (no pool rounds, no analyses)
 *
 * Overrides (environment): BENCH_RUNS, BENCH_POOL_PAGES (pages per throughput round), BENCH_ANALYSES,
 * BENCH_PAGES (comma-separated paths: only those pages, e.g. /hero,/lab), BENCH_PROFILES (mobile or
 * desktop: that profile only, Svc's and Lighthouse's).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { availableParallelism, cpus } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { performanceScore } from "../../analyzer/index.ts";
import { CHROMIUM_ARGS, createBrowserPool, createEgress, type BrowserPoolMetrics, type ProfileName } from "../../crawler/index.ts";
import type { BrowserMetrics } from "../../proto/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { CLICK_HANDLER_MS, HERO_PNG, labPages, LONG_TASK_MS, png, SHIFT_PX } from "../harness/lab-pages.ts";
import { REPO_ROOT } from "../harness/svc-process.ts";
import { writeBenchOutput } from "./bench-output.ts";
import { servedAnalyses } from "./served-analyses.ts";
import { startTwentyPageSite } from "./sites/twenty-pages.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const RUNS = Number(process.env.BENCH_RUNS ?? (SMOKE ? 1 : 3));
const POOL_PAGES = Number(process.env.BENCH_POOL_PAGES ?? (SMOKE ? 4 : 24));
const CONTEXTS = SMOKE ? [1, 2] : [1, 2, 4];
const ANALYSES_ONLY = process.argv.includes("--analyses");
const PAIRINGS_ONLY = process.argv.includes("--pairings");
const ANALYSES = Number(process.env.BENCH_ANALYSES ?? (SMOKE ? 1 : 3));
const ONLY_PAGES = process.env.BENCH_PAGES ? process.env.BENCH_PAGES.split(",").map((p) => p.trim()) : null;
const PROFILES: readonly ProfileName[] = process.env.BENCH_PROFILES ? (process.env.BENCH_PROFILES.split(",").map((p) => p.trim()) as ProfileName[]) : ["mobile", "desktop"];
const LH_DIR = join(REPO_ROOT, "test/bench/lighthouse");
const OUT_FILE = join(REPO_ROOT, ".tmp/bench-browser.json");
const log = (line = ""): void => void process.stdout.write(`${line}\n`);

// doc: the document received, from navigation start (Lighthouse: its network record's end;
// Svc: navigation timing's responseStart, the same on these one-packet pages); paint: fcp - doc,
// the time from the document to the first paint, which no network path is part of.
const METRICS = ["fcp", "lcp", "cls", "tbt", "score", "ttfb", "doc", "paint"] as const;
/** The metrics the pairings compare. */
const PAIRED = ["fcp", "lcp", "tbt", "cls"] as const;
const TOLERANCE = 0.15;
type Metric = (typeof METRICS)[number];
type Figures = Partial<Record<Metric, number>>;

// ---------------------------------------------------------------------------------------------
// Pages, each with what it was built to produce (desktop screen: 1350 × 940)

const DESKTOP = { width: 1350, height: 940 };
const LATE_IMAGE_MS = 800;
const SMALL_TASK_MS = 120;
const SMALL_TASKS = 3;

interface BenchPage {
  readonly path: string;
  readonly what: string;
  readonly known: Figures & { inp?: number };
}

const head = (title: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{margin:0;font:16px sans-serif}</style></head>`;

/** Bench-only pages beside the lab pages (their values are for the desktop screen). */
function benchPages(): Record<string, string> {
  const shiftBox = 235; // a full-width box moved by its own height on a 940 px screen
  return {
    "/text": `${head("Text")}<body><h1>Only text</h1><p>${"Words of a plain page. ".repeat(40)}</p></body></html>`,
    "/late-image": `${head("Late image")}<body><p>Small text first.</p><div id="slot"></div><script>addEventListener("load", () => setTimeout(() => { const i = new Image(412, 309); i.src = "/hero.png"; document.getElementById("slot").append(i); }, ${LATE_IMAGE_MS}));</script></body></html>`,
    "/desktop-shift": `${head("Desktop shift")}<body><div id="spacer"></div><div style="height:${shiftBox}px;background:#c00">box</div><script>addEventListener("load", () => setTimeout(() => { document.getElementById("spacer").style.height = "${shiftBox}px"; }, 700));</script></body></html>`,
    "/three-tasks": `${head("Three tasks")}<body><h1>Three tasks</h1><p>Text, then three tasks apart.</p><script>addEventListener("load", () => { for (let k = 0; k < ${SMALL_TASKS}; k++) setTimeout(() => { const end = performance.now() + ${SMALL_TASK_MS}; while (performance.now() < end); }, 200 + k * 300); });</script></body></html>`,
    "/blocking-css": `${head("Blocking CSS")}<link rel="stylesheet" href="/slow.css"><body><h1>Styled late</h1><p>A stylesheet that takes 400 ms holds the first paint.</p></body></html>`,
  };
}

/**
 * CLS of a full-width box of height h moved down by h: impact fraction 2h/H (old and new place)
 * times distance fraction h / max(W, H) (the distance is over the viewport's larger side).
 */
const cls = (h: number, screen: { width: number; height: number }) => ((2 * h) / screen.height) * (h / Math.max(screen.width, screen.height));

const PAGES: readonly BenchPage[] = [
  { path: "/text", what: "text only: LCP = FCP, no shift, no long task", known: { cls: 0, tbt: 0 } },
  { path: "/hero", what: "an 800x600 hero image shown at 412x309: LCP is the image", known: { cls: 0, tbt: 0 } },
  // Shown at 412x309: a one-colour PNG shown larger falls under Chromium's 0.05 bits per pixel and is no LCP candidate.
  { path: "/late-image", what: `an image inserted ${LATE_IMAGE_MS} ms after load: LCP after it`, known: { cls: 0, tbt: 0 } },
  { path: "/shift", what: `a ${SHIFT_PX} px box shifted by ${SHIFT_PX} px (built for mobile; here on the desktop screen)`, known: { cls: cls(SHIFT_PX, DESKTOP), tbt: 0 } },
  { path: "/desktop-shift", what: "a 235 px box shifted by 235 px on the desktop screen", known: { cls: cls(235, DESKTOP), tbt: 0 } },
  { path: "/busy", what: `one ${LONG_TASK_MS} ms task after first paint: TBT ${LONG_TASK_MS - 50}`, known: { cls: 0, tbt: LONG_TASK_MS - 50 } },
  { path: "/three-tasks", what: `${SMALL_TASKS} tasks of ${SMALL_TASK_MS} ms: TBT ${SMALL_TASKS * (SMALL_TASK_MS - 50)}`, known: { cls: 0, tbt: SMALL_TASKS * (SMALL_TASK_MS - 50) } },
  { path: "/click", what: `a ${CLICK_HANDLER_MS} ms click handler: INP ≥ ${CLICK_HANDLER_MS} (Lighthouse's navigation mode has no INP)`, known: { cls: 0, tbt: 0, inp: CLICK_HANDLER_MS } },
  { path: "/blocking-css", what: "a render-blocking stylesheet served in 400 ms: FCP ≥ 400", known: { cls: 0, tbt: 0 } },
  { path: "/lab", what: "shift, long task and hero image at once", known: {} },
];
const SMOKE_PAGES = ["/lab", "/busy"];

function startSite(): Promise<{ origin: string; server: Server }> {
  const html: Record<string, string> = { ...labPages("http://127.0.0.1:9"), ...benchPages() };
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path === "/hero.png") return void res.writeHead(200, { "content-type": "image/png", "cache-control": "no-store" }).end(HERO_PNG);
    if (path === "/slow.css") return void setTimeout(() => res.writeHead(200, { "content-type": "text/css" }).end("body{background:#eef}"), 400);
    if (path === "/favicon.ico") return void res.writeHead(200, { "content-type": "image/png" }).end(png(16, 16));
    const body = html[path];
    if (body === undefined) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

// ---------------------------------------------------------------------------------------------
// Lighthouse (test/bench/lighthouse, installed on demand)

interface LighthouseRun {
  readonly figures: Figures;
  readonly wallMs: number;
  readonly problem: string | null;
}

function ensureLighthouse(): string | null {
  if (existsSync(join(LH_DIR, "node_modules/lighthouse/package.json"))) return null;
  log("installing Lighthouse: npm ci --prefix test/bench/lighthouse --ignore-scripts");
  try {
    execFileSync("npm", ["ci", "--prefix", LH_DIR, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: REPO_ROOT, stdio: ["ignore", "inherit", "inherit"] });
    return null;
  } catch (err) {
    return `Lighthouse could not be installed: ${(err as Error).message.split("\n")[0]}`;
  }
}

/** A Lighthouse run's settings: its preset (mobile is its default config) and throttling method. */
interface LighthouseMode {
  readonly preset: ProfileName;
  readonly method: "simulate" | "devtools" | "provided";
}
const LH_MODES: readonly LighthouseMode[] = [
  { preset: "mobile", method: "simulate" },
  { preset: "mobile", method: "devtools" },
  { preset: "desktop", method: "simulate" },
  { preset: "desktop", method: "devtools" },
];
const modeName = (m: LighthouseMode) => `${m.preset}-${m.method}`;

async function startLighthouse(chromePath: string) {
  const lh = (await import(pathToFileURL(join(LH_DIR, "node_modules/lighthouse/core/index.js")).href)) as {
    default: (url: string, flags: object, config?: object) => Promise<{ lhr: Lhr } | undefined>;
    desktopConfig: object;
  };
  const launcher = (await import(pathToFileURL(join(LH_DIR, "node_modules/chrome-launcher/dist/index.js")).href)) as { launch(o: object): Promise<{ port: number; kill(): void | Promise<void> }> };
  const chrome = await launcher.launch({ chromePath, chromeFlags: ["--headless", ...CHROMIUM_ARGS.filter((a) => a !== "--disable-dev-shm-usage")], logLevel: "silent" });
  const { version } = JSON.parse(readFileSync(join(LH_DIR, "node_modules/lighthouse/package.json"), "utf8")) as { version: string };
  return {
    version,
    async run(url: string, mode: LighthouseMode): Promise<LighthouseRun> {
      const t0 = performance.now();
      try {
        const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"], throttlingMethod: mode.method };
        const result = await lh.default(url, flags, mode.preset === "desktop" ? lh.desktopConfig : undefined);
        const wallMs = performance.now() - t0;
        if (!result) return { figures: {}, wallMs, problem: "no result" };
        const value = (id: string) => result.lhr.audits[id]?.numericValue;
        const score = result.lhr.categories.performance?.score;
        const doc = result.lhr.audits["network-requests"]?.details?.items?.find((r) => r.resourceType === "Document" && r.experimentalFromMainFrame)?.networkEndTime;
        const fcp = value("first-contentful-paint");
        return {
          figures: {
            fcp,
            lcp: value("largest-contentful-paint"),
            cls: value("cumulative-layout-shift"),
            tbt: value("total-blocking-time"),
            // The document's server response time (request sent to first byte), to explain FCP gaps.
            ttfb: value("server-response-time"),
            doc,
            paint: fcp !== undefined && doc !== undefined ? fcp - doc : undefined,
            ...(typeof score === "number" ? { score: Math.round(score * 100) } : {}),
          },
          wallMs,
          problem: result.lhr.runtimeError?.message ?? null,
        };
      } catch (err) {
        return { figures: {}, wallMs: performance.now() - t0, problem: (err as Error).message };
      }
    },
    close: async () => void (await chrome.kill()),
  };
}

interface Lhr {
  audits: Record<string, { numericValue?: number; details?: { items?: { resourceType?: string; experimentalFromMainFrame?: boolean; networkEndTime?: number }[] } }>;
  categories: Record<string, { score: number | null }>;
  runtimeError?: { message: string };
}

// ---------------------------------------------------------------------------------------------
// Figures

type SvcFigures = Figures & { inp?: number; load?: number };

function svcFigures(m: BrowserMetrics): SvcFigures {
  const load = m.nodeLoad;
  if (m.error) return load !== undefined ? { load } : {};
  const score = performanceScore(m);
  const paint = m.fcpMs !== undefined && m.ttfbMs !== undefined ? m.fcpMs - m.ttfbMs : undefined;
  return { fcp: m.fcpMs, lcp: m.lcpMs, cls: m.cls, tbt: m.tbtMs, ttfb: m.ttfbMs, doc: m.ttfbMs, paint, ...(score !== null ? { score } : {}), ...(m.inpMs !== undefined ? { inp: m.inpMs } : {}), ...(load !== undefined ? { load } : {}) };
}

function median(values: readonly (number | undefined)[]): number | undefined {
  const s = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** max - min of the runs' values (undefined with fewer than two). */
function spread(values: readonly (number | undefined)[]): number | undefined {
  const s = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return s.length < 2 ? undefined : Math.max(...s) - Math.min(...s);
}

const num = (v: number | undefined, digits = 0): string => (v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(digits));
const digitsOf = (m: Metric | "inp") => (m === "cls" ? 4 : 0);

/** Svc / Lighthouse, and whether it is within ±15 % (or closer than the timers can tell apart). */
function ratio(m: Metric, svc: number | undefined, lh: number | undefined): { text: string; ratio: number | null; within: boolean | null } {
  if (svc === undefined || lh === undefined) return { text: "-", ratio: null, within: null };
  const floor = m === "cls" ? 0.005 : m === "score" ? 2 : 20;
  const r = lh !== 0 ? svc / lh : null;
  const within = Math.abs(svc - lh) <= floor || (r !== null && Math.abs(r - 1) <= TOLERANCE);
  const shown = r === null ? (svc === 0 ? "=" : "inf") : r.toFixed(2);
  return { text: `${shown}${within ? "" : " !"}`, ratio: r, within };
}

// ---------------------------------------------------------------------------------------------

interface PageResult {
  readonly path: string;
  readonly profile: ProfileName;
  /** Svc's default (simulate). */
  readonly svc: Figures;
  readonly svcDevtools: Figures;
  readonly lhDefault: Figures;
  readonly lhDevtools: Figures;
  readonly svcSpread: { fcp?: number; lcp?: number };
  /** Lighthouse devtools' spread; its default's (simulate) beside it. */
  readonly lhSpread: { fcp?: number; lcp?: number };
  readonly lhDefaultSpread: { fcp?: number; lcp?: number };
  readonly load?: number;
}

/** What Chromium adds to one analysis through `svc serve`, in CPU milliseconds of the whole process tree. */
async function analysisCost(chrome: string): Promise<void> {
  log(`\nanalyses through svc serve: ${ANALYSES} fresh analyses of the 20-page site with SVC_BROWSER=auto, then off; CPU of the process tree (node and Chromium's processes) from ready to the last done`);
  const site = await startTwentyPageSite();
  try {
    const settings = { SVC_BROWSER_PATH: chrome, SVC_CONFIRM_DELAY_MS: "0", SVC_PAGE_SAMPLE: "20" };
    const withBrowser = await servedAnalyses(site.host, ANALYSES, { ...settings, SVC_BROWSER: "auto" });
    const without = await servedAnalyses(site.host, ANALYSES, { ...settings, SVC_BROWSER: "off" });
    if (!withBrowser.browserRan) log("    Chromium never ran during the analyses with SVC_BROWSER=auto: no figure written");
    const withMs = withBrowser.cpuSPerAnalysis * 1000;
    const withoutMs = without.cpuSPerAnalysis * 1000;
    const slot = (r: typeof without) => median([...r.slotS]);
    log(`    SVC_BROWSER=auto  ${num(withMs).padStart(7)} CPU-ms per analysis (job slot held ${num(slot(withBrowser), 1)} s, median)`);
    log(`    SVC_BROWSER=off   ${num(withoutMs).padStart(7)} CPU-ms per analysis (job slot held ${num(slot(without), 1)} s, median)`);
    log(`    Chromium adds     ${num(withMs - withoutMs).padStart(7)} CPU-ms per analysis (${num(withMs / withoutMs, 1)}× the analysis without it); load average ${num(withBrowser.loadAvg, 1)} / ${num(without.loadAvg, 1)}`);
    const path = writeBenchOutput({
      bench: "browser",
      mode: SMOKE ? "smoke" : "full",
      figures: {
        analyses: ANALYSES,
        analysis_cpu_ms_with_browser: withBrowser.browserRan ? withMs : null,
        analysis_cpu_ms_without_browser: withoutMs,
        browser_cpu_ms_per_analysis: withBrowser.browserRan ? withMs - withoutMs : null,
        load_avg: withBrowser.loadAvg,
      },
    });
    log(`    written to ${path}`);
  } finally {
    await site.close();
  }
}

async function main(): Promise<void> {
  if (ANALYSES_ONLY) return analysisCost(chromiumPath((line) => log(line)));
  log(`bench:browser (${SMOKE ? "smoke" : "full"}): ${RUNS} run(s) per page, profile and tool; pool at ${CONTEXTS.join("/")} contexts, ${POOL_PAGES} pages each`);
  const chrome = chromiumPath((line) => log(line));
  const lhProblem = ensureLighthouse();
  const site = await startSite();
  const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 5000 });
  const pages = PAGES.filter((p) => (ONLY_PAGES ?? (SMOKE ? SMOKE_PAGES : [p.path])).includes(p.path));
  const out: Record<string, unknown> = { smoke: SMOKE, runs: RUNS, pages: [] as unknown[], pool: [] as unknown[] };
  log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), node ${process.version}; ${execFileSync(chrome, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()}`);
  let lighthouse: Awaited<ReturnType<typeof startLighthouse>> | null = null;
  if (lhProblem) log(`${lhProblem}: Svc's figures only`);
  else lighthouse = await startLighthouse(chrome);
  const lhWall: number[] = [];
  const results: PageResult[] = [];
  try {
    log(lighthouse ? `lighthouse ${lighthouse.version}: performance category; ${LH_MODES.map(modeName).join(", ")}` : "lighthouse: not run");
    log("svc: crawler/browser pool, one context, SVC_BROWSER_THROTTLING=simulate (the default) and devtools, mobile and desktop profiles, fresh context per run\n");
    const pool = createBrowserPool({ executablePath: chrome, timeoutMs: 60_000, throttling: "simulate", thirdParty: "none", externalAllowed: () => false }, { egress });
    const devtoolsPool = createBrowserPool({ executablePath: chrome, timeoutMs: 60_000, throttling: "devtools", thirdParty: "none", externalAllowed: () => false }, { egress });
    // Warm-up: the browsers' launch and the trace engine's first load are no page's time.
    await pool.measurePage(`${site.origin}/text`);
    await devtoolsPool.measurePage(`${site.origin}/text`, { viewport: "desktop" });
    for (const page of pages) {
      const url = `${site.origin}${page.path}`;
      const svcRuns: Record<ProfileName, SvcFigures[]> = { mobile: [], desktop: [] };
      const devtoolsRuns: Record<ProfileName, SvcFigures[]> = { mobile: [], desktop: [] };
      const lhRuns = new Map<string, LighthouseRun[]>(LH_MODES.map((m) => [modeName(m), []]));
      for (let r = 0; r < RUNS; r++) {
        for (const profile of PROFILES) {
          svcRuns[profile].push(svcFigures(await pool.measurePage(url, { viewport: profile })));
          devtoolsRuns[profile].push(svcFigures(await devtoolsPool.measurePage(url, { viewport: profile })));
        }
        if (!lighthouse) continue;
        for (const mode of LH_MODES.filter((m) => PROFILES.includes(m.preset))) {
          const run = await lighthouse.run(url, mode);
          lhRuns.get(modeName(mode))?.push(run);
          lhWall.push(run.wallMs);
        }
      }
      const problems = [...new Set([...lhRuns.values()].flat().map((r) => r.problem).filter(Boolean))];
      log(`${page.path}: ${page.what}${problems.length ? `   (lighthouse: ${problems.join("; ")})` : ""}`);
      for (const profile of PROFILES) {
        const runs = svcRuns[profile];
        const svc = Object.fromEntries(METRICS.map((m) => [m, median(runs.map((f) => f[m]))])) as Figures;
        const svcDevtools = Object.fromEntries(METRICS.map((m) => [m, median(devtoolsRuns[profile].map((f) => f[m]))])) as Figures;
        const lhOf = (method: string) => {
          const rs = lhRuns.get(`${profile}-${method}`) ?? [];
          return { figures: Object.fromEntries(METRICS.map((m) => [m, median(rs.map((x) => x.figures[m]))])) as Figures, runs: rs };
        };
        const def = lhOf("simulate");
        const dev = lhOf("devtools");
        const result: PageResult = {
          path: page.path,
          profile,
          svc,
          svcDevtools,
          lhDefault: def.figures,
          lhDevtools: dev.figures,
          svcSpread: { fcp: spread(runs.map((f) => f.fcp)), lcp: spread(runs.map((f) => f.lcp)) },
          lhSpread: { fcp: spread(dev.runs.map((x) => x.figures.fcp)), lcp: spread(dev.runs.map((x) => x.figures.lcp)) },
          lhDefaultSpread: { fcp: spread(def.runs.map((x) => x.figures.fcp)), lcp: spread(def.runs.map((x) => x.figures.lcp)) },
          ...(median(runs.map((f) => f.load)) !== undefined ? { load: median(runs.map((f) => f.load)) } : {}),
        };
        results.push(result);
        log(`  ${profile} (svc: node load per core ${num(result.load, 2)}; FCP spread svc ${num(result.svcSpread.fcp)} / LH devtools ${num(result.lhSpread.fcp)} ms)`);
        log(`    ${"metric".padEnd(6)} ${"built".padStart(8)} ${"svc".padStart(8)} ${"LH default".padStart(11)} ${"svc/def".padStart(8)} ${"svc devtools".padStart(13)} ${"LH devtools".padStart(12)} ${"dev/dev".padStart(8)}`);
        for (const m of [...PAIRED, "score", "doc", "paint"] as const) {
          const d = digitsOf(m);
          const known = profile === "desktop" ? page.known[m] : undefined;
          log(`    ${m.padEnd(6)} ${num(known, d).padStart(8)} ${num(svc[m], d).padStart(8)} ${num(def.figures[m], d).padStart(11)} ${ratio(m, svc[m], def.figures[m]).text.padStart(8)} ${num(svcDevtools[m], d).padStart(13)} ${num(dev.figures[m], d).padStart(12)} ${ratio(m, svcDevtools[m], dev.figures[m]).text.padStart(8)}`);
        }
        if (profile === "desktop") log(`    ${"inp".padEnd(6)} ${num(page.known.inp).padStart(8)} ${num(median(runs.map((f) => f.inp))).padStart(8)}`);
      }
      (out.pages as unknown[]).push(...results.filter((x) => x.path === page.path), { path: page.path, lighthouseProblems: problems });
    }
    await pool.close();
    await devtoolsPool.close();
    summary(results);

    if (!PAIRINGS_ONLY) log(`\nthe pool alone: ${POOL_PAGES} pages per round (the pages above in turn), desktop, no interaction wait beyond the page's own`);
    if (!PAIRINGS_ONLY) log(`    ${"contexts".padEnd(9)} ${"pages/min".padStart(10)} ${"peak MB".padStart(8)} ${"median LCP".padStart(11)}`);
    for (const contexts of PAIRINGS_ONLY ? [] : CONTEXTS) {
      let peak = 0;
      const metrics: BrowserPoolMetrics = { contexts: () => {}, queue: () => {}, browsers: () => {}, memory: (b) => void (peak = Math.max(peak, b)), recycled: () => {}, crashed: () => {}, page: () => {} };
      const p = createBrowserPool({ executablePath: chrome, timeoutMs: 30_000, throttling: "simulate", thirdParty: "none", externalAllowed: () => false, concurrency: contexts }, { egress, metrics });
      await p.measurePage(`${site.origin}/text`, { viewport: "desktop" });
      const t0 = performance.now();
      const pooled = await Promise.all(Array.from({ length: POOL_PAGES }, (_, i) => p.measurePage(`${site.origin}${(pages[i % pages.length] as BenchPage).path}`, { viewport: "desktop" })));
      const seconds = (performance.now() - t0) / 1000;
      await p.close();
      const lcp = median(pooled.filter((r) => !r.error).map((r) => r.lcpMs));
      const perMinute = (60 * POOL_PAGES) / seconds;
      log(`    ${String(contexts).padEnd(9)} ${num(perMinute, 1).padStart(10)} ${num(peak / 1024 / 1024).padStart(8)} ${num(lcp).padStart(11)}`);
      (out.pool as unknown[]).push({ contexts, pagesPerMinute: perMinute, peakMemoryBytes: peak, medianLcpMs: lcp, errors: pooled.filter((r) => r.error).length });
    }
    const lhMedian = median(lhWall);
    if (lhMedian !== undefined) log(`    lighthouse (one page at a time, its own runs above, all modes): ${num(60_000 / lhMedian, 1)} pages/min (median ${num(lhMedian / 1000, 1)} s a page)`);
    out.lighthousePagesPerMinute = lhMedian !== undefined ? 60_000 / lhMedian : null;
    out.lighthouseProblem = lhProblem;
  } finally {
    await lighthouse?.close();
    await egress.close();
    site.server.close();
  }
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  await writeFile(OUT_FILE, JSON.stringify(out, null, 1));
  log(`\nfigures written to ${OUT_FILE}`);
  if (!PAIRINGS_ONLY) await analysisCost(chrome);
}

/** Per profile and pairing: how many page × metric ratios are within ±15 %, their median and range, and the spreads. */
function summary(results: readonly PageResult[]): void {
  log("\nsummary: Svc / Lighthouse per metric over the pages (median, range of the ratios with a non-zero Lighthouse value; within ±15 % or 20 ms / 0.005 CLS)");
  for (const profile of PROFILES) {
    const pairings = [
      ["default", (r: PageResult) => r.svc, (r: PageResult) => r.lhDefault],
      ["devtools", (r: PageResult) => r.svcDevtools, (r: PageResult) => r.lhDevtools],
    ] as const;
    for (const [pairing, ours, theirs] of pairings) {
      const parts = PAIRED.map((m) => {
        const rs = results.filter((r) => r.profile === profile).map((r) => ratio(m, ours(r)[m], theirs(r)[m]));
        const known = rs.filter((r) => r.within !== null);
        const ratios = known.map((r) => r.ratio).filter((x): x is number => x !== null);
        const range = ratios.length ? `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}` : "-";
        return `${m} ${num(median(ratios), 2)} (${range}) ${known.filter((r) => r.within).length}/${known.length}`;
      });
      log(`  ${profile.padEnd(8)} ${pairing.padEnd(9)} svc/LH ${parts.join("; ")}`);
    }
    const rows = results.filter((r) => r.profile === profile);
    const med = (pick: (r: PageResult) => number | undefined) => num(median(rows.map(pick)));
    log(`  ${profile.padEnd(8)} FCP spread (max-min over runs), median over pages: svc default ${med((r) => r.svcSpread.fcp)} ms, LH default ${med((r) => r.lhDefaultSpread.fcp)} ms, LH devtools ${med((r) => r.lhSpread.fcp)} ms; LCP: svc default ${med((r) => r.svcSpread.lcp)}, LH default ${med((r) => r.lhDefaultSpread.lcp)}, LH devtools ${med((r) => r.lhSpread.lcp)}`);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench:browser failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
