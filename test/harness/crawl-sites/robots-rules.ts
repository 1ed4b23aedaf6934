import { SITEMAP_INDEX, SITEMAP_MISSING, type RobotsGroup } from "./link-graph-types.ts";

// robots.txt of the link-graph site, written from its groups, and the rule a crawler applies to
// them (RFC 9309): the group naming the agent, else "*"; the longest matching Allow or Disallow
// prefix wins, Allow on a tie. The fixture uses plain prefixes only, no wildcards.

/** The robots.txt text, with Sitemap lines for the index and for a sitemap that no longer exists. */
export function robotsTxt(groups: readonly RobotsGroup[], origin: string): string {
  const blocks = groups.map((g) =>
    [
      ...g.agents.map((a) => `User-agent: ${a}`),
      ...(g.crawlDelayS === undefined ? [] : [`Crawl-delay: ${g.crawlDelayS}`]),
      ...g.allow.map((p) => `Allow: ${p}`),
      ...g.disallow.map((p) => `Disallow: ${p}`),
    ].join("\n"),
  );
  return `# robots.txt for Acme Outdoor\n${blocks.join("\n\n")}\n\nSitemap: ${origin}${SITEMAP_INDEX}\nSitemap: ${origin}${SITEMAP_MISSING}\n`;
}

/** Whether `agent` may fetch `pathAndQuery` under these groups. */
export function robotsAllow(groups: readonly RobotsGroup[], agent: string, pathAndQuery: string): boolean {
  const lower = agent.toLowerCase();
  const group = groups.find((g) => g.agents.some((a) => a !== "*" && lower.includes(a.toLowerCase()))) ?? groups.find((g) => g.agents.includes("*"));
  if (!group) return true;
  let best = { length: -1, allow: true };
  for (const [rules, allow] of [
    [group.disallow, false],
    [group.allow, true],
  ] as const) {
    for (const rule of rules) {
      if (rule !== "" && pathAndQuery.startsWith(rule) && (rule.length > best.length || (rule.length === best.length && allow))) best = { length: rule.length, allow };
    }
  }
  return best.allow;
}
