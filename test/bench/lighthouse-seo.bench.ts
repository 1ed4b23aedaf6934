/**
 * bench:lighthouse-seo: Lighthouse 12.8.2 and Svc on the same pages, side by side (issue 4 §4).
 *
 * The fixture sites of test/harness/fixture-web (shop, blog, news, broken, forum, slow: real-looking
 * pages with the defects picked for each) are served over plain http on 127.0.0.1, one port per
 * site, plus one lab page built to produce known browser metrics (test/harness/lab-pages.ts). For
 * each site Svc collects its facts in process (crawler collectSiteFacts with the browser pool,
 * then analyzer analyzeSite); the pages compared are the home page and the first pages Svc
 * sampled. On each of them Lighthouse runs its SEO and performance categories with the desktop
 * preset and provided throttling (no simulated slowdown: the same conditions as Svc's lab run),
 * through its Node API with one Debian Chromium.
 *
 * Printed per page: each Lighthouse SEO audit's verdict beside the verdict of the Svc checks that
 * cover it (MAPPING below), and whether they agree; Lighthouse's FCP, LCP, CLS and TBT beside Svc's
 * browser metrics of the same page (desktop viewport, like for like; Svc's production run uses the
 * mobile viewport and is shown too) with the ratio Svc / Lighthouse; the wall time of each tool per
 * page. One page is measured at a time, never two tools at once.
 *
 * Lighthouse lives in test/bench/lighthouse with its own package.json and lock; this script
 * installs it there (npm ci --ignore-scripts) when missing, and Debian's chromium when missing.
 *
 * A benchmark, not a test: it prints figures, never fails on a number or a disagreement, and exits
 * non-zero only when the harness itself cannot run.
 *
 *   npm run bench:lighthouse-seo                 full: every fixture site, home + 2 sampled pages, and the lab page
 *   npm run bench:lighthouse-seo -- --smoke      smoke (also when CI=true): the shop's home and the lab page, under 3 minutes
 *
 * Overrides (environment): BENCH_SITES (comma-separated keys, e.g. shop,broken), BENCH_PAGES_PER_SITE.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { availableParallelism, cpus } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { analyzeSite, CHECKS, type ReportItem } from "../../analyzer/index.ts";
import { CHROMIUM_ARGS, collectSiteFacts, createBrowserPool, createEgress, type BrowserPool } from "../../crawler/index.ts";
import type { BrowserMetrics } from "../../proto/index.ts";
import { systemClock } from "../../runtime/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { siteCatalogue } from "../harness/fixture-web/site-catalogue.ts";
import type { SiteDefinition } from "../harness/fixture-web/site-definition.ts";
import { HERO_PNG, labPages } from "../harness/lab-pages.ts";
import { REPO_ROOT } from "../harness/svc-process.ts";
import { MAPPING } from "./lighthouse/mapping.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const SMOKE_BUDGET_MS = 170_000;
const LH_DIR = join(REPO_ROOT, "test/bench/lighthouse");
const OUT_FILE = join(REPO_ROOT, ".tmp/bench-lighthouse-seo.json");
const chosenSites = (process.env.BENCH_SITES ?? (SMOKE ? "shop" : "")).split(",").map((s) => s.trim()).filter(Boolean);
const PAGES_PER_SITE = Number(process.env.BENCH_PAGES_PER_SITE ?? (SMOKE ? 1 : 3));
const startedAt = Date.now();
const log = (line = ""): void => void process.stdout.write(`${line}\n`);

type Verdict = "pass" | "fail" | "n/a" | "manual" | "error" | "absent";
const METRICS = ["fcp", "lcp", "cls", "tbt"] as const;
type Metric = (typeof METRICS)[number];
type Figures = Partial<Record<Metric, number>>;

interface LighthouseRun {
  audits: Record<string, Verdict>;
  metrics: Figures;
  seoScore: number | null;
  performanceScore: number | null;
  wallMs: number;
  problem: string | null;
}

interface PageResult {
  site: string;
  url: string;
  lighthouse: LighthouseRun;
  svc: { verdicts: Record<string, Verdict> | null; desktop: Figures; mobile: Figures; desktopMs: number; mobileMs: number; collectMsPerPage: number | null };
}

// ---------------------------------------------------------------------------------------------
// Sites on loopback

interface Served {
  readonly key: string;
  readonly origin: string;
  readonly server: Server;
}

async function serve(key: string, routes: (origin: string) => { get(path: string): { status: number; type: string; body: string | Buffer } }, delayMs = 0): Promise<Served> {
  let table: ReturnType<typeof routes> | null = null;
  const server = createServer((req, res) => {
    const answer = table?.get((req.url ?? "/").split("?")[0] ?? "/") ?? { status: 503, type: "text/plain", body: "starting" };
    const send = () => res.writeHead(answer.status, { "content-type": answer.type, "content-length": String(Buffer.byteLength(answer.body)) }).end(req.method === "HEAD" ? undefined : answer.body);
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  table = routes(origin);
  return { key, origin, server };
}

function fixtureRoutes(site: SiteDefinition) {
  return (origin: string) => {
    const { resources, notFound } = site.content(origin);
    return {
      get: (path: string) => {
        const r = resources.get(path) ?? notFound;
        return { status: r.status ?? 200, type: r.type, body: r.body };
      },
    };
  };
}

function labRoutes() {
  const pages = labPages("http://127.0.0.1:9");
  return () => ({
    get: (path: string) => {
      if (path === "/hero.png") return { status: 200, type: "image/png", body: HERO_PNG };
      if (path === "/lab") return { status: 200, type: "text/html; charset=utf-8", body: pages["/lab"] ?? "" };
      return { status: 404, type: "text/plain", body: "not found" };
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Svc

/** A report item projected onto one page: a page check names its failing pages; a site check's failure applies to every page. */
function svcVerdict(items: readonly ReportItem[], code: string, url: string): Verdict {
  const item = items.find((i) => i.code === code);
  if (!item) return "absent";
  if (item.status === "na") return "n/a";
  if (item.status === "pass") return "pass";
  if (item.pages.length === 0) return "fail";
  return item.pages.includes(url) ? "fail" : "pass";
}

function combined(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes("fail")) return "fail";
  if (verdicts.includes("pass")) return "pass";
  return verdicts.every((v) => v === "absent") ? "absent" : "n/a";
}

function svcAuditVerdicts(items: readonly ReportItem[], url: string, isHome: boolean): Record<string, Verdict> {
  const out: Record<string, Verdict> = {};
  for (const m of MAPPING) out[m.audit] = m.homeOnly && !isHome ? "n/a" : combined(m.svc.map((code) => svcVerdict(items, code, url)));
  return out;
}

function figuresOf(b: BrowserMetrics): Figures {
  if (b.error) return {};
  return { fcp: b.fcpMs, lcp: b.lcpMs, cls: b.cls, tbt: b.tbtMs };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

interface Lighthouse {
  run(url: string): Promise<LighthouseRun>;
  version: string;
  close(): Promise<void>;
}

function ensureLighthouse(): void {
  if (existsSync(join(LH_DIR, "node_modules/lighthouse/package.json"))) return;
  log("installing Lighthouse: npm ci --prefix test/bench/lighthouse --ignore-scripts");
  execFileSync("npm", ["ci", "--prefix", LH_DIR, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: REPO_ROOT, stdio: ["ignore", "inherit", "inherit"] });
}

async function startLighthouse(chromePath: string): Promise<Lighthouse> {
  const lhModule = join(LH_DIR, "node_modules/lighthouse/core/index.js");
  const launcherModule = join(LH_DIR, "node_modules/chrome-launcher/dist/index.js");
  const lh = (await import(pathToFileURL(lhModule).href)) as { default: (url: string, flags: object, config: object) => Promise<{ lhr: Lhr } | undefined>; desktopConfig: object };
  const launcher = (await import(pathToFileURL(launcherModule).href)) as { launch(o: object): Promise<{ port: number; kill(): void | Promise<void> }> };
  const chrome = await launcher.launch({ chromePath, chromeFlags: ["--headless", ...CHROMIUM_ARGS.filter((a) => a !== "--disable-dev-shm-usage")], logLevel: "silent" });
  const { version } = JSON.parse(readFileSync(join(LH_DIR, "node_modules/lighthouse/package.json"), "utf8")) as { version: string };
  return {
    version,
    async run(url) {
      const t0 = performance.now();
      try {
        const result = await lh.default(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["seo", "performance"], throttlingMethod: "provided" }, lh.desktopConfig);
        const wallMs = performance.now() - t0;
        if (!result) return { audits: {}, metrics: {}, seoScore: null, performanceScore: null, wallMs, problem: "no result" };
        return { ...fromLhr(result.lhr), wallMs, problem: result.lhr.runtimeError?.message ?? null };
      } catch (err) {
        return { audits: {}, metrics: {}, seoScore: null, performanceScore: null, wallMs: performance.now() - t0, problem: (err as Error).message };
      }
    },
    close: async () => void (await chrome.kill()),
  };
}

interface Lhr {
  audits: Record<string, { score: number | null; scoreDisplayMode: string; numericValue?: number }>;
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  runtimeError?: { message: string };
}

function fromLhr(lhr: Lhr): Omit<LighthouseRun, "wallMs" | "problem"> {
  const audits: Record<string, Verdict> = {};
  for (const { id } of lhr.categories.seo?.auditRefs ?? []) {
    const a = lhr.audits[id];
    const mode = a?.scoreDisplayMode;
    audits[id] = mode === "binary" ? (a?.score === 1 ? "pass" : "fail") : mode === "manual" ? "manual" : mode === "error" ? "error" : "n/a";
  }
  const value = (id: string) => lhr.audits[id]?.numericValue;
  return {
    audits,
    metrics: { fcp: value("first-contentful-paint"), lcp: value("largest-contentful-paint"), cls: value("cumulative-layout-shift"), tbt: value("total-blocking-time") },
    seoScore: lhr.categories.seo?.score ?? null,
    performanceScore: lhr.categories.performance?.score ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Printing

const num = (v: number | null | undefined, digits = 0): string => (v === null || v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(digits));
const metricDigits = (m: Metric) => (m === "cls" ? 4 : 0);

function printSeo(p: PageResult): { agree: number; disagree: number; lhOnly: number; svcOnly: number; rows: string[] } {
  let agree = 0;
  let disagree = 0;
  let lhOnly = 0;
  let svcOnly = 0;
  const rows: string[] = [];
  for (const m of MAPPING) {
    const lhV = p.lighthouse.audits[m.audit] ?? "absent";
    const svcV = p.svc.verdicts?.[m.audit] ?? "absent";
    const both = (lhV === "pass" || lhV === "fail") && (svcV === "pass" || svcV === "fail");
    let mark = "";
    if (both && lhV === svcV) {
      agree += 1;
      mark = "agree";
    } else if (both) {
      disagree += 1;
      mark = "DIFFER";
    } else if (lhV === "pass" || lhV === "fail") {
      lhOnly += 1;
      mark = "lighthouse only";
    } else if (svcV === "pass" || svcV === "fail") {
      svcOnly += 1;
      mark = "svc only";
    }
    rows.push(`    ${m.audit.padEnd(18)} ${lhV.padEnd(7)} ${m.svc.join("+").padEnd(36)} ${svcV.padEnd(7)} ${mark}`);
  }
  return { agree, disagree, lhOnly, svcOnly, rows };
}

function median(values: readonly number[]): number | null {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  log(`bench:lighthouse-seo (${SMOKE ? "smoke" : "full"})`);
  const chrome = chromiumPath((line) => log(line));
  ensureLighthouse();
  const known = siteCatalogue();
  for (const key of chosenSites) if (!known.some((s) => s.key === key)) throw new Error(`BENCH_SITES: unknown site ${key}`);
  const sites = chosenSites.length > 0 ? known.filter((s) => chosenSites.includes(s.key)) : known;
  const served: Served[] = [];
  const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 5000 });
  const pool: BrowserPool = createBrowserPool({ executablePath: chrome, timeoutMs: 30_000, throttling: "provided", thirdParty: "none", externalAllowed: () => false }, { egress });
  const lighthouse = await startLighthouse(chrome);
  try {
    for (const site of sites) served.push(await serve(site.key, fixtureRoutes(site), site.delayMs));
    const lab = await serve("lab", labRoutes());
    served.push(lab);
    const cores = availableParallelism();
    log(`machine: ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), node ${process.version}; ${execFileSync(chrome, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()}`);
    log(`lighthouse ${lighthouse.version}: categories seo + performance, desktop preset, --throttling-method=provided, one Chromium, one page at a time`);
    log(`svc: collectSiteFacts (politeness: no delay, 4 connections; ${PAGES_PER_SITE - 1} sampled page(s) compared per site) + analyzeSite; browser metrics: one page at a time, fresh context, desktop 1350x940 (like for like) and mobile 412x823 (production)`);
    log(`sites: ${served.map((s) => `${s.key} ${s.origin}`).join(", ")}\n`);

    // Phase 1, Svc alone: the collection (its own mobile run of each home page included) and a
    // desktop and a mobile run of every compared page. Phase 2, Lighthouse alone. Never both at
    // once: Svc's browser runs pass every request through this process (route and proxy), so
    // Lighthouse's trace processing here would slow them down.
    const overBudget = () => SMOKE && Date.now() - startedAt > SMOKE_BUDGET_MS;
    await pool.measurePage(`${lab.origin}/lab`); // warm-up: the browser's launch is not a page's time
    const pending: Omit<PageResult, "lighthouse">[] = [];
    for (const site of served) {
      if (overBudget()) break;
      let urls = [`${site.origin}/lab`];
      let items: ReportItem[] | null = null;
      let collectMsPerPage: number | null = null;
      if (site.key !== "lab") {
        const t0 = performance.now();
        const facts = await collectSiteFacts(
          site.origin.replace("http://", ""),
          { maxPages: Math.max(0, PAGES_PER_SITE - 1), minDelayMs: 0, confirmDelayMs: 0, timeoutMs: 10_000 },
          { egress, clock: systemClock, randomHex: (n) => randomBytes(n).toString("hex"), browser: pool },
        );
        items = analyzeSite(facts).items;
        const pageUrls = [facts.home, ...facts.pages].map((p) => p?.response?.finalUrl ?? "").filter(Boolean);
        collectMsPerPage = (performance.now() - t0) / Math.max(1, pageUrls.length);
        urls = pageUrls.slice(0, PAGES_PER_SITE);
      }
      for (const url of urls) {
        const t1 = performance.now();
        const desktop = await pool.measurePage(url, { viewport: "desktop" });
        const desktopMs = performance.now() - t1;
        const t2 = performance.now();
        const mobile = await pool.measurePage(url, { viewport: "mobile" });
        const mobileMs = performance.now() - t2;
        const verdicts = items ? svcAuditVerdicts(items, url, new URL(url).pathname === "/") : null;
        pending.push({ site: site.key, url, svc: { verdicts, desktop: figuresOf(desktop), mobile: figuresOf(mobile), desktopMs, mobileMs, collectMsPerPage } });
      }
    }
    const results: PageResult[] = [];
    for (const page of pending) {
      if (overBudget()) {
        log(`${page.site} ${page.url}: Lighthouse skipped (smoke time budget spent)`);
        continue;
      }
      const result: PageResult = { ...page, lighthouse: await lighthouse.run(page.url) };
      results.push(result);
      printPage(result);
    }
    await summarise(results, lighthouse.version);
  } finally {
    await lighthouse.close();
    await pool.close();
    await egress.close();
    for (const s of served) s.server.close();
  }
}

function printPage(p: PageResult): void {
  log(`${p.site} ${p.url}${p.lighthouse.problem ? `   (lighthouse: ${p.lighthouse.problem})` : ""}`);
  log(`  lighthouse: SEO ${num(p.lighthouse.seoScore, 2)}, performance ${num(p.lighthouse.performanceScore, 2)}, ${num(p.lighthouse.wallMs / 1000, 1)} s; svc: collect+analyse (home's browser run included) ${num((p.svc.collectMsPerPage ?? NaN) / 1000, 2)} s a page, browser run ${num(p.svc.desktopMs / 1000, 2)} s (desktop) ${num(p.svc.mobileMs / 1000, 2)} s (mobile)`);
  if (p.svc.verdicts) {
    log(`    ${"lighthouse audit".padEnd(18)} ${"LH".padEnd(7)} ${"svc checks".padEnd(36)} ${"svc".padEnd(7)}`);
    for (const row of printSeo(p).rows) log(row);
  }
  log(`    ${"metric".padEnd(6)} ${"LH desktop".padStart(11)} ${"svc desktop".padStart(12)} ${"svc/LH".padStart(7)} ${"svc mobile".padStart(11)}`);
  for (const m of METRICS) {
    const a = p.lighthouse.metrics[m];
    const b = p.svc.desktop[m];
    const ratio = a !== undefined && b !== undefined && a > 0 ? num(b / a, 2) : "-";
    log(`    ${m.padEnd(6)} ${num(a, metricDigits(m)).padStart(11)} ${num(b, metricDigits(m)).padStart(12)} ${ratio.padStart(7)} ${num(p.svc.mobile[m], metricDigits(m)).padStart(11)}`);
  }
  log();
}

async function summarise(results: readonly PageResult[], version: string): Promise<void> {
  const seo = results.filter((r) => r.svc.verdicts).map(printSeo);
  const sum = (k: "agree" | "disagree" | "lhOnly" | "svcOnly") => seo.reduce((n, s) => n + s[k], 0);
  const decided = sum("agree") + sum("disagree");
  log(`SEO verdicts over ${seo.length} page(s) × ${MAPPING.length} Lighthouse audits: ${sum("agree")} agree, ${sum("disagree")} differ (agreement ${decided ? ((100 * sum("agree")) / decided).toFixed(1) : "-"} % of the pairs both decided); ${sum("lhOnly")} decided by Lighthouse only, ${sum("svcOnly")} by Svc only`);
  const perAudit = MAPPING.map((m) => {
    const differ = results.filter((r) => {
      const a = r.lighthouse.audits[m.audit];
      const b = r.svc.verdicts?.[m.audit];
      return (a === "pass" || a === "fail") && (b === "pass" || b === "fail") && a !== b;
    }).length;
    return `${m.audit} ${differ}`;
  });
  log(`disagreements by audit: ${perAudit.join(", ")}`);
  const oneSided = new Map<string, number>();
  for (const r of results) {
    if (!r.svc.verdicts) continue;
    for (const m of MAPPING) {
      const a = r.lighthouse.audits[m.audit] ?? "absent";
      const b = r.svc.verdicts[m.audit] ?? "absent";
      const decided = (v: Verdict) => v === "pass" || v === "fail";
      if (decided(a) !== decided(b)) oneSided.set(`${m.audit} LH ${a} / svc ${b}`, (oneSided.get(`${m.audit} LH ${a} / svc ${b}`) ?? 0) + 1);
    }
  }
  log(`decided by one side only: ${[...oneSided].map(([k, n]) => `${k} ×${n}`).join("; ") || "none"}`);
  const inCatalogue = new Set(CHECKS.map((c) => c.code));
  const mapped = new Set(MAPPING.flatMap((m) => [...m.svc, ...(m.more ?? [])]));
  log(`svc's catalogue: ${CHECKS.length} checks, ${[...mapped].filter((c) => inCatalogue.has(c)).length} of them beside a Lighthouse SEO audit; missing from the catalogue: ${[...mapped].filter((c) => !inCatalogue.has(c)).join(", ") || "none"}`);
  const ratios: Record<string, number | null> = {};
  for (const m of METRICS) {
    const rs = results.flatMap((r) => {
      const a = r.lighthouse.metrics[m];
      const b = r.svc.desktop[m];
      return a !== undefined && b !== undefined && a > 0 ? [b / a] : [];
    });
    ratios[m] = median(rs);
    log(`${m}: median svc/LH ratio ${num(ratios[m], 2)} over ${rs.length} page(s) with a non-zero Lighthouse value`);
  }
  const lhWall = median(results.map((r) => r.lighthouse.wallMs));
  const svcWall = median(results.map((r) => r.svc.desktopMs));
  const svcCollect = median(results.flatMap((r) => (r.svc.collectMsPerPage === null ? [] : [r.svc.collectMsPerPage])));
  log(`wall time per page (median): lighthouse ${num((lhWall ?? NaN) / 1000, 1)} s; svc browser run ${num((svcWall ?? NaN) / 1000, 2)} s; svc collect + analyse ${num((svcCollect ?? NaN) / 1000, 2)} s`);
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  await writeFile(OUT_FILE, JSON.stringify({ date: new Date().toISOString(), mode: SMOKE ? "smoke" : "full", lighthouse: version, mapping: MAPPING, results, ratios }, null, 2));
  log(`\nresults: ${OUT_FILE}; bench:lighthouse-seo took ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
}

try {
  await main();
  process.exit(0);
} catch (err) {
  process.stderr.write(`bench:lighthouse-seo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
