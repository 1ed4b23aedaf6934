import type { CheckDef } from "./check.ts";
import { notApplicable, pass, shareFail } from "./check.ts";
import { httpUrl, originOf } from "./response.ts";
import { robotsBlocksAll } from "./robots-blocks-all.ts";
import { blockedFor } from "./robots-rules.ts";

export const sitemapBlockedUrls: CheckDef = {
  code: "sitemap_blocked_urls",
  title: "Sitemap URLs are not blocked by robots.txt",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Make robots.txt and the sitemap agree: remove disallowed URLs from the sitemap, or lift the Disallow rule if the pages should be indexed.",
  run(facts) {
    const robots = facts.robots;
    if (!robots?.present) return notApplicable("no robots.txt rules to read");
    // Everything is closed then: robots_blocks_all is the finding (and the cap), not counted again here.
    if (robotsBlocksAll.run(facts).status === "fail") return notApplicable("robots.txt closes the whole site (robots_blocks_all)");
    const origin = originOf(facts.origin);
    // The URLs the crawler kept of each fetched urlset (up to 50 each), on the site's own origin.
    const listed = [...new Set(facts.sitemaps.filter((s) => s.response?.status === 200 && !s.isIndex).flatMap((s) => s.sampleUrls))]
      .map(httpUrl)
      .filter((u): u is URL => u !== undefined && u.origin === origin);
    if (listed.length === 0) return notApplicable("no sitemap URL of this origin to compare with robots.txt");
    const blocked = listed.map((u) => ({ url: u.href, by: blockedFor(robots, u) })).filter((b) => b.by.length > 0);
    if (blocked.length === 0) return pass(0, `${listed.length} sitemap URL(s) checked, none disallowed`);
    const first = blocked[0] as { url: string; by: string[] };
    return shareFail(
      blocked.length / listed.length,
      blocked.length,
      `${blocked.length} of ${listed.length} sitemap URL(s) are disallowed by robots.txt, e.g. ${first.url} for ${first.by.join(", ")}`,
      blocked.map((b) => b.url),
    );
  },
};
