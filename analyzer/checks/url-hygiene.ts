import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

// Screaming Frog's URL tab "over 115 characters".
const MAX_URL_CHARS = 115;

/** Problems of a URL's spelling that are a site's convention when every page shares them. */
const SCHEME_PROBLEMS = new Set(["uppercase letters", "underscores"]);
/** Pages with a path below the root needed before a spelling counts as the whole site's scheme. */
const MIN_SCHEME_PAGES = 3;

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

/**
 * Whether the site spells every page's path its own way (MediaWiki's and Wikipedia's
 * `/wiki/Main_Page`): every sampled page below the root has uppercase letters or underscores.
 * Renaming a whole site's URLs costs every link and ranking they hold for no gain, so such a
 * scheme is not a fault; a page that breaks the site's own convention is judged as usual.
 */
function siteScheme(urls: readonly string[]): boolean {
  const below = urls.filter((u) => (httpUrl(u)?.pathname ?? "/") !== "/");
  return below.length >= MIN_SCHEME_PAGES && below.every((u) => urlProblems(u).some((p) => SCHEME_PROBLEMS.has(p)));
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
  sampleOnly: "a URL's spelling is judged against the site's own scheme, which a crawl judging each page alone does not see",
  run(facts) {
    const pages = htmlPages(facts);
    const scheme = siteScheme(pages.map((p) => p.url));
    const outcome = aggregatePages(
      pages,
      ({ url }) => {
        const problems = urlProblems(url).filter((p) => !(scheme && SCHEME_PROBLEMS.has(p)));
        return problems.length === 0 ? "pass" : { verdict: "fail", why: problems.join(", ") };
      },
      { problem: "URL with uppercase letters, underscores, spaces, double slashes or over 115 characters", none: "no HTML page answered 200" },
    );
    if (!scheme) return outcome;
    return { ...outcome, detail: `${outcome.detail}; uppercase letters and underscores are the site's URL scheme on every sampled page, not counted` };
  },
};
