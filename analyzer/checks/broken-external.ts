import type { CheckDef } from "./check.ts";
import { MAX_PAGES, notApplicable, pass, shareFail } from "./check.ts";
import { crawlNote, latestCrawl, NO_CRAWL } from "./crawl-share.ts";

/** Examples quoted in a failing detail. */
const EXAMPLES = 3;

export const brokenExternal: CheckDef = {
  code: "broken_external",
  title: "External links lead to working pages",
  group: "links",
  rankGroup: "links",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: false,
  hint: "Update or remove links to external pages that answer 4xx, 5xx or not at all (a moved page has usually a new address on the same site).",
  run(facts) {
    const crawl = latestCrawl(facts);
    if (!crawl) return notApplicable(NO_CRAWL);
    // The crawl checks external links only on hosts the operator's egress policy allows
    // (SVC_EGRESS_ALLOW); the others are "unchecked", never broken: there is nothing to judge.
    if (crawl.externalChecked <= 0) return notApplicable(`no external link was checked: the crawl checks only hosts SVC_EGRESS_ALLOW lets it reach; the others are listed as unchecked in GET /external (${crawlNote(crawl)})`);
    const note = crawlNote(crawl);
    if (crawl.brokenExternal <= 0) return pass(0, `${crawl.externalChecked} external links checked, all answer (${note})`);
    const shown = crawl.externalBroken.slice(0, EXAMPLES).map((s) => `${s.url} (${s.detail})`).join("; ");
    const detail = `${crawl.brokenExternal} of ${crawl.externalChecked} external links checked answer 4xx, 5xx or not at all (${note}); e.g. ${shown}`;
    return shareFail(crawl.brokenExternal / crawl.externalChecked, crawl.brokenExternal, detail, crawl.externalBroken.map((s) => s.url).slice(0, MAX_PAGES));
  },
};
