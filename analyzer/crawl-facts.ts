// What the whole-crawl analysis reads of a crawl, in compact form: every URL the crawl met is
// interned once in one table (pages, link targets, redirect targets), a page's internal links are
// an Int32Array of indexes into it, and a page keeps only the facts the analysis reads (no
// headings, images, issues or anchor texts). A crawl builds it page by page as it stores them, so
// what it holds until the analysis is about a tenth of the pages' full facts.
import type { CrawledPage, PageIssueCount } from "../proto/index.ts";

/** What the analysis reads of one stored URL (fetched or skipped). Strings are the table's. */
export interface PageFacts {
  /** Index of `url` in the URL table. */
  readonly id: number;
  readonly url: string;
  readonly finalUrl: string;
  /** Index of `finalUrl` in the URL table. */
  readonly finalId: number;
  readonly status: number;
  readonly error: string;
  readonly skipped: string;
  readonly isHtml: boolean;
  readonly noindex: boolean;
  readonly depth: number;
  readonly words: number;
  readonly title: string;
  readonly description: string;
  readonly contentHash: string;
  readonly simhash: string;
  readonly canonical: string;
  readonly redirects: readonly { readonly url: string; readonly location: string }[];
  readonly hreflang: readonly { readonly href: string; readonly hreflang: string }[];
  readonly externalLinks: readonly { readonly href: string; readonly nofollow: boolean }[];
  /** Distinct internal link targets, as URL table indexes, in first-link order. */
  readonly links: Int32Array;
}

/** A crawl's facts: the URL table and one entry per stored URL, in the order first stored. */
export interface CrawlFacts {
  readonly urls: readonly string[];
  readonly pages: readonly PageFacts[];
}

const NONE: readonly never[] = Object.freeze([]);
/** URLs a page issue count names (CrawlFindings.page_issues). */
const ISSUE_URLS = 20;
/** Estimated bytes of a URL table entry (string header, map entry, array slot), of a page's facts object, of a small link object. */
const URL_BYTES = 80;
const PAGE_BYTES = 260;
const LINK_BYTES = 60;
/** Estimated bytes of a page's entry in the page issue tally (map entry, array header). */
const PAGE_ISSUE_BYTES = 64;

/** Where a builder puts page facts instead of holding them (a file: crawler/crawl/facts-file.ts). */
export interface FactsSink {
  append(facts: PageFacts): void;
  /** Writes what the sink still buffers. */
  flush(): void;
}

/**
 * Builds a crawl's facts page by page; a URL stored again replaces its facts in place. Given a
 * sink (spillTo), it keeps only the URL table and which URLs were recorded, and hands each page's
 * facts to the sink: what it holds then grows with the URLs, not with the pages' facts. Its
 * estimate (bytes) is the same either way: what the crawl and its analysis hold at most.
 */
export class CrawlFactsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly urls: string[] = [];
  private readonly pages: PageFacts[] = [];
  /** Page index by URL table index (with a sink: only which URLs were recorded). */
  private readonly at = new Map<number, number>();
  private estimate = 0;
  private sink: FactsSink | null = null;
  /** The page checks failing on each HTML page (2xx) with any, by URL table index; codes are `codes`' strings. */
  private readonly issues = new Map<number, readonly string[]>();
  private readonly codes = new Map<string, string>();

  /** From now on page facts go to the sink (before the first page is added). */
  spillTo(sink: FactsSink): void {
    if (this.at.size > 0) throw new Error("spillTo: pages were added already");
    this.sink = sink;
  }

  /** Whether page facts go to a sink (facts() then has no pages: the sink has them). */
  get spilled(): boolean {
    return this.sink !== null;
  }

  /**
   * What the facts take in memory, estimated: strings at 2 bytes a character plus their headers,
   * map entries, a page's fields and its links at 4 bytes each. Written for the facts as objects
   * (in memory, within a factor of about 1.5 of the heap measured at 10,000 pages), it also bounds
   * the whole-crawl analysis of spilled facts, which reads them as a table (crawl-table.ts) but
   * builds its graph and output besides: at 100,000 pages 115 MB estimated against 99 MB measured
   * for the URL table and the analysis's peak (test/bench/analysis-memory.ts).
   */
  get bytes(): number {
    return this.estimate;
  }

  /** The URL's index in the table, added when new. */
  id(url: string): number {
    let id = this.ids.get(url);
    if (id === undefined) {
      id = this.urls.length;
      this.urls.push(url);
      this.ids.set(url, id);
      this.estimate += URL_BYTES + 2 * url.length;
    }
    return id;
  }

  /** The table's copy of a URL (one string per URL however many pages link to it). */
  intern(url: string): string {
    return this.urls[this.id(url)] as string;
  }

  get size(): number {
    return this.at.size;
  }

  has(url: string): boolean {
    const id = this.ids.get(url);
    return id !== undefined && this.at.has(id);
  }

  add(page: CrawledPage): void {
    const facts = this.factsOf(page);
    this.tallyIssues(facts.id, page);
    // With a sink too: the estimate is of what the analysis holds once it has read them back.
    this.estimate += PAGE_BYTES + 4 * facts.links.length + 2 * (facts.title.length + facts.description.length + facts.contentHash.length + facts.simhash.length + facts.error.length);
    this.estimate += LINK_BYTES * (facts.redirects.length + facts.hreflang.length + facts.externalLinks.length);
    for (const l of facts.externalLinks) this.estimate += 2 * l.href.length;
    if (this.sink) {
      // The facts are the sink's; here only which URLs were recorded.
      this.at.set(facts.id, -1);
      this.sink.append(facts);
      return;
    }
    const i = this.at.get(facts.id);
    if (i === undefined) {
      this.at.set(facts.id, this.pages.length);
      this.pages.push(facts);
    } else this.pages[i] = facts;
  }

  /**
   * Per page check, the crawled HTML pages (2xx, not redirected: CrawlFindings.pages) it fails or
   * warns on, with the first ISSUE_URLS of them by URL; most pages first, then by code.
   */
  pageIssues(): PageIssueCount[] {
    const out = new Map<string, PageIssueCount>();
    // By URL, not by when the crawl met them: concurrent fetches meet pages in no fixed order.
    const ids = [...this.issues.keys()].sort((a, b) => ((this.urls[a] as string) < (this.urls[b] as string) ? -1 : 1));
    for (const id of ids) {
      for (const code of this.issues.get(id) as readonly string[]) {
        let count = out.get(code);
        if (!count) out.set(code, (count = { code, pages: 0, urls: [] }));
        count.pages += 1;
        if (count.urls.length < ISSUE_URLS) count.urls.push(this.urls[id] as string);
      }
    }
    return [...out.values()].sort((a, b) => b.pages - a.pages || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  }

  /** The facts so far (the arrays themselves: build once the crawl is done). With a sink: flushed, and no pages here. */
  facts(): CrawlFacts {
    this.sink?.flush();
    return { urls: this.urls, pages: this.pages };
  }

  private tallyIssues(id: number, p: CrawledPage): void {
    const page = p.isHtml && p.status >= 200 && p.status < 300 && p.redirects.length === 0;
    if (!page || p.issues.length === 0) {
      this.issues.delete(id);
      return;
    }
    const codes = p.issues.map((c) => this.codes.get(c) ?? (this.codes.set(c, c), c));
    if (!this.issues.has(id)) this.estimate += PAGE_ISSUE_BYTES + 8 * codes.length;
    this.issues.set(id, codes);
  }

  private factsOf(p: CrawledPage): PageFacts {
    const id = this.id(p.url);
    const finalUrl = p.finalUrl ? this.intern(p.finalUrl) : "";
    // A page's images, scripts and stylesheets are link targets too: a broken one is a broken link with its sources.
    const links = new Int32Array(p.internalLinks.length + p.internalAssets.length);
    let n = 0;
    const seen = new Set<number>();
    for (const targets of [p.internalLinks, p.internalAssets]) {
      for (const link of targets) {
        const t = this.id(link);
        if (seen.has(t)) continue;
        seen.add(t);
        links[n++] = t;
      }
    }
    return {
      id,
      url: this.urls[id] as string,
      finalUrl,
      finalId: finalUrl ? this.id(finalUrl) : -1,
      status: p.status,
      error: p.error,
      skipped: p.skipped,
      isHtml: p.isHtml,
      noindex: p.noindex,
      depth: p.depth,
      words: p.words,
      title: p.title,
      description: p.description,
      contentHash: p.contentHash,
      simhash: p.simhash,
      canonical: p.canonical ? this.intern(p.canonical) : "",
      redirects: p.redirects.length === 0 ? NONE : p.redirects.map((r) => ({ url: this.intern(r.url), location: r.location ? this.intern(r.location) : "" })),
      hreflang: p.hreflang.length === 0 ? NONE : p.hreflang.map((h) => ({ href: this.intern(h.href), hreflang: h.hreflang })),
      externalLinks: p.externalLinks.length === 0 ? NONE : p.externalLinks.map((l) => ({ href: l.href, nofollow: l.nofollow })),
      links: n === links.length ? links : links.slice(0, n),
    };
  }
}

/** The facts of pages given all at once (tests, the warm-up, a resumed crawl's stored pages). */
export function crawlFactsOf(pages: Iterable<CrawledPage>): CrawlFacts {
  const b = new CrawlFactsBuilder();
  for (const p of pages) b.add(p);
  return b.facts();
}
