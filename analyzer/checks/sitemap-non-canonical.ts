import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

/** A URL's comparable form (fragment dropped, as the extractor stores canonicals). */
function key(text: string): string | undefined {
  const url = httpUrl(text);
  if (url) url.hash = "";
  return url?.href;
}

export const sitemapNonCanonical: CheckDef = {
  code: "sitemap_non_canonical",
  title: "Sitemap lists canonical URLs",
  group: "indexing",
  rankGroup: "indexing",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "List in the sitemap only the canonical URL of each page: replace URLs whose rel=canonical points elsewhere by that canonical URL.",
  run(facts) {
    const listed = new Set(
      facts.sitemaps
        .flatMap((s) => s.sampleUrls)
        .map(key)
        .filter((k): k is string => k !== undefined),
    );
    const inSitemap = (text: string) => {
      const k = key(text);
      return k !== undefined && listed.has(k);
    };
    return aggregatePages(
      htmlPages(facts),
      ({ page, url }) => {
        const response = page.response;
        if (!inSitemap(response?.requestedUrl ?? "") && !inSitemap(url)) return "na";
        const canonical = page.canonicals[0] || page.canonicalHeader;
        // No canonical: the page is its own canonical.
        if (!canonical || key(canonical) === key(url)) return "pass";
        return { verdict: "fail", why: `listed in the sitemap, canonical ${canonical}` };
      },
      { problem: "listed in the sitemap but canonicalised to another URL", none: "no sampled page is listed in a sitemap" },
    );
  },
};
