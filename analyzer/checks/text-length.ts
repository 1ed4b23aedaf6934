import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

const MIN_WORDS = 200;

export const textLength: CheckDef = {
  code: "text_length",
  title: "Pages have enough text",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: true,
  hint: "Give content pages at least 200 words of their own text, or merge thin pages into fuller ones.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, isHome }) => {
        // The catalogue skips the home page (a listing/navigation page by nature).
        if (isHome) return "na";
        return page.wordCount >= MIN_WORDS ? "pass" : { verdict: "fail", why: `${page.wordCount} words` };
      },
      { problem: "fewer than 200 words of text", none: "no inner page was sampled" },
    );
  },
};
