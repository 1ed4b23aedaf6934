import type { RobotsGroupRules } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

// AI crawlers and training-data collectors (catalogue §2.1), lower case as RobotsFacts keeps user agents.
const AI_AGENTS = ["gptbot", "claudebot", "perplexitybot", "google-extended", "ccbot"];
const WHOLE_SITE = new Set(["/", "/*"]);

function blocksAll(group: RobotsGroupRules): boolean {
  return group.disallow.some((rule) => WHOLE_SITE.has(rule.trim())) && !group.allow.some((rule) => WHOLE_SITE.has(rule.trim()));
}

/** The group a crawler obeys (RFC 9309 §2.2.1): the one naming it, else the `*` group. */
function groupFor(groups: readonly RobotsGroupRules[], agent: string): RobotsGroupRules | undefined {
  return groups.find((g) => g.userAgents.includes(agent)) ?? groups.find((g) => g.userAgents.includes("*"));
}

export const aiCrawlersBlocked: CheckDef = {
  code: "ai_crawlers_blocked",
  title: "AI crawlers may read the site",
  group: "indexing",
  rankGroup: "indexing",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "If you want the site cited by AI assistants, do not `Disallow: /` GPTBot, ClaudeBot, PerplexityBot, Google-Extended or CCBot in robots.txt; keep the block only if that is a deliberate choice.",
  run(facts) {
    const robots = facts.robots;
    if (!robots?.present) return notApplicable("no robots.txt rules to read");
    const blocked = AI_AGENTS.filter((agent) => {
      const group = groupFor(robots.groups, agent);
      return group !== undefined && blocksAll(group);
    });
    if (blocked.length === 0) return pass(null, "no AI crawler is blocked from the whole site");
    return fail(blocked.join(", "), `Disallow: / applies to ${blocked.join(", ")}`);
  },
};
