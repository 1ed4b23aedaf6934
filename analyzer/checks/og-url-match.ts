import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

export const ogUrlMatch: CheckDef = {
  code: "og_url_match",
  title: "og:url is the canonical URL",
  group: "social",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Set og:url to exactly the page's canonical URL, so shares and likes of every variant of the page add up on one address.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const ogUrl = page.openGraph.find((m) => m.key === "og:url")?.content.trim() ?? "";
        const canonical = page.canonicals[0] || page.canonicalHeader;
        // Nothing to compare: og_required and canonical_present report what is missing.
        if (!ogUrl || !canonical) return "na";
        if (httpUrl(ogUrl)?.href === httpUrl(canonical)?.href) return "pass";
        return { verdict: "fail", why: `og:url ${ogUrl}, canonical ${canonical}` };
      },
      { problem: "og:url differs from the canonical URL", none: "no page declares both og:url and a canonical URL" },
    );
  },
};
