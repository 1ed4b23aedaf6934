import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { httpUrl, pageUrl } from "./response.ts";
import { robotsBlocksAll } from "./robots-blocks-all.ts";
import { blockedFor } from "./robots-rules.ts";

export const robotsBlocksAssets: CheckDef = {
  code: "robots_blocks_assets",
  title: "robots.txt lets search engines load scripts and styles",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Remove the robots.txt Disallow rules that cover the CSS and JavaScript files of your pages (or add Allow rules for them): Googlebot and Yandex render pages with them.",
  run(facts) {
    const robots = facts.robots;
    const home = facts.home;
    if (!robots?.present) return notApplicable("no robots.txt rules to read");
    // Everything is closed then: robots_blocks_all is the finding (and the cap), not counted again here.
    if (robotsBlocksAll.run(facts).status === "fail") return notApplicable("robots.txt closes the whole site (robots_blocks_all)");
    if (!home?.isHtml) return notApplicable("the home page is not an HTML page");
    // robots.txt governs its own origin only; files on other hosts answer to their own robots.txt.
    const origin = httpUrl(pageUrl(home))?.origin;
    const own = home.assets.map(httpUrl).filter((u): u is URL => u !== undefined && u.origin === origin);
    if (own.length === 0) return notApplicable("the home page loads no script or stylesheet from its own host");
    const blocked = own.map((u) => ({ url: u.href, by: blockedFor(robots, u) })).filter((b) => b.by.length > 0);
    if (blocked.length === 0) return pass(0, `${own.length} script(s) and stylesheet(s) of the home page may be fetched`);
    const first = blocked[0] as { url: string; by: string[] };
    return fail(blocked.length, `${blocked.length} of ${own.length} script(s) and stylesheet(s) of the home page are disallowed, e.g. ${first.url} for ${first.by.join(", ")}`, {
      pages: blocked.map((b) => b.url),
    });
  },
};
