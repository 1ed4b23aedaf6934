import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { isHttpHref } from "./response.ts";

// Lighthouse's English list (core/audits/seo/link-text.js) plus the catalogue's Russian one.
export const NON_DESCRIPTIVE: ReadonlySet<string> = new Set([
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
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "");
}

const LONGEST = Math.max(...[...NON_DESCRIPTIVE].map((p) => p.length));
const SPACE = /\s/;
const PUNCT_OR_SYMBOL = /[\p{P}\p{S}]/u;

/**
 * Whether an anchor text is one of the non-descriptive phrases: NON_DESCRIPTIVE.has(normaliseAnchor(text)),
 * in one pass that stops once the text's words are longer than the longest phrase (most anchors).
 */
export function isNonDescriptive(text: string): boolean {
  let out = "";
  // out's length up to its last character that is neither space nor punctuation: what stays of it.
  let kept = 0;
  let space = false;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = cp < 128 ? text[i]! : String.fromCodePoint(cp);
    i += ch.length;
    if (cp < 128 ? cp === 32 || (cp >= 9 && cp <= 13) : SPACE.test(ch)) {
      space = out.length > 0;
      continue;
    }
    const edge = cp < 128 ? (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126) : PUNCT_OR_SYMBOL.test(ch);
    if (out.length === 0 && edge) continue; // leading punctuation goes
    if (space) out += " ";
    space = false;
    out += cp < 128 ? (cp >= 65 && cp <= 90 ? String.fromCharCode(cp + 32) : ch) : ch.toLowerCase();
    if (!edge) kept = out.length;
    if (kept > LONGEST) return false;
  }
  return NON_DESCRIPTIVE.has(out.slice(0, kept));
}

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
        const vague = links.filter((l) => isNonDescriptive(l.text));
        return vague.length === 0 ? "pass" : { verdict: "fail", why: `${vague.length} link(s) like "${vague[0]?.text.trim()}"` };
      },
      { problem: "non-descriptive link text", none: "no page has links" },
    );
  },
};
