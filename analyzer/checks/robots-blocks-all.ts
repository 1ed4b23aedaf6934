import type { RobotsGroupRules } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

// The crawlers whose exclusion takes the site out of search (catalogue: `*`, Googlebot, Yandex).
const AGENTS = ["*", "googlebot", "yandex"];
const WHOLE_SITE = new Set(["/", "/*"]);

function blocksAll(group: RobotsGroupRules): boolean {
  return group.disallow.some((rule) => WHOLE_SITE.has(rule.trim())) && !group.allow.some((rule) => WHOLE_SITE.has(rule.trim()));
}

export const robotsBlocksAll: CheckDef = {
  code: "robots_blocks_all",
  title: "robots.txt does not block the whole site",
  group: "indexing",
  rankGroup: "indexing",
  level: "bad",
  weight: 6,
  effort: 1,
  recheck: true,
  hint: "Remove `Disallow: /` from the `User-agent: *`, Googlebot and Yandex groups of robots.txt, unless the site must stay out of search.",
  run(facts) {
    // Without a robots.txt body there are no rules: nothing can block (robots_txt_fetch reports the fetch).
    if (!facts.robots?.present) return notApplicable("no robots.txt rules to read");
    const blocked = AGENTS.filter((agent) => facts.robots?.groups.some((g) => g.userAgents.includes(agent) && blocksAll(g)));
    if (blocked.length === 0) return pass(null, "no rule blocks the whole site for *, Googlebot or Yandex");
    return fail(blocked.join(", "), `Disallow: / for ${blocked.join(", ")}: the site is closed to search engines`, { cap: 29 });
  },
};
