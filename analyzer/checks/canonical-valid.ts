import type { PageFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

/** The first problem with a page's canonical declarations, or undefined when they are sound. */
export function canonicalProblem(page: PageFacts, url: string): string | undefined {
  // Each reason names the declared value: the page's own URL is known from the example already.
  const declared = [...page.canonicals, page.canonicalHeader].filter(Boolean);
  const parsed = declared.map(httpUrl);
  const bad = declared.find((_, i) => parsed[i] === undefined);
  if (bad !== undefined) return `canonical ${JSON.stringify(bad)} is not an absolute http(s) URL`;
  const targets = [...new Set(parsed.map((u) => u?.href))];
  if (targets.length > 1) return `conflicting canonical URLs: ${targets.join(", ")}`;
  const target = parsed[0];
  const self = httpUrl(url);
  if (!target || !self) return undefined;
  if (target.pathname === "/" && self.pathname !== "/" && target.search === "") return `canonical ${target.href} points to the site root from an inner page`;
  const alternates = page.hreflang.map((a) => httpUrl(a.href)?.href).filter((h) => h !== undefined && h !== self.href);
  if (alternates.includes(target.href)) return `canonical ${target.href} points to an hreflang alternate of this page`;
  return undefined;
}

export const canonicalValid: CheckDef = {
  code: "canonical_valid",
  title: "Canonical URLs are valid",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Declare one absolute canonical URL per page, the same in HTML and headers, pointing to the page itself or its true duplicate — not the home page or another language.",
  run(facts) {
    const pages = htmlPages(facts);
    return aggregatePages(
      pages,
      (p) => {
        if (p.page.canonicals.length === 0 && !p.page.canonicalHeader) return "na";
        const why = canonicalProblem(p.page, p.url);
        return why === undefined ? "pass" : { verdict: "fail", why };
      },
      { problem: "invalid canonical URL", none: "no page declares a canonical URL" },
    );
  },
};
