// A crawl's facts as the whole-crawl analysis reads them at any size: every per-page figure the
// analysis's steps need (status, depth, words, flags, canonical, SimHash, hashes of the texts) in a
// typed array indexed by record (a stored URL, in the order first stored), links and hreflang
// alternates as integer rows, and the strings only a few steps need (titles and descriptions of
// duplicates, redirect hops, external links) read again in one streamed pass: nothing keeps every
// page's facts alive at once. At 100,000 pages the columns take about 10 MB and the links 4 bytes
// each; the objects per page they replace took about 55 MB of heap (docs/benchmarks.md).
//
// A table is built from rows (a facts file's lines, crawler/crawl/facts-file.ts, or facts in
// memory, tableOfFacts): a URL recorded again takes the later row's figures at its first place.
import type { CrawlFacts, PageFacts } from "./crawl-facts.ts";
import { hashText, normaliseText } from "./crawl-duplicates.ts";
import { MIN_WORDS_FOR_NEAR } from "./near-clusters.ts";

/** One stored URL's facts as a table takes them: URLs as indexes into the URL table. */
export interface FactsRow extends Pick<PageFacts, "id" | "finalId" | "status" | "error" | "skipped" | "isHtml" | "noindex" | "depth" | "words" | "title" | "description" | "contentHash" | "simhash"> {
  /** -1 when none. */
  readonly canonicalId: number;
  /** Each redirect hop's URL. */
  readonly redirectIds: ArrayLike<number>;
  /** hreflang alternates: [href, language]. */
  readonly hreflang: readonly (readonly [number, string])[];
  /** How many external links the page has. */
  readonly externalLinks: number;
  /** Distinct internal link targets in first-link order. */
  readonly links: ArrayLike<number>;
}

/** What the streamed pass reads of a page: the strings the columns keep only as hashes or flags. */
export interface PageStrings {
  readonly title: string;
  readonly description: string;
  readonly contentHash: string;
  readonly redirects: readonly { readonly url: string; readonly location: string }[];
  readonly externalLinks: readonly { readonly href: string; readonly nofollow: boolean }[];
}

/** Visits each row's strings in the order the rows were given (row = its place in that order), with its URL's index. */
export type RowScan = (visit: (row: number, id: number, strings: PageStrings) => void) => void;

/** Flags of a record. */
export const FETCHED = 1;
const HTML = 2;
export const NOINDEX = 4;
/** Redirected at least once. */
export const REDIRECTED = 8;
/** A redirect loop: too many redirects, or a URL met twice among its hops. */
export const LOOP = 16;
/** An HTML page that answered 2xx itself, fetched. */
export const PAGE = 32;
/** A page that may be indexed: not noindex, no canonical elsewhere. */
export const INDEXABLE = 64;
/** Fetched and failed: 4xx, 5xx or no answer (too many redirects aside). */
export const BROKEN = 128;
export const HAS_TITLE = 256;
export const HAS_DESCRIPTION = 512;
/** Text (words > 0) with a content hash. */
export const HAS_CONTENT = 1024;
/** A SimHash and text enough for near-duplicates. */
export const HAS_SIMHASH = 2048;
export const HAS_EXTERNAL = 4096;

/** A crawl's facts as columns (see the file comment). */
export interface FactsTable {
  readonly urls: readonly string[];
  /** Records: distinct URLs stored. */
  readonly size: number;
  readonly id: Int32Array;
  readonly finalId: Int32Array;
  readonly status: Int32Array;
  readonly depth: Int32Array;
  readonly words: Int32Array;
  readonly canonical: Int32Array;
  readonly flags: Uint16Array;
  /** The error's index in `errors` ("" is 0). */
  readonly error: Uint16Array;
  readonly errors: readonly string[];
  /** Why skipped, as an index in `skips` ("" is 0). */
  readonly skipped: Uint16Array;
  readonly skips: readonly string[];
  /** The SimHash's two 32-bit halves. */
  readonly simHi: Int32Array;
  readonly simLo: Int32Array;
  /** A 53-bit hash of the content hash: equal texts, equal keys (different texts collide with odds of 2^-53). */
  readonly contentKey: Float64Array;
  /** 32-bit hashes of the normalised title and description and of the content hash (the duplicates' first pass). */
  readonly titleHash: Uint32Array;
  readonly descriptionHash: Uint32Array;
  readonly contentHash: Uint32Array;
  /** Record r's links: linkData[linkFrom[r] … linkFrom[r] + linkCount[r]). */
  readonly linkFrom: Int32Array;
  readonly linkCount: Int32Array;
  readonly linkData: Int32Array;
  /** Record r's hreflang alternates: hrefData / hrefLang [hrefFrom[r] … + hrefCount[r]), languages as indexes into `langs`. */
  readonly hrefFrom: Int32Array;
  readonly hrefCount: Int32Array;
  readonly hrefData: Int32Array;
  readonly hrefLang: Uint16Array;
  readonly langs: readonly string[];
  /** The record of a URL table index, -1 for a URL only linked to. */
  readonly recordOf: Int32Array;
  /** Visits every record's strings (each once: a URL recorded again, only its last row), in row order. */
  scan(visit: (record: number, strings: PageStrings) => void): void;
}

/** An Int32Array that grows (by half again) as values are appended. */
class Int32Buffer {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  reserve(more: number): void {
    if (this.length + more <= this.data.length) return;
    const next = new Int32Array(Math.max(this.length + more, Math.ceil(this.data.length * 1.5)));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

/** Strings of a small vocabulary (errors, skip reasons, languages) as indexes; "" is 0. */
class Vocabulary {
  readonly list: string[] = [""];
  private readonly index = new Map<string, number>([["", 0]]);
  of(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      if (this.list.length >= 0xffff) throw new Error("crawl facts: more than 65,535 distinct error strings or languages");
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

/** A 53-bit hash of a string (two 32-bit multiplicative lanes, mixed). */
export function hash53(s: string): number {
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x9e3779b1);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return 4294967296 * (0x1fffff & b) + (a >>> 0);
}

/** Builds a table row by row (see the file comment). */
export class FactsTableBuilder {
  private n = 0;
  private readonly recordOf: Int32Array;
  private cap: number;
  private id: Int32Array;
  private finalId: Int32Array;
  private status: Int32Array;
  private depth: Int32Array;
  private words: Int32Array;
  private canonical: Int32Array;
  private flags: Uint16Array;
  private error: Uint16Array;
  private skipped: Uint16Array;
  private simHi: Int32Array;
  private simLo: Int32Array;
  private contentKey: Float64Array;
  private titleHash: Uint32Array;
  private descriptionHash: Uint32Array;
  private contentHash: Uint32Array;
  private linkFrom: Int32Array;
  private linkCount: Int32Array;
  private hrefFrom: Int32Array;
  private hrefCount: Int32Array;
  /** The row each record's figures come from (its last). */
  private rowOf: Int32Array;
  private readonly links: Int32Buffer;
  private readonly hrefs = new Int32Buffer(16);
  private hrefLang = new Uint16Array(16);
  private readonly errors = new Vocabulary();
  private readonly skips = new Vocabulary();
  private readonly langs = new Vocabulary();

  /** `records` and `links`: how many distinct URLs and link entries to expect (a hint: the columns grow past it). */
  constructor(
    private readonly urls: readonly string[],
    records: number,
    links: number,
  ) {
    this.recordOf = new Int32Array(urls.length).fill(-1);
    this.cap = Math.max(16, records);
    const c = this.cap;
    this.id = new Int32Array(c);
    this.finalId = new Int32Array(c);
    this.status = new Int32Array(c);
    this.depth = new Int32Array(c);
    this.words = new Int32Array(c);
    this.canonical = new Int32Array(c);
    this.flags = new Uint16Array(c);
    this.error = new Uint16Array(c);
    this.skipped = new Uint16Array(c);
    this.simHi = new Int32Array(c);
    this.simLo = new Int32Array(c);
    this.contentKey = new Float64Array(c);
    this.titleHash = new Uint32Array(c);
    this.descriptionHash = new Uint32Array(c);
    this.contentHash = new Uint32Array(c);
    this.linkFrom = new Int32Array(c);
    this.linkCount = new Int32Array(c);
    this.hrefFrom = new Int32Array(c);
    this.hrefCount = new Int32Array(c);
    this.rowOf = new Int32Array(c);
    this.links = new Int32Buffer(links);
  }

  /** Adds row number `row` (rows numbered in the order a scan visits them). */
  add(f: FactsRow, row: number): void {
    let r = this.recordOf[f.id] as number;
    if (r < 0) {
      if (this.n === this.cap) this.grow();
      r = this.n++;
      this.recordOf[f.id] = r;
    }
    this.rowOf[r] = row;
    this.id[r] = f.id;
    this.finalId[r] = f.finalId;
    this.status[r] = f.status;
    this.depth[r] = f.depth;
    this.words[r] = f.words;
    this.canonical[r] = f.canonicalId;
    this.error[r] = this.errors.of(f.error);
    this.skipped[r] = this.skips.of(f.skipped);

    let flags = 0;
    const fetched = f.skipped === "";
    if (fetched) flags |= FETCHED;
    if (f.isHtml) flags |= HTML;
    if (f.noindex) flags |= NOINDEX;
    const hops = f.redirectIds.length;
    if (hops > 0) flags |= REDIRECTED;
    if (f.error === "too_many_redirects" || (hops > 1 && new Set(Array.from(f.redirectIds)).size < hops)) flags |= LOOP;
    const page = fetched && f.isHtml && f.status >= 200 && f.status < 300 && hops === 0;
    if (page) flags |= PAGE;
    if (page && !f.noindex && (f.canonicalId < 0 || f.canonicalId === f.finalId || f.canonicalId === f.id)) flags |= INDEXABLE;
    if (fetched && (f.status >= 400 || (f.status === 0 && f.error !== "" && f.error !== "too_many_redirects"))) flags |= BROKEN;
    const title = normaliseText(f.title);
    if (title) {
      flags |= HAS_TITLE;
      this.titleHash[r] = hashText(title);
    }
    const description = normaliseText(f.description);
    if (description) {
      flags |= HAS_DESCRIPTION;
      this.descriptionHash[r] = hashText(description);
    }
    if (f.words > 0 && f.contentHash) {
      flags |= HAS_CONTENT;
      this.contentHash[r] = hashText(f.contentHash);
    }
    this.contentKey[r] = hash53(f.contentHash);
    if (f.simhash && f.words >= MIN_WORDS_FOR_NEAR) {
      flags |= HAS_SIMHASH;
      const padded = f.simhash.padStart(16, "0");
      this.simHi[r] = parseInt(padded.slice(0, 8), 16) | 0;
      this.simLo[r] = parseInt(padded.slice(8), 16) | 0;
    }
    if (f.externalLinks > 0) flags |= HAS_EXTERNAL;
    this.flags[r] = flags;

    const links = this.links;
    links.reserve(f.links.length);
    this.linkFrom[r] = links.length;
    this.linkCount[r] = f.links.length;
    links.data.set(f.links, links.length);
    links.length += f.links.length;

    this.hrefFrom[r] = this.hrefs.length;
    this.hrefCount[r] = f.hreflang.length;
    if (f.hreflang.length > 0) {
      this.hrefs.reserve(f.hreflang.length);
      if (this.hrefLang.length < this.hrefs.data.length) {
        const next = new Uint16Array(this.hrefs.data.length);
        next.set(this.hrefLang);
        this.hrefLang = next;
      }
      for (const [href, lang] of f.hreflang) {
        this.hrefLang[this.hrefs.length] = this.langs.of(lang);
        this.hrefs.data[this.hrefs.length++] = href;
      }
    }
  }

  /** The table; `scan` visits the rows' strings again (the table skips rows a later row replaced). */
  build(scan: RowScan): FactsTable {
    const n = this.n;
    const rowOf = this.rowOf;
    const recordOf = this.recordOf;
    const cut = <T extends Int32Array | Uint16Array | Uint32Array | Float64Array>(a: T): T => a.subarray(0, n) as T;
    return {
      urls: this.urls,
      size: n,
      id: cut(this.id),
      finalId: cut(this.finalId),
      status: cut(this.status),
      depth: cut(this.depth),
      words: cut(this.words),
      canonical: cut(this.canonical),
      flags: cut(this.flags),
      error: cut(this.error),
      errors: this.errors.list,
      skipped: cut(this.skipped),
      skips: this.skips.list,
      simHi: cut(this.simHi),
      simLo: cut(this.simLo),
      contentKey: cut(this.contentKey),
      titleHash: cut(this.titleHash),
      descriptionHash: cut(this.descriptionHash),
      contentHash: cut(this.contentHash),
      linkFrom: cut(this.linkFrom),
      linkCount: cut(this.linkCount),
      linkData: this.links.data,
      hrefFrom: cut(this.hrefFrom),
      hrefCount: cut(this.hrefCount),
      hrefData: this.hrefs.data,
      hrefLang: this.hrefLang,
      langs: this.langs.list,
      recordOf,
      scan(visit) {
        scan((row, id, strings) => {
          const r = recordOf[id] as number;
          if (r >= 0 && rowOf[r] === row) visit(r, strings);
        });
      },
    };
  }

  private grow(): void {
    const c = Math.ceil(this.cap * 1.5);
    const more = <T extends Int32Array | Uint16Array | Uint32Array | Float64Array>(a: T): T => {
      const next = new (a.constructor as new (n: number) => T)(c);
      next.set(a);
      return next;
    };
    this.cap = c;
    this.id = more(this.id);
    this.finalId = more(this.finalId);
    this.status = more(this.status);
    this.depth = more(this.depth);
    this.words = more(this.words);
    this.canonical = more(this.canonical);
    this.flags = more(this.flags);
    this.error = more(this.error);
    this.skipped = more(this.skipped);
    this.simHi = more(this.simHi);
    this.simLo = more(this.simLo);
    this.contentKey = more(this.contentKey);
    this.titleHash = more(this.titleHash);
    this.descriptionHash = more(this.descriptionHash);
    this.contentHash = more(this.contentHash);
    this.linkFrom = more(this.linkFrom);
    this.linkCount = more(this.linkCount);
    this.hrefFrom = more(this.hrefFrom);
    this.hrefCount = more(this.hrefCount);
    this.rowOf = more(this.rowOf);
  }
}

/** The table of facts held in memory (tests, the warm-up, crawls whose facts stayed in the process). */
export function tableOfFacts(facts: CrawlFacts): FactsTable {
  const { urls, pages } = facts;
  let ids: Map<string, number> | null = null;
  const idOf = (url: string): number => {
    if (url === "") return -1;
    ids ??= new Map(urls.map((u, i) => [u, i]));
    return ids.get(url) ?? -1;
  };
  let links = 0;
  for (const p of pages) links += p.links.length;
  const b = new FactsTableBuilder(urls, pages.length, links);
  for (let i = 0; i < pages.length; i++) b.add(rowOf(pages[i] as PageFacts, idOf), i);
  return b.build((visit) => {
    for (let i = 0; i < pages.length; i++) visit(i, (pages[i] as PageFacts).id, pages[i] as PageFacts);
  });
}

const NO_IDS: readonly number[] = Object.freeze([]);

function rowOf(p: PageFacts, idOf: (url: string) => number): FactsRow {
  // The page's own scalars, its URLs as table indexes.
  return {
    ...p,
    canonicalId: idOf(p.canonical),
    redirectIds: p.redirects.length === 0 ? NO_IDS : p.redirects.map((r) => idOf(r.url)),
    hreflang: p.hreflang.map((h) => [idOf(h.href), h.hreflang] as const),
    externalLinks: p.externalLinks.length,
  };
}
