import type { CheckDef } from "./check.ts";
import { duplicateText } from "./duplicate-text.ts";

export const descriptionDuplicate: CheckDef = {
  code: "description_duplicate",
  title: "Descriptions are unique",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  // A crawl check (scope C): decided by the latest whole-site crawl, else judged on the pages this run saw.
  recheck: false,
  hint: "Write a separate meta description for each indexable page that says what this page in particular offers.",
  run(facts) {
    return duplicateText(facts, (page) => page.metaDescription, (c) => ({ count: c.duplicateDescriptions, samples: c.duplicateDescription }), { problem: "description shared with another page", none: "fewer than two indexable pages with a description", quote: false });
  },
};
