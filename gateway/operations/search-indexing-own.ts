import { CrawledPage } from "../../proto/index.ts";
import type { IndexUrlRow, Repositories } from "../../storage/index.ts";
import { storedReport } from "./report-view.ts";

// Svc's own view of a site's indexability for GET /indexing (D6): the pages its latest analysis
// found noindex, its latest crawl's pages (status, noindex, listed in a sitemap) and the robots.txt
// version in force, crossed with the engines' imported URL lists.

/** A crawl's pages read for the crossing, at most: a bound on the request's work, said in the answer. */
export const OWN_CRAWL_PAGES_MAX = 10_000;
const GAP_MAX = 100;

interface OwnPage {
  readonly status: number;
  readonly noindex: boolean;
  readonly inSitemap: boolean;
}

export interface OwnIndexing {
  readonly view: {
    readonly run: number;
    readonly checked_at: number;
    readonly noindex: string[];
    readonly crawl: { job: number; checked_at: number; pages_read: number; ok: number; noindex: number; in_sitemap: number; truncated: boolean } | null;
    readonly robots: { seen_at: number; status: number } | null;
  } | null;
  readonly robotsTs: number | null;
  readonly pages: ReadonlyMap<string, OwnPage>;
  readonly noindex: ReadonlySet<string>;
}

/** A URL as both sides can match it: the scheme and host in lower case, no fragment. */
export function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.toString();
  } catch {
    return url;
  }
}

/** What Svc itself knows of the site's indexability: its latest run, crawl and robots.txt version. */
export async function ownIndexing(repos: Pick<Repositories, "crawlPages" | "crawls" | "robots" | "runs">, host: string, now: number): Promise<OwnIndexing> {
  const [run, crawl, robots] = await Promise.all([repos.runs.latest(host), repos.crawls.latest(host), repos.robots.since(host, now)]);
  const version = robots.at(-1) ?? null;
  const noindex = new Set<string>();
  if (run) for (const item of storedReport(run).items) if (item.code === "noindex" && (item.status === "fail" || item.status === "warn")) for (const p of item.pages) noindex.add(urlKey(p));
  const pages = new Map<string, OwnPage>();
  let truncated = false;
  if (crawl) {
    for (let offset = 0; offset < OWN_CRAWL_PAGES_MAX; offset += 1000) {
      const { rows, total } = await repos.crawlPages.pages(crawl.job_id, {}, 1000, offset);
      for (const r of rows) {
        const d = CrawledPage.fromJSON(r.data);
        if (d.skipped !== "") continue;
        pages.set(urlKey(r.url), { status: r.status, noindex: d.noindex, inSitemap: d.inSitemap });
        if (d.noindex) noindex.add(urlKey(r.url));
      }
      truncated = total > OWN_CRAWL_PAGES_MAX;
      if (offset + rows.length >= total) break;
    }
  }
  const list = [...pages.values()];
  return {
    view: run
      ? {
          run: run.id,
          checked_at: run.checked_at,
          noindex: [...noindex].sort().slice(0, GAP_MAX),
          crawl: crawl
            ? { job: crawl.job_id, checked_at: crawl.checked_at, pages_read: pages.size, ok: list.filter((p) => p.status >= 200 && p.status < 300).length, noindex: list.filter((p) => p.noindex).length, in_sitemap: list.filter((p) => p.inSitemap).length, truncated }
            : null,
          robots: version ? { seen_at: version.seen_at, status: version.status } : null,
        }
      : null,
    robotsTs: version?.seen_at ?? null,
    pages,
    noindex,
  };
}

/**
 * The engines' lists crossed with Svc's own view: sitemap URLs an engine does not index, pages Svc
 * saw noindex that Yandex still has in its search, and pages Svc fetched fine (200, indexable) that
 * an engine lists as not indexed. Each list is sorted and holds at most 100 URLs.
 */
export function ownGaps(own: OwnIndexing, google: readonly IndexUrlRow[], yandex: readonly IndexUrlRow[]) {
  const out = new Map<string, string>();
  const notIndexed = [...google.map((u) => u.url), ...yandex.filter((u) => u.status !== "searchable").map((u) => u.url)];
  for (const u of notIndexed) out.set(urlKey(u), u);
  const sitemapNotIndexed = [...out].filter(([k]) => own.pages.get(k)?.inSitemap === true).map(([, u]) => u);
  const okNotIndexed = [...out].filter(([k]) => {
    const p = own.pages.get(k);
    return p !== undefined && p.status === 200 && !p.noindex;
  }).map(([, u]) => u);
  const noindexInSearch = yandex.filter((u) => u.status === "searchable" && own.noindex.has(urlKey(u.url))).map((u) => u.url);
  const cap = (xs: string[]) => [...new Set(xs)].sort().slice(0, GAP_MAX);
  return { sitemap_not_indexed: cap(sitemapNotIndexed), noindex_in_search: cap(noindexInSearch), ok_not_indexed: cap(okNotIndexed) };
}
