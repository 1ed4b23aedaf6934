import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

export const sitemapInRobots: CheckDef = {
  code: "sitemap_in_robots",
  title: "robots.txt declares the sitemap",
  group: "indexing",
  rankGroup: "indexing",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Add a `Sitemap: https://…/sitemap.xml` line to robots.txt so every crawler finds the sitemap without guessing its address.",
  run(facts) {
    const robots = facts.robots;
    // No robots.txt body, no line to look for: robots_txt_fetch reports the file.
    if (!robots?.present) return notApplicable("no robots.txt body to read");
    if (robots.sitemaps.length > 0) return pass(robots.sitemaps.length, `robots.txt lists ${robots.sitemaps.join(", ")}`);
    const found = facts.sitemaps.find((s) => s.response?.status === 200);
    // Nothing to declare: a missing sitemap is sitemap_present's failure, not counted twice.
    if (!found) return notApplicable("no sitemap was found to declare");
    return fail(0, `robots.txt has no Sitemap: line; ${found.url} was found only at its usual address`);
  },
};
