import type { CheckDef } from "./check.ts";
import { duplicateText } from "./duplicate-text.ts";

export const titleDuplicate: CheckDef = {
  code: "title_duplicate",
  title: "Titles are unique",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  // A crawl check (scope C): decided by the latest whole-site crawl, else judged on the pages this run saw.
  recheck: false,
  hint: "Give each indexable page its own title that names what is different about it.",
  run(facts) {
    return duplicateText(facts, (page) => page.title, (c) => ({ count: c.duplicateTitles, samples: c.duplicateTitle }), { problem: "title shared with another page", none: "fewer than two indexable pages with a title", quote: true });
  },
};
