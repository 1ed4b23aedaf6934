/**
 * bench:browser: Svc's browser measurement against Lighthouse 12.8.2 on the same local pages
 * (issue 16 §3), and the browser pool's throughput and memory at 1, 2 and 4 contexts.
 *
 * Pages: built to produce known LCP, CLS, TBT and INP (test/harness/lab-pages.ts and the pages
 * below), served over plain http on 127.0.0.1. Both tools use Debian's Chromium, the desktop
 * screen, and no throttling (Svc's SVC_BROWSER_THROTTLING=provided; Lighthouse's desktop preset
 * with --throttling-method=provided), one page at a time, a fresh context (Svc) or a fresh tab
 * with a cleared cache (Lighthouse) per run. Each page is measured RUNS times by each tool,
 * interleaved, and the medians are printed side by side for FCP, LCP, CLS, TBT and the
 * performance score, then FCP split in two (doc: the document received; paint: from it to the
 * first paint), with the value the page was built to produce where it is known, and
 * whether Svc is within ±10 % of Lighthouse (absolute differences under 20 ms and 0.005 CLS count
 * as equal: below the timers' resolution on this machine).
 *
 * Then the pool alone: the same pages in a loop for a fixed count with 1, 2 and 4 contexts, pages
 * per minute and the browser's peak memory (PSS summed over its processes, as the pool samples it
 * after each page), beside Lighthouse's own pages per minute from its runs above.
 *
 * A benchmark, not a test: it prints figures and writes .tmp/bench-browser.json, never fails on a
 * number, and exits non-zero only when the harness itself cannot run. Lighthouse lives in
 * test/bench/lighthouse (its own package.json and lock, pinned 12.8.2: the newest release whose
 * engines allow Node 20); this script installs it there when missing, as bench:lighthouse-seo does.
 *
 *   npm run bench:browser                 full: every page, 3 runs each, pool at 1/2/4 contexts
 *   npm run bench:browser -- --smoke      smoke (also when CI=true): two pages, one run, pool at 1 and 2 contexts, under 2 minutes
 *
 * Overrides (environment): BENCH_RUNS, BENCH_POOL_PAGES (pages per throughput round).
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
import { CHROMIUM_ARGS, createBrowserPool, createEgress, type BrowserPoolMetrics } from "../../crawler/index.ts";
import type { BrowserMetrics } from "../../proto/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { CLICK_HANDLER_MS, HERO_PNG, labPages, LONG_TASK_MS, png, SHIFT_PX } from "../harness/lab-pages.ts";
import { REPO_ROOT } from "../harness/svc-process.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const RUNS = Number(process.env.BENCH_RUNS ?? (SMOKE ? 1 : 3));
const POOL_PAGES = Number(process.env.BENCH_POOL_PAGES ?? (SMOKE ? 4 : 24));
const CONTEXTS = SMOKE ? [1, 2] : [1, 2, 4];
const LH_DIR = join(REPO_ROOT, "test/bench/lighthouse");
const OUT_FILE = join(REPO_ROOT, ".tmp/bench-browser.json");
const log = (line = ""): void => void process.stdout.write(`${line}\n`);

// doc: the document received, from navigation start (Lighthouse: its network record's end;
// Svc: navigation timing's responseStart, the same on these one-packet pages); paint: fcp - doc,
// the time from the document to the first paint, which no network path is part of.
const METRICS = ["fcp", "lcp", "cls", "tbt", "score", "ttfb", "doc", "paint"] as const;
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

async function startLighthouse(chromePath: string) {
  const lh = (await import(pathToFileURL(join(LH_DIR, "node_modules/lighthouse/core/index.js")).href)) as {
    default: (url: string, flags: object, config: object) => Promise<{ lhr: Lhr } | undefined>;
    desktopConfig: object;
  };
  const launcher = (await import(pathToFileURL(join(LH_DIR, "node_modules/chrome-launcher/dist/index.js")).href)) as { launch(o: object): Promise<{ port: number; kill(): void | Promise<void> }> };
  const chrome = await launcher.launch({ chromePath, chromeFlags: ["--headless", ...CHROMIUM_ARGS.filter((a) => a !== "--disable-dev-shm-usage")], logLevel: "silent" });
  const { version } = JSON.parse(readFileSync(join(LH_DIR, "node_modules/lighthouse/package.json"), "utf8")) as { version: string };
  return {
    version,
    async run(url: string): Promise<LighthouseRun> {
      const t0 = performance.now();
      try {
        const result = await lh.default(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"], throttlingMethod: "provided" }, lh.desktopConfig);
        const wallMs = performance.now() - t0;
        if (!result) return { figures: {}, wallMs, problem: "no result" };
        const value = (id: string) => result.lhr.audits[id]?.numericValue;
        const score = result.lhr.categories.performance?.score;
        const doc = result.lhr.audits["network-requests"]?.details?.items?.find((r) => r.resourceType === "Document" && r.experimentalFromMainFrame)?.networkEndTime;
        const fcp = value("first-contentful-paint");
        return {
          figures: {
            fcp: value("first-contentful-paint"),
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

function svcFigures(m: BrowserMetrics): Figures & { inp?: number } {
  if (m.error) return {};
  const score = performanceScore(m);
  const paint = m.fcpMs !== undefined && m.ttfbMs !== undefined ? m.fcpMs - m.ttfbMs : undefined;
  return { fcp: m.fcpMs, lcp: m.lcpMs, cls: m.cls, tbt: m.tbtMs, ttfb: m.ttfbMs, doc: m.ttfbMs, paint, ...(score !== null ? { score } : {}), ...(m.inpMs !== undefined ? { inp: m.inpMs } : {}) };
}

function median(values: readonly (number | undefined)[]): number | undefined {
  const s = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const num = (v: number | undefined, digits = 0): string => (v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(digits));
const digitsOf = (m: Metric | "inp") => (m === "cls" ? 4 : 0);

/** Within ±10 % of Lighthouse, or closer than the timers can tell apart. */
function within(m: Metric, svc: number | undefined, lh: number | undefined): string {
  if (svc === undefined || lh === undefined) return "-";
  const floor = m === "cls" ? 0.005 : m === "score" ? 2 : 20;
  if (Math.abs(svc - lh) <= floor) return "yes";
  return lh !== 0 && Math.abs(svc - lh) / Math.abs(lh) <= 0.1 ? "yes" : "NO";
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  log(`bench:browser (${SMOKE ? "smoke" : "full"}): ${RUNS} run(s) per page and tool; pool at ${CONTEXTS.join("/")} contexts, ${POOL_PAGES} pages each`);
  const chrome = chromiumPath((line) => log(line));
  const lhProblem = ensureLighthouse();
  const site = await startSite();
  const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 5000 });
  const pages = SMOKE ? PAGES.filter((p) => SMOKE_PAGES.includes(p.path)) : PAGES;
  const out: Record<string, unknown> = { smoke: SMOKE, runs: RUNS, pages: [] as unknown[], pool: [] as unknown[] };
  log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), node ${process.version}; ${execFileSync(chrome, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()}`);
  let lighthouse: Awaited<ReturnType<typeof startLighthouse>> | null = null;
  if (lhProblem) log(`${lhProblem}: Svc's figures only`);
  else lighthouse = await startLighthouse(chrome);
  const lhWall: number[] = [];
  try {
    log(lighthouse ? `lighthouse ${lighthouse.version}: performance category, desktop preset, --throttling-method=provided` : "lighthouse: not run");
    log("svc: crawler/browser pool, one context, desktop profile, SVC_BROWSER_THROTTLING=provided, fresh context per run\n");
    const pool = createBrowserPool({ executablePath: chrome, timeoutMs: 30_000, thirdParty: "none", externalAllowed: () => false }, { egress });
    await pool.measurePage(`${site.origin}/text`, { viewport: "desktop" }); // warm-up: the browser's launch is no page's time
    for (const page of pages) {
      const url = `${site.origin}${page.path}`;
      const svcRuns: ReturnType<typeof svcFigures>[] = [];
      const lhRuns: LighthouseRun[] = [];
      for (let r = 0; r < RUNS; r++) {
        svcRuns.push(svcFigures(await pool.measurePage(url, { viewport: "desktop" })));
        if (lighthouse) {
          const run = await lighthouse.run(url);
          lhRuns.push(run);
          lhWall.push(run.wallMs);
        }
      }
      const svc = Object.fromEntries([...METRICS, "inp" as const].map((m) => [m, median(svcRuns.map((f) => f[m]))])) as Figures & { inp?: number };
      const lh = Object.fromEntries(METRICS.map((m) => [m, median(lhRuns.map((r) => r.figures[m]))])) as Figures;
      const problems = [...new Set(lhRuns.map((r) => r.problem).filter(Boolean))];
      log(`${page.path}: ${page.what}${problems.length ? `   (lighthouse: ${problems.join("; ")})` : ""}`);
      log(`    ${"metric".padEnd(6)} ${"built".padStart(8)} ${"lighthouse".padStart(11)} ${"svc".padStart(9)} ${"svc-LH".padStart(8)} ${"±10%".padStart(5)}`);
      for (const m of METRICS) {
        const d = digitsOf(m);
        const diff = svc[m] !== undefined && lh[m] !== undefined ? num((svc[m]) - (lh[m]), d) : "-";
        log(`    ${m.padEnd(6)} ${num(page.known[m], d).padStart(8)} ${num(lh[m], d).padStart(11)} ${num(svc[m], d).padStart(9)} ${diff.padStart(8)} ${within(m, svc[m], lh[m]).padStart(5)}`);
      }
      log(`    ${"inp".padEnd(6)} ${num(page.known.inp).padStart(8)} ${"-".padStart(11)} ${num(svc.inp).padStart(9)}`);
      (out.pages as unknown[]).push({ path: page.path, known: page.known, lighthouse: lh, svc, lighthouseProblems: problems });
    }
    await pool.close();

    log(`\nthe pool alone: ${POOL_PAGES} pages per round (the pages above in turn), desktop, no interaction wait beyond the page's own`);
    log(`    ${"contexts".padEnd(9)} ${"pages/min".padStart(10)} ${"peak MB".padStart(8)} ${"median LCP".padStart(11)}`);
    for (const contexts of CONTEXTS) {
      let peak = 0;
      const metrics: BrowserPoolMetrics = { contexts: () => {}, queue: () => {}, browsers: () => {}, memory: (b) => void (peak = Math.max(peak, b)), recycled: () => {}, crashed: () => {}, page: () => {} };
      const p = createBrowserPool({ executablePath: chrome, timeoutMs: 30_000, thirdParty: "none", externalAllowed: () => false, concurrency: contexts }, { egress, metrics });
      await p.measurePage(`${site.origin}/text`, { viewport: "desktop" });
      const t0 = performance.now();
      const results = await Promise.all(Array.from({ length: POOL_PAGES }, (_, i) => p.measurePage(`${site.origin}${(pages[i % pages.length] as BenchPage).path}`, { viewport: "desktop" })));
      const seconds = (performance.now() - t0) / 1000;
      await p.close();
      const lcp = median(results.filter((r) => !r.error).map((r) => r.lcpMs));
      const perMinute = (60 * POOL_PAGES) / seconds;
      log(`    ${String(contexts).padEnd(9)} ${num(perMinute, 1).padStart(10)} ${num(peak / 1024 / 1024).padStart(8)} ${num(lcp).padStart(11)}`);
      (out.pool as unknown[]).push({ contexts, pagesPerMinute: perMinute, peakMemoryBytes: peak, medianLcpMs: lcp, errors: results.filter((r) => r.error).length });
    }
    const lhMedian = median(lhWall);
    if (lhMedian !== undefined) log(`    lighthouse (one page at a time, its own runs above): ${num(60_000 / lhMedian, 1)} pages/min (median ${num(lhMedian / 1000, 1)} s a page)`);
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
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench:browser failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
