/**
 * bench:browser-proxy: where the browser's egress proxy runs, and what the crawler's event loop
 * being busy does to the browser's figures (findings B6).
 *
 * Every request of a measured page passes the egress proxy (crawler/fetch/egress-proxy.ts). Two
 * pools measure the same loopback page, interleaved, each with its own Chromium: one with the
 * proxies on this process's main event loop (inProcessPageProxies, as before), one with them on a
 * thread of their own (threadPageProxies, as a crawler node runs them). Each is measured with the
 * main loop idle and with it kept busy by a synthetic CPU loop standing in for parsing and analyses
 * (BUSY_SLICE_MS of work, a turn of the loop, again). The page is served by a separate process, so
 * that only the proxy's place differs. Printed: medians of RUNS for TTFB, FCP and LCP (mobile
 * profile, unthrottled), the ratios proxy-on-main / proxy-on-thread and busy / idle, and the
 * process's RSS: what the proxy thread alone adds (started and one proxy opened, before any
 * browser), and the RSS after each pool's first pages and at the end.
 *
 * A benchmark, not a test: it prints figures and writes .tmp/bench/browser-proxy.json, never fails
 * on a number, and exits non-zero only when the harness itself cannot run.
 *
 *   npm run bench:browser-proxy                 full: RUNS=7 per condition
 *   npm run bench:browser-proxy -- --smoke      smoke (also when CI=true): RUNS=2
 *
 * Overrides (environment): BENCH_RUNS, BENCH_BUSY_SLICE_MS; BENCH_DIST=1 loads the crawler from
 * the compiled dist/ (npm run build), as `svc crawler` runs it, rather than from the sources
 * under tsx (whose loader and compilation the thread pays too).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import type { BrowserPool } from "../../crawler/index.ts";
import type { BrowserMetrics } from "../../proto/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { writeBenchOutput } from "./bench-output.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const RUNS = Number(process.env.BENCH_RUNS ?? (SMOKE ? 2 : 7));
const BUSY_SLICE_MS = Number(process.env.BENCH_BUSY_SLICE_MS ?? 50);
const SCRIPT_BYTES = 400 * 1024;
const log = (line = ""): void => void process.stdout.write(`${line}\n`);
const CRAWLER = process.env.BENCH_DIST === "1" ? "../../dist/crawler/index.js" : "../../crawler/index.ts";
const { createBrowserPool, createEgress, inProcessPageProxies, threadPageProxies } = (await import(CRAWLER)) as typeof import("../../crawler/index.ts");

// The page's server, in a process of its own (plain JavaScript, no loader): a document with two
// stylesheets and a 400 KB blocking script in its head (FCP waits for all three), a hero image (the
// LCP) and three small images. It prints its port.
const SERVER = `
const { createServer } = require("node:http");
const { deflateSync } = require("node:zlib");
function png(w, h, seed) {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type, data) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
  const raw = Buffer.alloc((w * 3 + 1) * h); let s = seed;
  for (let i = 0; i < raw.length; i++) { s = (s * 1103515245 + 12345) >>> 0; raw[i] = i % (w * 3 + 1) === 0 ? 0 : s >>> 24; }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}
const hero = png(412, 309, 1), small = png(40, 40, 2);
const script = "/*" + "x".repeat(${SCRIPT_BYTES}) + "*/ document.documentElement.dataset.ready = '1';";
const page = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Proxy</title>' +
  '<link rel="stylesheet" href="/a.css"><link rel="stylesheet" href="/b.css"><script src="/app.js"></script></head>' +
  '<body><h1>Through the proxy</h1><p>Text painted once the head has loaded.</p><img src="/hero.png" width="412" height="309" alt="hero">' +
  '<img src="/s1.png" width="40" height="40" alt=""><img src="/s2.png" width="40" height="40" alt=""><img src="/s3.png" width="40" height="40" alt=""></body></html>';
const files = { "/": ["text/html; charset=utf-8", page], "/a.css": ["text/css", "h1{color:#123}"], "/b.css": ["text/css", "p{color:#456}"], "/app.js": ["text/javascript", script], "/hero.png": ["image/png", hero], "/s1.png": ["image/png", small], "/s2.png": ["image/png", small], "/s3.png": ["image/png", small] };
const server = createServer((req, res) => { const f = files[req.url]; if (!f) return void res.writeHead(404).end(); res.writeHead(200, { "content-type": f[0], "cache-control": "no-store" }).end(f[1]); });
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

function rssMb(): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : Math.round(process.memoryUsage().rss / 1024 / 1024);
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Keeps this event loop busy: BUSY_SLICE_MS of CPU, one turn of the loop (timers, I/O), again. */
function busyLoop(): { stop(): void } {
  let on = true;
  const spin = () => {
    if (!on) return;
    const end = performance.now() + BUSY_SLICE_MS;
    while (performance.now() < end);
    setImmediate(spin);
  };
  setImmediate(spin);
  return { stop: () => void (on = false) };
}

type Place = "main" | "thread";
type Load = "idle" | "busy";
const CONDITIONS: readonly { place: Place; load: Load }[] = [
  { place: "main", load: "idle" },
  { place: "thread", load: "idle" },
  { place: "main", load: "busy" },
  { place: "thread", load: "busy" },
];
const key = (c: { place: Place; load: Load }) => `${c.place}/${c.load}`;

async function main(): Promise<void> {
  const server = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
    server.once("exit", (code) => reject(new Error(`the page server exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  const egressOptions = { allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 5000 };
  log(`bench:browser-proxy${SMOKE ? " (smoke)" : ""}: ${RUNS} runs per condition, busy slices of ${BUSY_SLICE_MS} ms, ${availableParallelism()} cores, load ${loadavg()[0]?.toFixed(1)}, crawler from ${CRAWLER}`);
  // The thread alone, before any browser: started, one proxy opened, then ended.
  const rss = { start: rssMb(), thread: 0, afterMain: 0, afterThread: 0, end: 0 };
  const alone = threadPageProxies({ egress: egressOptions, egressAllow: [] });
  const startedAt = performance.now();
  const first = await alone.open({ url, thirdParty: "none", connectTimeoutMs: 5000 });
  const threadStartMs = Math.round(performance.now() - startedAt);
  await new Promise((resolve) => setTimeout(resolve, 500));
  rss.thread = rssMb();
  await first.close();
  await alone.close();
  const egress = createEgress(egressOptions);
  const options = { executablePath: chromiumPath(), timeoutMs: 30_000, throttling: "provided" as const, thirdParty: "none" as const, externalAllowed: () => false };
  const pools: Record<Place, BrowserPool> = {
    main: createBrowserPool(options, { egress, proxies: inProcessPageProxies(egress, () => false) }),
    thread: createBrowserPool(options, { egress, proxies: threadPageProxies({ egress: egressOptions, egressAllow: [] }) }),
  };
  const measure = (place: Place) => pools[place].measurePage(url, { interact: false });
  // Warm-up: each Chromium launched and two pages each; the thread starts at its pool's first page.
  for (let i = 0; i < 2; i++) await measure("main");
  rss.afterMain = rssMb();
  for (let i = 0; i < 2; i++) await measure("thread");
  rss.afterThread = rssMb();

  const runs = new Map<string, BrowserMetrics[]>(CONDITIONS.map((c) => [key(c), []]));
  for (let r = 0; r < RUNS; r++) {
    for (const c of CONDITIONS) {
      const busy = c.load === "busy" ? busyLoop() : null;
      try {
        const m = await measure(c.place);
        if (m.error) log(`  ${key(c)} run ${r + 1}: ${m.error}`);
        else runs.get(key(c))?.push(m);
      } finally {
        busy?.stop();
      }
    }
  }
  rss.end = rssMb();

  const figure = (c: string, f: (m: BrowserMetrics) => number | undefined) => median((runs.get(c) ?? []).map(f).filter((x): x is number => typeof x === "number"));
  const metrics = { ttfb: (m: BrowserMetrics) => m.ttfbMs, fcp: (m: BrowserMetrics) => m.fcpMs, lcp: (m: BrowserMetrics) => m.lcpMs } as const;
  const fmt = (x: number | null, digits = 0) => (x === null ? "–" : x.toFixed(digits));
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);
  const figures: Record<string, number | null> = {};
  log();
  log(`medians of ${RUNS} (ms), mobile, unthrottled`);
  log(`| metric | main idle | thread idle | main busy | thread busy | busy: main / thread | main: busy / idle | thread: busy / idle |`);
  log(`|---|---|---|---|---|---|---|---|`);
  for (const [name, f] of Object.entries(metrics)) {
    const v = Object.fromEntries(CONDITIONS.map((c) => [key(c), figure(key(c), f)]));
    for (const c of CONDITIONS) figures[`${name}_ms_${c.place}_${c.load}`] = v[key(c)] ?? null;
    const busyRatio = ratio(v["main/busy"] ?? null, v["thread/busy"] ?? null);
    figures[`${name}_busy_main_over_thread`] = busyRatio;
    log(`| ${name} | ${fmt(v["main/idle"] ?? null)} | ${fmt(v["thread/idle"] ?? null)} | ${fmt(v["main/busy"] ?? null)} | ${fmt(v["thread/busy"] ?? null)} | ${fmt(busyRatio, 2)} | ${fmt(ratio(v["main/busy"] ?? null, v["main/idle"] ?? null), 2)} | ${fmt(ratio(v["thread/busy"] ?? null, v["thread/idle"] ?? null), 2)} |`);
  }
  const spread = (c: string) => {
    const xs = (runs.get(c) ?? []).map((m) => m.fcpMs ?? 0);
    return xs.length ? Math.max(...xs) - Math.min(...xs) : null;
  };
  log(`FCP spread (max - min): ${CONDITIONS.map((c) => `${key(c)} ${fmt(spread(key(c)))}`).join(", ")}`);
  log();
  log(`RSS of this process (MB): at the start ${rss.start}; with the proxy thread alone ${rss.thread} (+${rss.thread - rss.start}, started in ${threadStartMs} ms); after the main-loop pool's first pages ${rss.afterMain}; after the thread pool's ${rss.afterThread}; at the end ${rss.end}`);
  Object.assign(figures, { rss_mb_start: rss.start, rss_mb_thread_alone: rss.thread - rss.start, thread_start_ms: threadStartMs, rss_mb_after_main_pool: rss.afterMain, rss_mb_after_thread_pool: rss.afterThread, rss_mb_end: rss.end });
  log(`written: ${writeBenchOutput({ bench: "browser-proxy", mode: SMOKE ? "smoke" : "full", figures })}`);

  await Promise.all([pools.main.close(), pools.thread.close()]);
  await egress.close();
  server.kill();
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:browser-proxy: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
