import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

// Screaming Frog's URL tab "over 115 characters".
const MAX_URL_CHARS = 115;

/** What is wrong with a URL's shape, or an empty list. Percent-escapes (%D0%B0) are not "uppercase". */
export function urlProblems(text: string): string[] {
  const url = httpUrl(text);
  if (!url) return [];
  const path = url.pathname;
  const bare = path.replace(/%[0-9A-Fa-f]{2}/g, "");
  const problems: string[] = [];
  if (/[A-Z]/.test(bare)) problems.push("uppercase letters");
  if (path.includes("_")) problems.push("underscores");
  if (/%20/i.test(path)) problems.push("spaces");
  if (path.includes("//")) problems.push("double slashes");
  if (url.href.length > MAX_URL_CHARS) problems.push(`${url.href.length} characters (over ${MAX_URL_CHARS})`);
  return problems;
}

export const urlHygiene: CheckDef = {
  code: "url_hygiene",
  title: "URLs are short, lower case and hyphenated",
  group: "indexing",
  rankGroup: "indexing",
  level: "info",
  weight: 1,
  effort: 3,
  recheck: true,
  hint: "Use short lower-case paths with hyphens between words (no underscores, spaces or double slashes); when changing URLs, redirect the old ones with 301.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ url }) => {
        const problems = urlProblems(url);
        return problems.length === 0 ? "pass" : { verdict: "fail", why: problems.join(", ") };
      },
      { problem: "URL with uppercase letters, underscores, spaces, double slashes or over 115 characters", none: "no HTML page answered 200" },
    );
  },
};
