import type { PageFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

const primary = (tag: string) => tag.trim().toLowerCase().split("-")[0] ?? "";

/** The first contradiction in a page's hreflang set, or undefined. */
export function hreflangContradiction(page: PageFacts, url: string): string | undefined {
  const self = httpUrl(url)?.href;
  const languages = page.hreflang.filter((a) => a.hreflang.trim().toLowerCase() !== "x-default");
  const own = languages.find((a) => httpUrl(a.href)?.href === self);
  if (own && page.lang.trim() && primary(own.hreflang) !== primary(page.lang)) return `hreflang="${own.hreflang}" for itself, but <html lang="${page.lang}">`;
  // x-default may share a URL with a language; two languages may not.
  const byUrl = new Map<string, string[]>();
  for (const a of languages) {
    const href = httpUrl(a.href)?.href ?? a.href;
    byUrl.set(href, [...(byUrl.get(href) ?? []), a.hreflang]);
  }
  const shared = [...byUrl].find(([, codes]) => new Set(codes.map((c) => c.toLowerCase())).size > 1);
  return shared ? `${shared[0]} is listed as ${shared[1].join(" and ")}` : undefined;
}

export const hreflangLangMismatch: CheckDef = {
  code: "hreflang_lang_mismatch",
  title: "hreflang agrees with the page language",
  group: "international",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Give the page's own hreflang entry the language of its <html lang>, and list each URL under one language only (x-default aside).",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, url }) => {
        if (page.hreflang.length === 0) return "na";
        const why = hreflangContradiction(page, url);
        return why === undefined ? "pass" : { verdict: "fail", why };
      },
      { problem: "hreflang contradicting <html lang>, or one URL under several languages", none: "no page has hreflang annotations" },
    );
  },
};
