import type { Link, PageFacts, RobotsFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";
import { SEARCH_CRAWLERS, blockedFor } from "./robots-rules.ts";

export const internalNofollow: CheckDef = {
  code: "internal_nofollow",
  title: "Internal links are followed",
  group: "links",
  rankGroup: "links",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Remove rel="nofollow" from links to your own pages; use robots.txt or noindex to keep pages out of search instead.',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, url }) => {
        const internal = page.links.filter((l) => l.internal);
        if (internal.length === 0) return "na";
        // <meta name="robots" content="nofollow"> (or X-Robots-Tag) unfollows every link of the page.
        if (pageNofollow(page)) return { verdict: "fail", why: `the page's robots directives say nofollow: none of its ${internal.length} internal link(s) is followed` };
        const nofollow = internal.filter((l) => l.nofollow && !deliberate(l, url, facts.robots));
        return nofollow.length === 0 ? "pass" : { verdict: "fail", why: `${nofollow.length} nofollow link(s), e.g. ${nofollow[0]?.href}` };
      },
      { problem: 'internal links with rel="nofollow"', none: "no page has internal links" },
    );
  },
};

/**
 * Whether a nofollow is one a well-run CMS sets on purpose and removing it would do harm: a link to
 * the page itself or one of its fragments (WordPress's "cancel reply" link), to a query variant of
 * the same page (WordPress's `?replytocom=N` reply links, which would open a duplicate URL per
 * comment), or to a URL robots.txt closes to every search crawler anyway (MediaWiki's
 * Special:RecentChangesLinked).
 */
function deliberate(link: Link, pageUrl: string, robots: RobotsFacts | undefined): boolean {
  const target = httpUrl(link.href);
  const page = httpUrl(pageUrl);
  if (!target || !page) return false;
  if (target.origin === page.origin && target.pathname === page.pathname) return true;
  return robots?.present === true && blockedFor(robots, target).length === SEARCH_CRAWLERS.length;
}

/** Whether the page's robots metas or X-Robots-Tag carry nofollow (or none) for every crawler. */
export function pageNofollow(page: PageFacts): boolean {
  const text = [page.metaRobots, page.xRobotsTag.toLowerCase()].filter(Boolean).join(",");
  return text.split(",").some((item) => {
    // "googlebot: nofollow" (a prefix naming a crawler) counts; a directive with a value (max-snippet: 0) does not.
    const match = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(item.trim());
    const words = (match ? (match[2] ?? "") : item).trim().split(/\s+/);
    return words.some((w) => w === "nofollow" || w === "none");
  });
}
