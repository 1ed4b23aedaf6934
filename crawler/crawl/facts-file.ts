// A crawl's page facts kept on disk, compressed, instead of in the process: the crawl appends each
// stored page's compact facts (analyzer/crawl-facts.ts) as it records it, and the whole-crawl
// analysis reads them back in batches on the parse thread that runs it. The serving thread then
// holds only the URL table (URLs interned once, what the frontier and the links need anyway), not
// a crawl-sized array of page facts that V8 would keep committed long after the job.
//
// Format: a sequence of chunks, each a 4-byte big-endian length and that many bytes of gzip'd
// JSON lines, one line per recorded page, URLs as indexes into the URL table. A URL recorded again
// (a page stored twice) replaces its facts and keeps its first place, as CrawlFactsBuilder does.
import { appendFileSync, closeSync, mkdirSync, openSync, readdirSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { FactsTableBuilder, tableOfFacts, type CrawlFacts, type FactsRow, type FactsTable, type PageFacts, type PageStrings } from "../../analyzer/index.ts";
import { processAlive } from "../../runtime/index.ts";

/** A crawl's facts on disk: the URL table in memory, the pages' facts in the file. */
export interface SpilledFacts {
  readonly urls: readonly string[];
  /** The facts file (removed by removeFactsFile once the analysis has read it). */
  readonly file: string;
  /** Distinct URLs recorded. */
  readonly pages: number;
  /** Link entries written (a URL recorded twice counts both times): what the table reserves for them. */
  readonly links?: number;
}

/** Facts files are named svc-crawl-facts-<pid>-<job>-<attempt>-<hex>: the pid says whose file it is. */
const FACTS_PREFIX = "svc-crawl-facts-";
const FACTS_NAME = /^svc-crawl-facts-(\d+)-\d+-\d+-[0-9a-f]+$/;

/** The file of one crawl attempt's facts in `dir` (this process's pid first, then job, attempt and a random part). */
export function factsFilePath(dir: string, jobId: number, attempt: number, hex: string, pid = process.pid): string {
  return join(dir, `${FACTS_PREFIX}${pid}-${jobId}-${attempt}-${hex}`);
}


/**
 * Removes the facts files in `dir` that no running process writes: a process that crashed (or was
 * killed) mid-crawl never removed its file. Called once at start, before this process writes any,
 * so a file named by this process's own pid is stale too (a container's restarted process often
 * gets the pid of the one before). Returns the names removed; a missing folder is no error.
 */
export function sweepStaleFactsFiles(dir: string, alive: (pid: number) => boolean = processAlive, self = process.pid): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = FACTS_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== self && alive(pid)) continue;
    try {
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // Another user's file in a shared temp dir (sticky): theirs to sweep.
    }
  }
  return removed;
}

/** Makes the folder of facts files and sweeps it (and `legacy`, where earlier versions wrote them) of stale ones. */
export function prepareFactsDir(dir: string, legacy?: string): string[] {
  mkdirSync(dir, { recursive: true });
  const removed = sweepStaleFactsFiles(dir);
  if (legacy !== undefined && legacy !== dir) removed.push(...sweepStaleFactsFiles(legacy));
  return removed;
}

/** One page's facts as a line: its URLs as table indexes. */
interface Line {
  i: number;
  f: number;
  s: number;
  e: string;
  k: string;
  h: boolean;
  n: boolean;
  d: number;
  w: number;
  t: string;
  ds: string;
  ch: string;
  sh: string;
  c: number;
  r: [number, number][];
  hl: [number, string][];
  x: [string, boolean][];
  l: number[];
}

/** Pages written per chunk: about 150 KB of JSON before compression at the bench site's pages. */
const PAGES_PER_CHUNK = 500;
const NONE: readonly never[] = Object.freeze([]);

/** Appends page facts to a file, PAGES_PER_CHUNK at a time (synchronously: a chunk takes a few ms). */
export class FactsFileWriter {
  private pending: string[] = [];
  private written = 0;
  /** Link entries appended so far. */
  links = 0;

  constructor(
    readonly path: string,
    /** The builder's URL table index of a URL (the facts' strings are the table's). */
    private readonly id: (url: string) => number,
  ) {
    // A fresh, empty file from the start (a stale one would be read back otherwise): while the crawl
    // runs its file is there under this process's pid, so a crash leaves a file the next start sweeps.
    writeFileSync(path, "");
  }

  /** Bytes written so far (compressed). */
  get bytes(): number {
    return this.written;
  }

  append(p: PageFacts): void {
    const id = this.id;
    const line: Line = {
      i: p.id,
      f: p.finalId,
      s: p.status,
      e: p.error,
      k: p.skipped,
      h: p.isHtml,
      n: p.noindex,
      d: p.depth,
      w: p.words,
      t: p.title,
      ds: p.description,
      ch: p.contentHash,
      sh: p.simhash,
      c: p.canonical ? id(p.canonical) : -1,
      r: p.redirects.map((r) => [id(r.url), r.location ? id(r.location) : -1]),
      hl: p.hreflang.map((h) => [id(h.href), h.hreflang]),
      x: p.externalLinks.map((l) => [l.href, l.nofollow]),
      l: Array.from(p.links),
    };
    this.links += line.l.length;
    this.pending.push(JSON.stringify(line));
    if (this.pending.length >= PAGES_PER_CHUNK) this.flush();
  }

  /** Writes what is pending. */
  flush(): void {
    if (this.pending.length === 0) return;
    const body = gzipSync(this.pending.join("\n"));
    this.pending = [];
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length, 0);
    appendFileSync(this.path, Buffer.concat([head, body]));
    this.written += 4 + body.length;
  }
}

/** Ints per segment of a LinkPool: 4 MB, so that each is a mapping of its own, given back whole when let go. */
const SEGMENT_INTS = 1 << 20;
const NO_LINKS = new Int32Array(0);

/**
 * Every page's links in a few large Int32Arrays, each page's a view of one: an Int32Array per
 * page (about 95 links at the bench's pages) was a small malloc'd block each, 100,000 of them
 * at 100,000 pages, left scattered in the thread's malloc arena once freed.
 */
class LinkPool {
  private segment = new Int32Array(0);
  private used = 0;

  keep(links: readonly number[]): Int32Array {
    if (links.length === 0) return NO_LINKS;
    if (this.used + links.length > this.segment.length) {
      this.segment = new Int32Array(Math.max(SEGMENT_INTS, links.length));
      this.used = 0;
    }
    const view = this.segment.subarray(this.used, this.used + links.length);
    view.set(links);
    this.used += links.length;
    return view;
  }
}

/**
 * A facts file's lines in order, one chunk at a time (a chunk's text is let go before the next is
 * read); nothing when no file was written (nothing recorded).
 */
function* linesOf(file: string): Generator<Line> {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  try {
    const head = Buffer.alloc(4);
    let pos = 0;
    for (;;) {
      if (readSync(fd, head, 0, 4, pos) < 4) break;
      const length = head.readUInt32BE(0);
      const body = Buffer.alloc(length);
      if (readSync(fd, body, 0, length, pos + 4) < length) throw new Error(`crawl facts file ${file}: a chunk is cut short at byte ${pos}`);
      pos += 4 + length;
      for (const text of gunzipSync(body).toString("utf8").split("\n")) yield JSON.parse(text) as Line;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a facts file back into the facts the analysis reads, all in memory (tests; the analysis
 * reads the file as a table, readFactsTable). A URL recorded twice keeps its last facts at its first place.
 */
export function readFactsFile(spilled: SpilledFacts): CrawlFacts {
  const { urls } = spilled;
  const pages: PageFacts[] = [];
  const at = new Map<number, number>();
  const url = (i: number): string => (i >= 0 ? (urls[i] as string) : "");
  const links = new LinkPool();
  for (const l of linesOf(spilled.file)) {
    const { canonicalId, redirectIds: _hops, hreflang, externalLinks: _external, links: _links, ...scalars } = rowOfLine(l);
    const strings = stringsOfLine(l, urls);
    const facts: PageFacts = {
      ...scalars,
      url: url(l.i),
      finalUrl: url(l.f),
      canonical: url(canonicalId),
      redirects: strings.redirects,
      hreflang: hreflang.length === 0 ? NONE : hreflang.map(([h, lang]) => ({ href: url(h), hreflang: lang })),
      externalLinks: strings.externalLinks,
      links: links.keep(l.l),
    };
    const i = at.get(facts.id);
    if (i === undefined) {
      at.set(facts.id, pages.length);
      pages.push(facts);
    } else pages[i] = facts;
  }
  return { urls, pages };
}

/**
 * A facts file as the analysis's table (analyzer/crawl-table.ts): one pass over the file fills
 * the columns; the analysis's streamed pass reads it again. What stays in memory is the columns
 * and the links, never every page's strings.
 */
export function readFactsTable(spilled: SpilledFacts): FactsTable {
  const { urls, file } = spilled;
  const b = new FactsTableBuilder(urls, spilled.pages, spilled.links ?? 0);
  let row = 0;
  for (const l of linesOf(file)) b.add(rowOfLine(l), row++);
  return b.build((visit) => {
    let n = 0;
    for (const l of linesOf(file)) visit(n++, l.i, stringsOfLine(l, urls));
  });
}

function rowOfLine(l: Line): FactsRow {
  return {
    id: l.i,
    finalId: l.f,
    status: l.s,
    error: l.e,
    skipped: l.k,
    isHtml: l.h,
    noindex: l.n,
    depth: l.d,
    words: l.w,
    title: l.t,
    description: l.ds,
    contentHash: l.ch,
    simhash: l.sh,
    canonicalId: l.c,
    redirectIds: l.r.length === 0 ? NONE : l.r.map(([u]) => u),
    hreflang: l.hl,
    externalLinks: l.x.length,
    links: l.l,
  };
}

function stringsOfLine(l: Line, urls: readonly string[]): PageStrings {
  const url = (i: number): string => (i >= 0 ? (urls[i] as string) : "");
  return {
    title: l.t,
    description: l.ds,
    contentHash: l.ch,
    redirects: l.r.length === 0 ? NONE : l.r.map(([u, loc]) => ({ url: url(u), location: url(loc) })),
    externalLinks: l.x.length === 0 ? NONE : l.x.map(([href, nofollow]) => ({ href, nofollow })),
  };
}

/** The facts as the analysis reads them: a table, from memory or from their file. */
export function loadTable(facts: CrawlFacts | SpilledFacts): FactsTable {
  return "file" in facts ? readFactsTable(facts) : tableOfFacts(facts);
}

/** Every page's facts, from memory or read whole from their file (tests and tools that look at them; the analysis reads a table, loadTable). */
export function loadFacts(facts: CrawlFacts | SpilledFacts): CrawlFacts {
  return "file" in facts ? readFactsFile(facts) : facts;
}

export function removeFactsFile(facts: CrawlFacts | SpilledFacts): void {
  if ("file" in facts) rmSync(facts.file, { force: true });
}

/** Pages in facts either way. */
export function factsPages(facts: CrawlFacts | SpilledFacts): number {
  return "file" in facts ? facts.pages : facts.pages.length;
}
