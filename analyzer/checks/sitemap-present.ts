import type { CheckDef } from "./check.ts";
import { fail, pass } from "./check.ts";
import { statusOrError } from "./response.ts";

export const sitemapPresent: CheckDef = {
  code: "sitemap_present",
  title: "XML sitemap is available",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Publish an XML sitemap (e.g. /sitemap.xml) and list it with a `Sitemap:` line in robots.txt.",
  run(facts) {
    const found = facts.sitemaps.filter(
      (s) => s.response?.status === 200 && (s.valid || s.gzip || s.response.contentType.includes("xml")),
    );
    if (found.length > 0) return pass(found.length, `found ${found.map((s) => s.url).join(", ")}`);
    // The crawler always looks (robots.txt Sitemap lines, /sitemap.xml, /sitemap_index.xml), so an empty
    // list is the finding itself: the catalogue counts a missing sitemap as a failure, not as N/A.
    const tried = facts.sitemaps.map((s) => `${s.url} → ${s.response ? statusOrError(s.response) : "not fetched"}`);
    return fail(0, tried.length > 0 ? `no XML sitemap answers 200: ${tried.join(", ")}` : "no sitemap declared or found");
  },
};
