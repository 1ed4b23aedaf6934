import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeCrawlFacts, analyzeCrawlTable, CrawlFactsBuilder, tableOfFacts, type FactsTable, type PageStrings } from "../../../analyzer/index.ts";
import { factsFilePath, FactsFileWriter, loadFacts, loadTable, prepareFactsDir, readFactsFile, readFactsTable, sweepStaleFactsFiles, type SpilledFacts } from "../../../crawler/index.ts";
import { processAlive } from "../../../runtime/index.ts";
import { CrawledPage } from "../../../proto/index.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-facts-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const O = "https://example.test";

/** n pages, each linking to the next two and home, with every kind of fact the analysis reads on some. */
function pages(n: number): CrawledPage[] {
  const out: CrawledPage[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      CrawledPage.fromPartial({
        url: `${O}/p/${i}`,
        finalUrl: i % 7 === 3 ? `${O}/moved/${i}` : "",
        status: i % 11 === 5 ? 404 : 200,
        error: i % 13 === 4 ? "timeout" : "",
        skipped: i % 17 === 9 ? "robots" : "",
        isHtml: i % 19 !== 2,
        noindex: i % 5 === 1,
        depth: i % 4,
        words: 100 + i,
        title: `Page ${i} — “quoted” \n line`,
        description: i % 2 === 0 ? `About ${i}` : "",
        contentHash: `h${i % 9}`,
        simhash: (BigInt(i) * 0x9e3779b97f4a7c15n & 0xffffffffffffffffn).toString(16),
        canonical: i % 6 === 0 ? `${O}/p/${i}` : i % 6 === 1 ? `${O}/canon/${i}` : "",
        redirects: i % 7 === 3 ? [{ url: `${O}/p/${i}`, location: `${O}/moved/${i}`, status: 301 }] : [],
        hreflang: i % 10 === 0 ? [{ href: `${O}/de/p/${i}`, hreflang: "de" }] : [],
        externalLinks: i % 8 === 0 ? [{ href: `https://other.test/${i}`, nofollow: i % 16 === 0, text: "x" }] : [],
        // Repeated targets: the facts keep each once, in first-link order.
        internalLinks: [`${O}/p/${i + 1}`, `${O}/p/${i + 2}`, `${O}/`, `${O}/p/${i + 1}`],
      }),
    );
  }
  return out;
}

function crawlFactsOfPages(list: CrawledPage[]) {
  const b = new CrawlFactsBuilder();
  for (const p of list) b.add(p);
  return b.facts();
}

describe("a crawl's facts in a file", () => {
  it("reads back exactly the facts the builder holds in memory, across chunks, a URL recorded twice at its first place with its last facts", () => {
    const all = pages(1234);
    // Page 10 stored again (a resumed crawl's copy), changed.
    const again = CrawledPage.fromPartial({ ...all[10], title: "again", internalLinks: [`${O}/p/1`] });
    const memory = new CrawlFactsBuilder();
    for (const p of [...all, again]) memory.add(p);

    const file = join(dir, "facts-1");
    const spilling = new CrawlFactsBuilder();
    spilling.spillTo(new FactsFileWriter(file, (url) => spilling.id(url)));
    for (const p of [...all, again]) spilling.add(p);
    expect(spilling.size).toBe(1234);
    expect(spilling.has(`${O}/p/10`)).toBe(true);
    expect(spilling.has(`${O}/p/1234`)).toBe(false);
    const urls = spilling.facts().urls;
    const spilled: SpilledFacts = { urls, file, pages: spilling.size };

    const back = readFactsFile(spilled);
    const expected = memory.facts();
    expect(back.urls).toEqual(expected.urls);
    expect(back.pages).toHaveLength(1234);
    expect(back.pages).toEqual(expected.pages);
    expect(back.pages[10]?.title).toBe("again");
    expect(Array.from(back.pages[10]?.links ?? [])).toEqual([urls.indexOf(`${O}/p/1`)]);
    // Three chunks of at most 500 pages, compressed: well under the JSON's size.
    expect(statSync(file).size).toBeLessThan(JSON.stringify(all.map((p) => ({ ...p, internalLinks: [] }))).length / 4);
  });

  it("holds no page facts while spilling, and estimates what the analysis will hold as the builder in memory does", () => {
    const all = pages(2000);
    const memory = new CrawlFactsBuilder();
    const spilling = new CrawlFactsBuilder();
    spilling.spillTo(new FactsFileWriter(join(dir, "facts-2"), (url) => spilling.id(url)));
    for (const p of all) {
      memory.add(p);
      spilling.add(p);
    }
    expect(spilling.facts().pages).toEqual([]);
    expect(memory.facts().pages).toHaveLength(2000);
    // The crawl's memory budget bounds what the analysis reads back, wherever the facts wait.
    expect(spilling.bytes).toBe(memory.bytes);
  });

  it("a crawl that recorded nothing has an empty file (there from the start) and no pages; no file reads as none; facts in memory pass through", () => {
    const file = join(dir, "never-written");
    writeFileSync(file, "stale");
    const spilling = new CrawlFactsBuilder();
    spilling.spillTo(new FactsFileWriter(file, (url) => spilling.id(url)));
    expect(statSync(file).size).toBe(0);
    expect(loadFacts({ urls: [], file, pages: 0 })).toEqual({ urls: [], pages: [] });
    rmSync(file);
    expect(loadFacts({ urls: [], file, pages: 0 })).toEqual({ urls: [], pages: [] });
    const memory = new CrawlFactsBuilder();
    memory.add(pages(1)[0] as CrawledPage);
    const facts = memory.facts();
    expect(loadFacts(facts)).toBe(facts);
  });

  it("reads back as the analysis's table: the same columns and strings as the table of the facts in memory, the same analysis", () => {
    const all = pages(1234);
    const again = CrawledPage.fromPartial({ ...all[10], title: "again", internalLinks: [`${O}/p/1`] });
    const memory = new CrawlFactsBuilder();
    for (const p of [...all, again]) memory.add(p);
    const file = join(dir, "facts-table");
    const spilling = new CrawlFactsBuilder();
    const writer = new FactsFileWriter(file, (url) => spilling.id(url));
    spilling.spillTo(writer);
    for (const p of [...all, again]) spilling.add(p);
    const spilled: SpilledFacts = { urls: spilling.facts().urls, file, pages: spilling.size, links: writer.links };
    // Every link written, page 10's twice (its first facts' three and its last facts' one).
    expect(writer.links).toBe(1234 * 3 + 1);

    const fromFile = readFactsTable(spilled);
    const inMemory = tableOfFacts(memory.facts());
    const columns = (t: FactsTable) => ({
      size: t.size,
      id: Array.from(t.id),
      finalId: Array.from(t.finalId),
      status: Array.from(t.status),
      depth: Array.from(t.depth),
      words: Array.from(t.words),
      canonical: Array.from(t.canonical),
      flags: Array.from(t.flags),
      errors: Array.from(t.error, (e) => t.errors[e]),
      skipped: Array.from(t.skipped, (k) => t.skips[k]),
      sim: Array.from(t.simHi, (hi, r) => [hi, t.simLo[r]]),
      content: Array.from(t.contentKey),
      hashes: Array.from(t.titleHash, (h, r) => [h, t.descriptionHash[r], t.contentHash[r]]),
      links: Array.from(t.linkFrom, (from, r) => Array.from(t.linkData.subarray(from, from + (t.linkCount[r] as number)))),
      hreflang: Array.from(t.hrefFrom, (from, r) => Array.from({ length: t.hrefCount[r] as number }, (_, k) => [t.hrefData[from + k], t.langs[t.hrefLang[from + k] as number]])),
    });
    const strings = (t: FactsTable) => {
      const out: [number, PageStrings][] = [];
      t.scan((r, s) => out.push([r, { title: s.title, description: s.description, contentHash: s.contentHash, redirects: [...s.redirects], externalLinks: [...s.externalLinks] }]));
      return out.sort(([a], [b]) => a - b);
    };
    expect(columns(fromFile)).toEqual(columns(inMemory));
    expect(fromFile.size).toBe(1234);
    // Page 10 keeps its first place with its last facts, and is visited once by a scan.
    expect(fromFile.linkCount[10]).toBe(1);
    const scanned = strings(fromFile);
    expect(scanned).toHaveLength(1234);
    expect(scanned[10]?.[1].title).toBe("again");
    expect(scanned).toEqual(strings(inMemory));
    // Page 3 redirected (to /moved/3) with its hop, page 0 carries an external link.
    expect(scanned[3]?.[1].redirects).toEqual([{ url: `${O}/p/3`, location: `${O}/moved/3` }]);
    expect(scanned[0]?.[1].externalLinks).toEqual([{ href: "https://other.test/0", nofollow: true }]);

    const input = { jobId: 1, crawledAt: 1_800_000_000, sitemapUrls: [`${O}/p/5`, `${O}/p/3`], truncatedBy: "", traps: [], external: [], politeness: { delayMs: 0, connections: 1, throttled: 0, retryAfterWaitS: 0 }, durationMs: 1 };
    const fromFacts = analyzeCrawlFacts({ ...input, facts: memory.facts() });
    expect(analyzeCrawlTable({ ...input, table: loadTable(spilled) })).toEqual(fromFacts);
    // Sized from hints that are too small (an older crawl's spilled facts had none), the table grows to fit.
    expect(analyzeCrawlTable({ ...input, table: loadTable({ urls: spilled.urls, file, pages: 1 }) })).toEqual(fromFacts);
    // Redirected: the 176 pages i ≡ 3 (mod 7), but the 10 of them skipped by robots (i ≡ 9 mod 17).
    expect(fromFacts.report.summary).toMatchObject({ known: 1234, redirects: 166 });
    expect(fromFacts.report.external.total).toBeGreaterThan(0);
  });

  it("the analysis reads the strings in one streamed pass, and none when no step needs them", () => {
    const input = { jobId: 1, crawledAt: 1, sitemapUrls: [], truncatedBy: "", traps: [], external: [], politeness: { delayMs: 0, connections: 1, throttled: 0, retryAfterWaitS: 0 }, durationMs: 1 };
    const counted = (t: FactsTable) => {
      let scans = 0;
      return { table: { ...t, scan: (visit: Parameters<FactsTable["scan"]>[0]) => (scans++, t.scan(visit)) }, scans: () => scans };
    };
    const full = counted(tableOfFacts(crawlFactsOfPages(pages(300))));
    analyzeCrawlTable({ ...input, table: full.table });
    expect(full.scans()).toBe(1);
    // Distinct titles, descriptions and texts, no redirect, no external link: nothing to read.
    const plain = pages(300).map((p, i) => CrawledPage.fromPartial({ ...p, title: `T${i}`, description: `D${i}`, contentHash: `c${i}`, redirects: [], finalUrl: "", externalLinks: [], error: "" }));
    const bare = counted(tableOfFacts(crawlFactsOfPages(plain)));
    const a = analyzeCrawlTable({ ...input, table: bare.table });
    expect(bare.scans()).toBe(0);
    expect(a.findings.duplicateTitles).toBe(0);
  });

  it("says so when the file is cut short rather than reading half a chunk", () => {
    const file = join(dir, "facts-3");
    const spilling = new CrawlFactsBuilder();
    spilling.spillTo(new FactsFileWriter(file, (url) => spilling.id(url)));
    for (const p of pages(600)) spilling.add(p);
    const { urls } = spilling.facts();
    const size = statSync(file).size;
    rmSync(file + ".cut", { force: true });
    // Keep everything but the last 10 bytes.
    writeFileSync(file + ".cut", readFileSync(file).subarray(0, size - 10));
    expect(() => readFactsFile({ urls, file: file + ".cut", pages: 600 })).toThrow(/cut short/);
  });
});

describe("stale facts files", () => {
  it("at start, removes the files of processes no longer running (and of its own pid), keeps live processes' files and anything else", () => {
    const folder = mkdtempSync(join(dir, "sweep-"));
    const legacy = mkdtempSync(join(dir, "legacy-"));
    const crashed = factsFilePath(folder, 7, 1, "a1b2c3d4", 5_000_001);
    const running = factsFilePath(folder, 8, 2, "00ff00ff", 5_000_002);
    const mine = factsFilePath(folder, 9, 1, "deadbeef", 5_000_003);
    const other = join(folder, "svc-crawl-facts-notes.txt");
    const oldPlace = factsFilePath(legacy, 3, 1, "0badf00d", 5_000_001);
    for (const f of [crashed, running, mine, other, oldPlace]) writeFileSync(f, "x");
    const alive = (pid: number) => pid === 5_000_002;
    expect(sweepStaleFactsFiles(folder, alive, 5_000_003).sort()).toEqual(["svc-crawl-facts-5000001-7-1-a1b2c3d4", "svc-crawl-facts-5000003-9-1-deadbeef"]);
    expect([crashed, running, mine, other].map((f) => existsSync(f))).toEqual([false, true, false, true]);
    // The real check of liveness: this process runs; a pid beyond the kernel's maximum does not.
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(5_000_001)).toBe(false);
    // prepareFactsDir makes the folder and sweeps it and the old place (the temp dir itself) with the real check.
    const fresh = join(folder, "made");
    expect(prepareFactsDir(fresh, legacy)).toEqual(["svc-crawl-facts-5000001-3-1-0badf00d"]);
    expect(statSync(fresh).isDirectory()).toBe(true);
    expect(existsSync(oldPlace)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(sweepStaleFactsFiles(join(folder, "absent"))).toEqual([]);
  });
});
