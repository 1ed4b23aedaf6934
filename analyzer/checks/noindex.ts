import type { PageFacts, SiteFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

const CAP_HOME_NOINDEX = 29;
// Robots directives that take a value; their "none" (max-image-preview:none) is not the "none" directive.
const VALUE_DIRECTIVES = new Set(["max-image-preview", "max-snippet", "max-video-preview"]);
const UNAVAILABLE_AFTER = /unavailable_after\s*:\s*([^,]+(?:,\s*\d[^,]*)?)/;

/** Whether robots metas and X-Robots-Tag keep the page out of the index at `nowS` (Unix seconds). */
export function isNoindex(page: PageFacts, nowS: number): boolean {
  const text = [page.metaRobots, page.xRobotsTag.toLowerCase()].filter(Boolean).join(", ");
  const until = UNAVAILABLE_AFTER.exec(text)?.[1];
  if (until !== undefined) {
    const ms = Date.parse(until.trim());
    if (!Number.isNaN(ms) && ms <= nowS * 1000) return true;
  }
  return text.split(",").some((item) => {
    const match = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(item.trim());
    if (match && (VALUE_DIRECTIVES.has(match[1] ?? "") || match[1] === "unavailable_after")) return false;
    // "googlebot: noindex" in X-Robots-Tag: the prefix names a user agent.
    const words = (match ? (match[2] ?? "") : item).trim().split(/\s+/);
    return words.some((w) => w === "noindex" || w === "none");
  });
}

function homeNoindex(facts: SiteFacts): boolean {
  return facts.home !== undefined && isNoindex(facts.home, facts.checkedAt);
}

export const noindex: CheckDef = {
  code: "noindex",
  title: "Pages are not closed by noindex",
  group: "indexing",
  rankGroup: "indexing",
  level: "bad",
  weight: 6,
  effort: 1,
  recheck: true,
  hint: "Remove `noindex`/`none` from the robots meta tag and the X-Robots-Tag header of pages that should appear in search.",
  run(facts) {
    const outcome = aggregatePages(htmlPages(facts), (p) => (isNoindex(p.page, facts.checkedAt) ? "fail" : "pass"), {
      problem: "closed by noindex",
      none: "no HTML page answered 200",
    });
    if (homeNoindex(facts) && outcome.status === "fail") outcome.cap = CAP_HOME_NOINDEX;
    return outcome;
  },
};
