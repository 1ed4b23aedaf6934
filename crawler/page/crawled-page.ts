import { pageIsNoindex, pageIssues, strictKey } from "../../analyzer/index.ts";
import type { CrawledPage, HttpResponse, RobotsFacts } from "../../proto/index.ts";
import { extractPage, type Extraction } from "./extract.ts";
import { bodyText } from "../fetch/fetch-page.ts";
import { simhash } from "./simhash.ts";

export interface PageInput {
  /** The URL as linked (its strict key). */
  readonly url: string;
  readonly depth: number;
  readonly response: HttpResponse;
  readonly html: string;
  /** The body undecoded, when `html` is empty: decoded here (on the parse thread) by the response's charset. */
  readonly body?: Uint8Array;
  /** host[:port] of the crawled origin: links to it are internal. */
  readonly originHost: string;
  readonly origin: string;
  readonly site: string;
  /** Unix seconds. */
  readonly checkedAt: number;
  /** The site's robots.txt, for the page checks that read it. */
  readonly robots?: RobotsFacts | undefined;
}

/**
 * One fetched URL as a crawl stores it: the page's SEO facts reduced to what the crawl reports
 * and the graph needs, its links as strict keys, and the page checks that fail on it. CPU-bound
 * (parsing, hashing, checks): the crawler runs it on its parse threads.
 */
export function crawledPage(input: PageInput): CrawledPage {
  const r = input.response;
  // One literal of the message's shape, not CrawledPage.fromPartial (a generic copy of every field,
  // redirects included, large for V8 to optimise: extract.ts's pageFacts says what that cost).
  const page: CrawledPage = {
    url: input.url, finalUrl: r.finalUrl || input.url, status: r.status, error: r.error, depth: input.depth,
    redirects: r.redirects, contentType: r.contentType, bytes: r.bodyBytes, ttfbMs: r.ttfbMs, isHtml: false,
    title: "", description: "", words: 0, contentHash: "", simhash: "", canonical: "", noindex: false,
    internalLinks: [], nofollowInternal: [], externalLinks: [], hreflang: [], issues: [], inSitemap: false,
    skipped: "", throttled: 0, internalAssets: [],
  };
  const ok = r.status >= 200 && r.status < 300;
  const body = input.body;
  const html = input.html || (ok && body && body.length > 0 ? bodyText(r, Buffer.from(body.buffer, body.byteOffset, body.byteLength)) : "");
  if (!ok || !html) return page;
  return withExtraction(page, extractPage({ url: page.finalUrl, response: r, html, depth: input.depth }), input);
}

/**
 * The same page from an extraction made already (the site's analysis fetched and parsed the URL
 * for its sample): the facts of a page do not depend on who parsed it.
 */
export function crawledPageFrom(input: Omit<PageInput, "html" | "body">, extraction: Extraction): CrawledPage {
  return withExtraction(crawledPage({ ...input, html: "" }), extraction, input);
}

function withExtraction(page: CrawledPage, { facts, text }: Extraction, input: Omit<PageInput, "html">): CrawledPage {
  if (!facts.isHtml) return page;
  page.isHtml = true;
  page.title = storable(facts.title);
  page.description = storable(facts.metaDescription);
  page.words = facts.wordCount;
  page.contentHash = facts.contentHash;
  page.simhash = simhash(text);
  page.canonical = facts.canonicals[0] ?? facts.canonicalHeader;
  page.noindex = pageIsNoindex(facts, input.checkedAt);
  page.hreflang = facts.hreflang.map((a) => ({ hreflang: a.hreflang, href: strictKey(a.href) ?? a.href }));
  const internal = new Set<string>();
  const followed = new Set<string>();
  // Link hrefs are already strict keys (absolute, fragment removed); `internal` means the page's own host.
  const sameHost = new URL(page.finalUrl).host === input.originHost;
  for (const link of facts.links) {
    if (link.internal && sameHost) {
      internal.add(link.href);
      if (!link.nofollow) followed.add(link.href);
    } else if (!link.internal && (link.href.startsWith("http:") || link.href.startsWith("https:"))) {
      page.externalLinks.push({ href: link.href, text: storable(link.text.slice(0, 200)), nofollow: link.nofollow, internal: false });
    }
  }
  page.internalLinks = [...internal];
  page.nofollowInternal = [...internal].filter((k) => !followed.has(k));
  page.internalAssets = internalAssets(facts, input.originHost, internal);
  page.issues = pageIssues(facts, { host: input.site, origin: input.origin, checkedAt: input.checkedAt, robots: input.robots });
  return page;
}

/** The page's same-origin images, scripts and stylesheets not linked as pages too (strict keys, distinct, in document order). */
function internalAssets(facts: Extraction["facts"], originHost: string, links: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const src of [...facts.images.map((i) => i.src), ...facts.assets]) {
    const key = strictKey(src);
    if (!key || links.has(key)) continue;
    const url = new URL(key);
    if (url.host === originHost && (url.protocol === "http:" || url.protocol === "https:")) out.add(key);
  }
  return [...out];
}

/**
 * Page text as the stores hold it: NUL (which Postgres text cannot hold) and lone surrogates (a
 * cut in the middle of a pair, or a page's own broken text) become U+FFFD.
 */
function storable(text: string): string {
  return text.replace(UNSTORABLE, "\uFFFD");
}

const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
