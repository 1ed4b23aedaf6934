import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

const MIN_CHARS = 80;
const MAX_CHARS = 160;

export const descriptionLength: CheckDef = {
  code: "description_length",
  title: "Descriptions are 80–160 characters",
  group: "content",
  rankGroup: "content",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Write meta descriptions of 80–160 characters: longer ones are cut off in results, shorter ones are often replaced by text from the page.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const text = page.metaDescription.trim();
        // A missing description is description_present's failure.
        if (!text) return "na";
        const chars = [...text].length;
        if (chars >= MIN_CHARS && chars <= MAX_CHARS) return "pass";
        return { verdict: "fail", why: `${chars} characters` };
      },
      { problem: "description shorter than 80 or longer than 160 characters", none: "no page has a description" },
    );
  },
};
