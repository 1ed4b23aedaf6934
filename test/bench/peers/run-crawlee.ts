/**
 * bench:crawl's Crawlee peer: @crawlee/cheerio's CheerioCrawler with maxConcurrency N and a request
 * handler that only enqueues same-origin links (enqueueLinks, strategy same-origin). Storage in a
 * temporary CRAWLEE_STORAGE_DIR, purged on start and removed at the end. Broken: internal URLs
 * answered 4xx/5xx, plus requests Crawlee gave up on (other than files it refuses to parse).
 *
 *   node --import tsx test/bench/peers/run-crawlee.ts --url http://127.0.0.1:PORT/ [--concurrency 16]
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuSeconds, printReport, runArgs, sample } from "./protocol.ts";

// The part of @crawlee/cheerio used here. It is imported by a computed name so that the root
// `tsc` (which also reads this folder) does not need this folder's node_modules: they are
// installed by the bench, not by the root `npm ci`.
interface CheerioContext {
  readonly request: { readonly url: string };
  readonly response: { readonly statusCode?: number };
  readonly enqueueLinks: (options: { strategy: "same-origin" }) => Promise<unknown>;
}
interface CheerioCrawlerOptions {
  maxConcurrency: number;
  maxRequestsPerCrawl: number;
  requestHandler(context: CheerioContext): Promise<void>;
  failedRequestHandler(context: { readonly request: { readonly url: string } }, error: Error): Promise<void>;
}
interface CheerioCrawler {
  run(urls: string[]): Promise<{ requestsFinished: number; requestsFailed: number }>;
  teardown(): Promise<void>;
}
interface CrawleeCheerio {
  CheerioCrawler: new (options: CheerioCrawlerOptions) => CheerioCrawler;
}

const { url: start, concurrency, deadlineMs } = runArgs();
const storage = await mkdtemp(join(tmpdir(), "bench-crawlee-"));
process.env.CRAWLEE_STORAGE_DIR = storage;
process.env.CRAWLEE_PURGE_ON_START = "true";
process.env.CRAWLEE_LOG_LEVEL ??= "WARNING";

const moduleName = "@crawlee/cheerio";
const { CheerioCrawler } = (await import(moduleName)) as CrawleeCheerio;

const broken = new Set<string>();
let pages = 0;
let failed = 0;
let notParsed = 0;
const withoutFragment = (url: string): string => url.replace(/#.*$/, "");
const crawler = new CheerioCrawler({
  maxConcurrency: concurrency,
  maxRequestsPerCrawl: 50_000,
  async requestHandler({ request, response, enqueueLinks }) {
    if ((response.statusCode ?? 0) >= 400) {
      broken.add(withoutFragment(request.url));
      return;
    }
    pages++;
    await enqueueLinks({ strategy: "same-origin" });
  },
  async failedRequestHandler({ request }, error) {
    // A link to a file Crawlee does not parse (a .py download) is refused, not broken.
    if (/served Content-Type/.test(error.message)) notParsed++;
    else {
      failed++;
      broken.add(withoutFragment(request.url));
    }
  },
});

const t0 = performance.now();
const cpu0 = cpuSeconds();
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  printPartial();
  rmSync(storage, { recursive: true, force: true });
  process.exit(0);
}, deadlineMs);
const stats = await crawler.run([start]);
clearTimeout(timer);
const crawlWallS = (performance.now() - t0) / 1000;
const crawlCpuS = cpuSeconds() - cpu0;
printPartial(crawlWallS, crawlCpuS, stats);
rmSync(storage, { recursive: true, force: true });
// Crawlee's process lingers for several seconds after run() resolves (its timers and storage);
// that is not crawl time, so the runner ends here.
process.exit(0);

function printPartial(
  wallS = (performance.now() - t0) / 1000,
  cpuS = cpuSeconds() - cpu0,
  s: { requestsFinished: number; requestsFailed: number } | null = null,
): void {
  printReport({
    tool: "crawlee",
    available: true,
    crawlWallS: wallS,
    crawlCpuS: cpuS,
    peakRssMb: null,
    pagesReported: pages,
    brokenInternal: broken.size,
    brokenSample: sample(broken),
    connectionErrors: failed,
    timedOut,
    failure: null,
    extra: { maxConcurrency: concurrency, refusedNotHtml: notParsed, requestsFinished: s?.requestsFinished ?? null, requestsFailed: s?.requestsFailed ?? null, storage },
  });
}
