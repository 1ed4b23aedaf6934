import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

const MIN_CHARS = 20;
const MAX_CHARS = 60;

export const titleLength: CheckDef = {
  code: "title_length",
  title: "Titles are 20–60 characters",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: true,
  hint: "Write titles of 20–60 characters: long ones are cut off in search results, short ones say too little.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const title = page.title.trim();
        // An empty title is title_present's failure.
        if (!title) return "na";
        const chars = [...title].length;
        if (chars >= MIN_CHARS && chars <= MAX_CHARS) return "pass";
        return { verdict: "fail", why: `${chars} characters` };
      },
      { problem: "title shorter than 20 or longer than 60 characters", none: "no page has a title" },
    );
  },
};
