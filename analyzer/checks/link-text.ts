import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { isHttpHref } from "./response.ts";

// Lighthouse's English list (core/audits/seo/link-text.js) plus the catalogue's Russian one.
const NON_DESCRIPTIVE = new Set([
  "click here",
  "click this",
  "go",
  "here",
  "information",
  "learn more",
  "more",
  "more info",
  "more information",
  "right here",
  "read more",
  "see more",
  "start",
  "this",
  "здесь",
  "тут",
  "подробнее",
  "читать далее",
  "ссылка",
  "далее",
]);

/** Lower case, inner spaces collapsed, surrounding punctuation and arrows removed. */
export function normaliseAnchor(text: string): string {
  let known = normalised.get(text);
  if (known === undefined) {
    known = text
      .toLowerCase()
      .replace(/\s+/g, " ")
      .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "");
    // A site's navigation repeats its anchors on every page: they are normalised once.
    if (normalised.size >= NORMALISED_MAX) normalised.clear();
    normalised.set(text, known);
  }
  return known;
}

const NORMALISED_MAX = 4096;
const normalised = new Map<string, string>();

export const linkText: CheckDef = {
  code: "link_text",
  title: "Links have descriptive text",
  group: "links",
  rankGroup: "links",
  level: "info",
  weight: 1,
  effort: 3,
  recheck: true,
  hint: "Replace anchors like “click here”, “read more” or «подробнее» with words that say where the link leads.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const links = page.links.filter((l) => isHttpHref(l.href));
        if (links.length === 0) return "na";
        const vague = links.filter((l) => NON_DESCRIPTIVE.has(normaliseAnchor(l.text)));
        return vague.length === 0 ? "pass" : { verdict: "fail", why: `${vague.length} link(s) like "${vague[0]?.text.trim()}"` };
      },
      { problem: "non-descriptive link text", none: "no page has links" },
    );
  },
};
