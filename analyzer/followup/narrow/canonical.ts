import type { PageFacts, SiteFacts } from "../../../proto/index.ts";
import type { CheckOutcome } from "../../checks/index.ts";
import { key, type LookPages } from "./links.ts";
import { RECHECK_MAX_PAGES } from "./page.ts";
import type { NarrowContext, RecheckScope } from "./scope.ts";

const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

/** A look's pages by the URL asked for (fragment dropped, as the look fetches it). */
function byUrl(facts: SiteFacts): Map<string, PageFacts> {
  return new Map([...(facts.home ? [facts.home] : []), ...facts.pages].map((p) => [key(p.response?.requestedUrl ?? ""), p]));
}


function noindex(p: PageFacts): boolean {
  return /\bnoindex\b|\bnone\b/.test(`${p.metaRobots} ${p.xRobotsTag.toLowerCase()}`);
}

/** The pages the crawl saw with a bad canonical, when the report lists them all and they are few enough. */
function subset(ctx: NarrowContext): readonly { url: string; target: string; problem: string }[] | undefined {
  const c = ctx.crawl;
  if (!c || c.canonicals.length === 0 || c.canonicals.length !== c.canonicalCount || c.canonicals.length > RECHECK_MAX_PAGES) return undefined;
  return c.canonicals;
}

/**
 * canonical_target by a crawl subset: the pages the crawl saw canonicalised to a bad target are
 * fetched again (a `pages` look); a page that now names itself (or no canonical), or is no longer
 * an HTML page answering 2xx, is fixed; for the others, the targets they name now are fetched (a
 * second look) and judged as the crawl judges them: same host, answering 200 without a redirect,
 * not noindex. It decides when the crawl's report lists every such page, at most 10; otherwise the
 * check stays the whole crawl's (422).
 */
export const canonicalTargetScope: RecheckScope = {
  id: "canonical",
  mode: "links",
  fallback: "crawl",
  needsCrawl: true,
  decidesOnPassOnly: true,
  codes: ["canonical_target"],
  why: `the pages the latest crawl saw with a bad canonical target, then the targets they name now (at most ${RECHECK_MAX_PAGES} each); the whole crawl when it found more`,
  whyNot: {
    canonical_target: `no crawl of the site lists all its pages with a bad canonical target within ${RECHECK_MAX_PAGES} (the subset a re-check fetches): the canonical of every crawled page is seen only by a whole crawl`,
  },
  applies: (ctx) => subset(ctx) !== undefined,
  async decide(ctx: NarrowContext, look: LookPages): Promise<CheckOutcome> {
    const listed = subset(ctx)!;
    const fetched = byUrl(await look(listed.map((c) => c.url)));
    const problems: { url: string; why: string }[] = [];
    const toCheck: { url: string; target: string }[] = [];
    for (const c of listed) {
      const p = fetched.get(key(c.url));
      const r = p?.response;
      if (!p || !r || r.status < 200 || r.status >= 300 || !p.isHtml) continue;
      const target = p.canonicals[0] || p.canonicalHeader;
      const self = r.finalUrl || r.requestedUrl;
      if (!target || target === self || target === r.requestedUrl) continue;
      if (new URL(target).host !== new URL(self).host) problems.push({ url: c.url, why: `canonical ${target}: other host` });
      else toCheck.push({ url: c.url, target });
    }
    if (toCheck.length > 0) {
      const targets = byUrl(await look(toCheck.map((t) => t.target)));
      toCheck.forEach((t) => {
        const page = targets.get(key(t.target));
        const r = page?.response;
        const why = !page || !r || r.status === 0 ? "no answer" : r.redirects.length > 0 ? `redirects to ${r.finalUrl}` : r.status !== 200 ? `answers ${r.status}` : noindex(page) ? "target is noindex" : "";
        if (why) problems.push({ url: t.url, why: `canonical ${t.target}: ${why}` });
      });
    }
    const note = `${listed.length} page(s) with a bad canonical target in the crawl of ${day(ctx.crawl!.crawledAt)}, fetched again`;
    if (problems.length === 0) return { status: "pass", score: 1, value: 0, detail: `${note}: each names itself or a good target now`, pages: [] };
    return { status: "fail", score: 0, value: problems.length, detail: `${note}: ${problems.length} still bad, e.g. ${problems[0]!.url} (${problems[0]!.why})`, pages: problems.map((p) => p.url) };
  },
};
