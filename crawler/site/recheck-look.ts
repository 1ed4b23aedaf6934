import { RECHECK_MAX_PAGES } from "../../analyzer/index.ts";
import { SiteFacts, type PageFacts, type RobotsFacts } from "../../proto/index.ts";
import type { FetchOptions, FetchResult } from "../fetch/fetch-page.ts";
import type { Extraction, ExtractInput } from "../page/extract.ts";
import { robotsFacts } from "./robots.ts";
import { collectSitemaps, SITEMAP_MAX_BYTES } from "./sitemaps.ts";

export { RECHECK_MAX_PAGES };

/** What a task re-check's look fetches (the `recheck` kind's task). */
export interface RecheckLookInput {
  /** The site as monitored (host or host:port). */
  readonly host: string;
  /** The origin of the site's last report: robots.txt, the sitemap and the home page are read there. */
  readonly origin: string;
  /** robots.txt, the sitemaps it names (or /sitemap.xml) and the home page. */
  readonly robots: boolean;
  /** Pages to fetch: only those on the origin are, the first RECHECK_MAX_PAGES of them. */
  readonly urls: readonly string[];
  /** Unix seconds: the facts' checked_at. */
  readonly checkedAt: number;
}

export interface RecheckLookDeps {
  /** A fetch through the node's egress guard, paced by the host's politeness. */
  fetch(url: string, extra?: Partial<FetchOptions>): Promise<FetchResult>;
  /** The crawler's page parser (the node's parse threads). */
  parse(input: ExtractInput): Promise<Extraction>;
  readonly signal?: AbortSignal;
}

/** The URLs of the input a look fetches: on the origin, each once, at most RECHECK_MAX_PAGES. */
export function lookUrls(origin: string, urls: readonly string[]): string[] {
  const own = new URL(origin).origin;
  const out = new Set<string>();
  for (const text of urls) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      continue;
    }
    if (url.origin !== own) continue;
    url.hash = "";
    out.add(url.href);
    if (out.size === RECHECK_MAX_PAGES) break;
  }
  return [...out];
}

/**
 * The facts a task re-check reads, and only those: robots.txt parsed by the crawler's own parser,
 * the sitemaps through the same collector the analysis uses, the home page, and a few named pages,
 * each through the guarded egress. Everything else in the facts stays unset (a check that needs
 * more is not decided by this look; analyzer/followup/narrow/ says which are).
 */
export async function recheckLook(input: RecheckLookInput, deps: RecheckLookDeps): Promise<SiteFacts> {
  const origin = new URL(input.origin).origin;
  const page = async (url: string, depth?: number): Promise<PageFacts> => {
    const r = await deps.fetch(url);
    deps.signal?.throwIfAborted();
    return (await deps.parse({ url: r.response.finalUrl || url, response: r.response, html: r.text, ...(depth === undefined ? {} : { depth }) })).facts;
  };
  const homeUrl = `${origin}/`;
  const urls = lookUrls(origin, input.urls);
  let robots: RobotsFacts | undefined;
  let sitemaps: SiteFacts["sitemaps"] = [];
  let home: PageFacts | undefined;
  if (input.robots) {
    const fetched = await deps.fetch(`${origin}/robots.txt`, { maxRedirects: 5 });
    robots = robotsFacts(fetched.response, fetched.text);
    const roots = robots.sitemaps.length > 0 ? robots.sitemaps : [`${origin}/sitemap.xml`];
    sitemaps = await collectSitemaps(roots, (u) => deps.fetch(u, { maxBodyBytes: SITEMAP_MAX_BYTES }), { siteHost: new URL(origin).host });
    home = await page(homeUrl, 0);
  }
  const pages: PageFacts[] = [];
  for (const url of urls) {
    if (url === homeUrl) home ??= await page(url, 0);
    else pages.push(await page(url));
  }
  return SiteFacts.fromPartial({ host: input.host, origin, checkedAt: input.checkedAt, ...(home ? { home } : {}), pages, ...(robots ? { robots } : {}), sitemaps });
}
