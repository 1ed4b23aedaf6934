import type { Heading } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

/** The first break in a page's heading outline, or undefined. */
export function outlineBreak(headings: readonly Heading[]): string | undefined {
  const first = headings[0];
  // A page without any H1 is h1_present's failure; here only an H1 that comes late counts.
  if (first && first.level !== 1 && headings.some((h) => h.level === 1)) return `the first heading is h${first.level}, before the h1`;
  for (let i = 1; i < headings.length; i++) {
    const [prev, next] = [headings[i - 1] as Heading, headings[i] as Heading];
    if (next.level > prev.level + 1) return `h${prev.level} is followed by h${next.level}`;
  }
  return undefined;
}

export const headingsOrder: CheckDef = {
  code: "headings_order",
  title: "Headings go down one level at a time",
  group: "content",
  rankGroup: "content",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Start the outline with the <h1> and go down one level at a time (h2 under h1, h3 under h2); style headings with CSS, not by picking a smaller level.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.headings.length === 0) return "na";
        const why = outlineBreak(page.headings);
        return why === undefined ? "pass" : { verdict: "fail", why };
      },
      { problem: "a heading level skipped, or headings before the h1", none: "no page has headings" },
    );
  },
};
