import { Parser } from "htmlparser2";
import { SitemapFacts } from "../../proto/index.ts";
import { decodeBody } from "../fetch/body.ts";
import type { FetchResult } from "../fetch/fetch-page.ts";

export const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
/** sitemaps.org limits per file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export interface SitemapOptions {
  /** The site's host (host[:port]): `<loc>` on any other host is a problem. */
  readonly siteHost: string;
  /** Sitemaps named by robots.txt (or guessed) that are fetched. Default 5. */
  readonly maxRoots?: number;
  /** Children fetched from sitemap indexes, over all indexes. Default 5. */
  readonly maxChildren?: number;
  /** Default 50. */
  readonly sampleSize?: number;
}

/** Fetches one sitemap; the caller binds egress, limits and politeness. */
export type SitemapFetch = (url: string) => Promise<FetchResult>;

export interface ParsedSitemap {
  readonly facts: SitemapFacts;
  /** For an index: the child sitemaps it lists. */
  readonly children: string[];
}

/** Fetches and parses sitemaps, following indexes one level deep to at most `maxChildren` children. */
export async function collectSitemaps(urls: readonly string[], fetch: SitemapFetch, opts: SitemapOptions): Promise<SitemapFacts[]> {
  const seen = new Set<string>();
  const out: SitemapFacts[] = [];
  let childBudget = opts.maxChildren ?? 5;
  for (const url of urls.slice(0, opts.maxRoots ?? 5)) {
    if (seen.has(url)) continue;
    seen.add(url);
    const root = await fetchSitemap(url, fetch, opts);
    out.push(root.facts);
    const children = root.children.filter((c) => !seen.has(c)).slice(0, Math.max(0, childBudget));
    childBudget -= children.length;
    const fetched = await Promise.all(children.map((c) => (seen.add(c), fetchSitemap(c, fetch, opts))));
    for (const child of fetched) {
      if (child.facts.isIndex) child.facts.problems.push("nested_index: a sitemap index listed by another index is not followed");
      out.push(child.facts);
    }
  }
  return out;
}

async function fetchSitemap(url: string, fetch: SitemapFetch, opts: SitemapOptions): Promise<ParsedSitemap> {
  const { response, body } = await fetch(url);
  if (response.error !== "" && !response.bodyTruncated) {
    return { facts: SitemapFacts.fromPartial({ response, url, problems: [`fetch_error: ${response.error}`] }), children: [] };
  }
  if (response.status !== 200) {
    return { facts: SitemapFacts.fromPartial({ response, url, problems: [`http_status: ${response.status}`] }), children: [] };
  }
  const parsed = await parseSitemap(url, body, opts.siteHost, opts.sampleSize ?? 50);
  parsed.facts.response = response;
  parsed.facts.gzip ||= /\.gz$/i.test(new URL(url).pathname) && response.contentEncoding.includes("gzip");
  if (response.bodyTruncated) parsed.facts.problems.push(`truncated: only the first ${response.wireBytes} bytes were read`);
  return parsed;
}

/**
 * Parses a sitemap body (gzip recognised by its magic bytes): a `urlset` or `sitemapindex` in the
 * sitemaps.org 0.9 namespace. Problems are "code: detail" strings.
 */
export async function parseSitemap(url: string, raw: Buffer, siteHost: string, sampleSize = 50): Promise<ParsedSitemap> {
  const facts = SitemapFacts.fromPartial({ url });
  let body = raw;
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    facts.gzip = true;
    const decoded = await decodeBody(raw, "gzip", SITEMAP_MAX_BYTES + 1);
    if (decoded.error) facts.problems.push(`gzip_error: ${decoded.error}`);
    body = decoded.body;
  }
  if (body.length > SITEMAP_MAX_BYTES) facts.problems.push(`too_large: more than ${SITEMAP_MAX_BYTES} bytes uncompressed`);
  const text = body.toString("utf8").replace(/^\uFEFF/, "");
  const scan = scanXml(text);
  if (!/^\s*</.test(text) || scan.root === null || scan.root.local === "html") {
    facts.problems.push("not_xml: the body is not an XML document");
    return { facts, children: [] };
  }
  const { root } = scan;
  facts.isIndex = root.local === "sitemapindex";
  if (root.local !== "urlset" && root.local !== "sitemapindex") {
    facts.problems.push(`wrong_root: <${root.name}> is neither urlset nor sitemapindex`);
    return { facts, children: [] };
  }
  if (root.namespace !== SITEMAP_NS) facts.problems.push(`wrong_namespace: "${root.namespace}"`);
  facts.urlCount = scan.entries;
  if (scan.entries > SITEMAP_MAX_URLS) facts.problems.push(`too_many_urls: ${scan.entries}`);
  const relative: string[] = [];
  const otherHost: string[] = [];
  const absolute: string[] = [];
  for (const loc of scan.locs) {
    if (!/^https?:\/\//i.test(loc) || !URL.canParse(loc)) relative.push(loc);
    else if (new URL(loc).host !== siteHost) otherHost.push(loc);
    else absolute.push(loc);
  }
  if (relative.length > 0) facts.problems.push(`relative_loc: ${relative.length} (first: ${relative[0]})`);
  if (otherHost.length > 0) facts.problems.push(`other_host: ${otherHost.length} (first: ${otherHost[0]})`);
  facts.sampleUrls = absolute.slice(0, sampleSize);
  facts.valid = root.namespace === SITEMAP_NS && scan.entries <= SITEMAP_MAX_URLS && relative.length === 0;
  return { facts, children: facts.isIndex ? absolute : [] };
}

interface XmlScan {
  root: { name: string; local: string; namespace: string } | null;
  /** `<url>` (urlset) or `<sitemap>` (index) elements directly under the root. */
  entries: number;
  locs: string[];
}

/** One streaming pass: root element and its namespace, entry count, and the `<loc>` texts. */
function scanXml(text: string): XmlScan {
  const scan: XmlScan = { root: null, entries: 0, locs: [] };
  const stack: string[] = [];
  let loc: string[] | null = null;
  const local = (name: string) => name.slice(name.indexOf(":") + 1).toLowerCase();
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (scan.root === null) {
          const prefix = name.includes(":") ? name.slice(0, name.indexOf(":")) : "";
          scan.root = { name, local: local(name), namespace: (prefix ? attribs[`xmlns:${prefix}`] : attribs.xmlns) ?? "" };
        }
        stack.push(local(name));
        if (stack.length === 2 && (stack[1] === "url" || stack[1] === "sitemap")) scan.entries += 1;
        if (stack.length === 3 && stack[2] === "loc") loc = [];
      },
      ontext(data) {
        loc?.push(data);
      },
      onclosetag() {
        if (stack.length === 3 && loc !== null) {
          scan.locs.push(loc.join("").trim());
          loc = null;
        }
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  return scan;
}
