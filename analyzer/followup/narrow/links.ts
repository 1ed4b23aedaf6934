import type { SiteFacts } from "../../../proto/index.ts";
import type { CheckOutcome } from "../../checks/index.ts";
import { RECHECK_MAX_PAGES } from "./page.ts";
import type { NarrowContext, RecheckScope } from "./scope.ts";

/** A broken internal link target of the site's latest crawl, with the crawled pages linking to it. */
export interface CrawlBrokenLink {
  readonly url: string;
  readonly status: number;
  readonly error: string;
  readonly sources: readonly string[];
}

/** What a crawl subset reads of the site's latest crawl (the gateway loads it for families that need it). */
export interface CrawlContext {
  readonly crawledAt: number;
  /** How many broken targets the crawl counted. */
  readonly brokenCount: number;
  /** Every broken target the crawl's report lists. */
  readonly broken: readonly CrawlBrokenLink[];
  /** How many pages the crawl counted with a bad canonical target. */
  readonly canonicalCount: number;
  /** Every such page the crawl's report lists, with its canonical and what was wrong with it. */
  readonly canonicals: readonly { readonly url: string; readonly target: string; readonly problem: string }[];
}

/** Fetches pages (at most RECHECK_MAX_PAGES) in a `pages` look and gives their facts. */
export type LookPages = (urls: readonly string[]) => Promise<SiteFacts>;

const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

/** The linking pages of the crawl's broken targets, when the subset is small enough to decide the check. */
function subset(crawl: CrawlContext | undefined): { broken: readonly CrawlBrokenLink[]; sources: string[] } | undefined {
  if (!crawl || crawl.broken.length === 0 || crawl.broken.length !== crawl.brokenCount || crawl.broken.length > RECHECK_MAX_PAGES) return undefined;
  const sources = [...new Set(crawl.broken.flatMap((b) => b.sources))];
  return sources.length > 0 && sources.length <= RECHECK_MAX_PAGES ? { broken: crawl.broken, sources } : undefined;
}

/** A URL's comparable form (fragment dropped). */
export function key(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href;
  } catch {
    return url;
  }
}

const answered = (status: number) => status >= 200 && status < 400;

/**
 * broken_internal by a crawl subset: the pages that linked to the crawl's broken targets are
 * fetched again (a `pages` look); a target none of them links to any more is fixed; the targets
 * still linked are fetched (a second look) and fixed when they answer now. It decides when the crawl
 * listed every broken target (at most 10) and they had at most 10 linking pages; otherwise the
 * check stays the whole crawl's (422). A new broken link on a page the crawl did not see is not
 * looked for: the subset answers for the links the crawl found.
 */
export const brokenLinksScope: RecheckScope = {
  id: "links",
  mode: "links",
  fallback: "crawl",
  needsCrawl: true,
  decidesOnPassOnly: true,
  codes: ["broken_internal"],
  why: `the pages that linked to the latest crawl's broken targets, then the targets they still link to (at most ${RECHECK_MAX_PAGES} each); the whole crawl when it found more`,
  whyNot: {
    broken_internal: `no crawl of the site lists all its broken targets within ${RECHECK_MAX_PAGES} targets linked from at most ${RECHECK_MAX_PAGES} pages (the subset a re-check fetches): every internal link target that fails, with the pages linking to it, is seen only by a whole crawl`,
  },
  applies: (ctx: NarrowContext) => subset(ctx.crawl) !== undefined,
  async decide(ctx: NarrowContext, look: LookPages): Promise<CheckOutcome> {
    const { broken, sources } = subset(ctx.crawl)!;
    const linking = await look(sources);
    const pages = [...(linking.home ? [linking.home] : []), ...linking.pages];
    const linked = new Set(pages.flatMap((p) => ((p.response?.status ?? 0) >= 200 && (p.response?.status ?? 0) < 300 ? p.links.map((l) => key(l.href)) : [])));
    const still = broken.filter((b) => linked.has(key(b.url)));
    const statuses = new Map<string, number>();
    if (still.length > 0) {
      const targets = await look(still.map((b) => b.url));
      for (const p of [...(targets.home ? [targets.home] : []), ...targets.pages]) statuses.set(key(p.response?.requestedUrl ?? ""), p.response?.status ?? 0);
    }
    const failing = still.filter((b) => !answered(statuses.get(key(b.url)) ?? 0));
    const note = `${broken.length} broken target(s) of the crawl of ${day(ctx.crawl!.crawledAt)}, ${sources.length} linking page(s) fetched again`;
    if (failing.length === 0) return { status: "pass", score: 1, value: 0, detail: `${note}: none is linked and broken any more`, pages: [] };
    const first = failing[0]!;
    const now = statuses.get(key(first.url)) ?? 0;
    return {
      status: "fail",
      score: 0,
      value: failing.length,
      detail: `${note}: ${failing.length} still linked and broken, e.g. ${first.url} (${now || "no answer"})`,
      pages: failing.map((b) => b.url),
    };
  },
};
