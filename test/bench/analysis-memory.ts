/**
 * Where the whole-crawl analysis's memory goes at a large crawl's size, in one process, without a
 * crawl: the compact facts of N pages shaped like bench:crawl-scale's site (a tree of fan-out 50,
 * 5 related and 40 navigation links a page, a broken link every 100 pages, near-duplicate texts
 * planted 4 pages in 100, titles shared by 2 in 100, two external links a page) are written to a facts file as a crawl writes them, read back as a table
 * as the analysing parse thread reads them, and analysed (one more streamed pass over the file). After each step: RSS, the peak RSS since the
 * step before (VmHWM, reset through /proc/self/clear_refs) and the V8 heap after a full collection.
 *
 *   node --expose-gc --import tsx test/bench/analysis-memory.ts [pages=100000]
 *
 * Linux only (/proc). A measurement, not a test: it prints figures and fails on none.
 */
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeCrawlTable, CrawlFactsBuilder } from "../../analyzer/index.ts";
import { FactsFileWriter, readFactsTable } from "../../crawler/index.ts";
import { CrawledPage } from "../../proto/index.ts";

const N = Number(process.argv[2] ?? 100_000);
const O = "http://127.0.0.1:1";
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const mb = (bytes: number) => Math.round(bytes / 1048576);
const statusMb = (field: string) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024);

function show(step: string): void {
  const peak = statusMb("VmHWM");
  gc!();
  gc!();
  const m = process.memoryUsage();
  process.stdout.write(`${step.padEnd(12)} RSS ${String(statusMb("VmRSS")).padStart(4)} MB  peak during ${String(peak).padStart(4)} MB  heap used ${String(mb(m.heapUsed)).padStart(4)} MB  array buffers ${mb(m.arrayBuffers)} MB\n`);
  // The peak from here on (Linux ≥ 4.0).
  writeFileSync("/proc/self/clear_refs", "5");
}

/** A hex string of `len` digits, pseudo-random from `seed`. */
function hex(seed: number, len: number): string {
  let s = "";
  let x = Math.imul(seed + 1, 2654435761) >>> 0;
  while (s.length < len) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += x.toString(16).padStart(8, "0");
  }
  return s.slice(0, len);
}

const dir = mkdtempSync(join(tmpdir(), "svc-analysis-memory-"));
const file = join(dir, "facts");
try {
  show("start");
  const builder = new CrawlFactsBuilder();
  const writer = new FactsFileWriter(file, (u) => builder.id(u));
  builder.spillTo(writer);
  for (let i = 0; i < N; i++) {
    const links: string[] = [];
    for (let k = 1; k <= 50; k++) if (50 * i + k < N) links.push(`${O}/p/${50 * i + k}`);
    for (let k = 0; k < 5; k++) links.push(`${O}/p/${(i * 7919 + k * 104729) % N}`);
    for (let k = 0; k < 40; k++) links.push(`${O}/p/${k + 1}`);
    if (i % 100 === 0) links.push(`${O}/missing/${i}`);
    const planted = i % 100 < 4;
    builder.add(
      CrawledPage.fromPartial({
        url: i === 0 ? `${O}/` : `${O}/p/${i}`,
        status: 200,
        isHtml: true,
        depth: Math.floor(Math.log(i + 1) / Math.log(50)),
        words: 600,
        // Two pages in 100 share a title (what the streamed pass groups); every page links off the site.
        title: i % 100 < 2 ? `Shared title ${Math.floor(i / 100) % 50}` : `Page ${i} of the generated scale site`,
        externalLinks: [
          { href: "https://social.example/svc", nofollow: false, text: "" },
          { href: `https://docs${i % 50}.example/ref/${i % 997}`, nofollow: i % 3 === 0, text: "" },
        ],
        description: `The description of page ${i}, about as long as a real page's meta description is.`,
        contentHash: hex(i, 64),
        simhash: planted ? hex(1_000_000 + (Math.floor(i / 100) % 97), 16) : hex(i, 16),
        internalLinks: links,
      }),
    );
  }
  // The planted broken links' targets, stored as the crawl stores a 404.
  for (let i = 0; i < N; i += 100) builder.add(CrawledPage.fromPartial({ url: `${O}/missing/${i}`, status: 404, isHtml: true, depth: 1 + Math.floor(Math.log(i + 1) / Math.log(50)) }));
  const facts = builder.facts();
  show("written");
  process.stdout.write(`the crawl's memory estimate (CrawlFactsBuilder.bytes, what SVC_CRAWL_MEMORY_MB bounds): ${mb(builder.bytes)} MB\n`);
  const t0 = performance.now();
  const table = readFactsTable({ urls: facts.urls, file, pages: builder.size, links: writer.links });
  const read = Math.round(performance.now() - t0);
  show("read back");
  const analysis = analyzeCrawlTable({ jobId: 1, crawledAt: 1, table, sitemapUrls: [], truncatedBy: "", traps: [], external: [], politeness: { delayMs: 0, connections: 8, throttled: 0, retryAfterWaitS: 0 }, durationMs: 1 });
  const ms = Math.round(performance.now() - t0);
  show("analysed");
  process.stdout.write(`${N} pages: read back as a table ${read} ms, analysis ${ms - read} ms, ${analysis.findings.pages} pages, ${analysis.findings.brokenLinks} broken links, ${analysis.report.links.duplicates.clusters?.length ?? 0} near-duplicate clusters\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
