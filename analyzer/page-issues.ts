import type { PageFacts, RobotsFacts, SiteFacts } from "../proto/index.ts";
import { CHECKS } from "./checks/index.ts";
import { isNoindex } from "./checks/noindex.ts";
import { pageUrl } from "./checks/response.ts";

export interface PageContext {
  readonly host: string;
  readonly origin: string;
  /** Unix seconds. */
  readonly checkedAt: number;
  /** The site's robots.txt, which page checks read too (internal_nofollow leaves links it closes to search crawlers). */
  readonly robots?: RobotsFacts | undefined;
}

/**
 * The catalogue's verdict on one page of a crawl: the codes of the checks that fail (or warn on) it.
 * Every check runs over a site made of this one page; a page check names its failing pages, so a
 * code counts when its outcome names this page — site-level checks (robots, TLS, DNS…) name none
 * and cross-page checks (duplicates) have only one page to compare: neither is a page issue, nor
 * is a check that only a sample of the site's pages decides (CheckDef.sampleOnly).
 */
export function pageIssues(page: PageFacts, context: PageContext): string[] {
  const url = pageUrl(page);
  if (!url) return [];
  // A literal, not SiteFacts.fromPartial: that deep-copied the page (every link and image) and
  // robots.txt's groups once per page for checks that only read them.
  const facts: SiteFacts = {
    host: context.host, origin: context.origin, checkedAt: context.checkedAt, home: undefined, pages: [page], robots: context.robots,
    sitemaps: [], tls: undefined, dns: undefined, httpVariant: undefined, wwwVariant: undefined, notFoundProbe: undefined,
    securityTxt: undefined, favicon: undefined, technologies: [], confirmation: undefined, crawl: undefined, securityTxtFields: undefined,
    manifest: undefined, browser: undefined, browserPages: [], browserState: "", socialImages: [],
  };
  const codes: string[] = [];
  for (const def of CHECKS) {
    // Judged among the site's pages only (url_hygiene: the site's own URL scheme): one page alone would say otherwise.
    if (def.sampleOnly) continue;
    let outcome;
    try {
      outcome = def.run(facts);
    } catch {
      continue; // a faulty check says nothing about the page
    }
    if ((outcome.status === "fail" || outcome.status === "warn") && outcome.pages.includes(url)) codes.push(def.code);
  }
  return codes;
}

/** Whether a page asks not to be indexed (meta robots or X-Robots-Tag). */
export function pageIsNoindex(page: PageFacts, nowS: number): boolean {
  return isNoindex(page, nowS);
}
