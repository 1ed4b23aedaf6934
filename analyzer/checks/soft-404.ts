import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

// Titles and main headings of error pages (en, ru). Anchored or phrased so that an article about
// 404 errors ("How to fix 404 errors") does not match.
const NOT_FOUND = [
  /^\s*(error\s*)?404\b/i,
  /\b404\s*[-:–—|]?\s*(error|not\s+found)\b/i,
  /\bpage\s+(was\s+)?not\s+found\b/i,
  /^\s*not\s+found\s*$/i,
  /\bpage\s+(does\s+not|doesn't)\s+exist\b/i,
  /^\s*(ошибка\s*)?404/i,
  /страница\s+не\s+найдена/i,
  /страница\s+не\s+существует/i,
];

/** The page's title or first H1 when it reads like a "not found" page, else undefined. */
export function notFoundText(title: string, h1: string): string | undefined {
  return [title, h1].find((t) => t !== "" && NOT_FOUND.some((re) => re.test(t)));
}

export const soft404: CheckDef = {
  code: "soft_404",
  title: "Error pages do not answer 200",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Serve \"page not found\" pages with status 404 (or 410), not 200, so search engines drop them instead of indexing an error page.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const h1 = page.headings.find((h) => h.level === 1)?.text ?? "";
        const text = notFoundText(page.title, h1);
        return text === undefined ? "pass" : { verdict: "fail", why: `answers 200 but reads "${text}"` };
      },
      { problem: "a \"not found\" page answering 200", none: "no HTML page answered 200" },
    );
  },
};
