import type { CheckDef } from "./check.ts";
import { isNoindex } from "./noindex.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

function normalise(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ");
}

export const descriptionDuplicate: CheckDef = {
  code: "description_duplicate",
  title: "Descriptions are unique",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  // A crawl check (scope C): judged on the pages this run saw, decided fully only by a crawl.
  recheck: false,
  hint: "Write a separate meta description for each indexable page that says what this page in particular offers.",
  run(facts) {
    const pages = htmlPages(facts).filter((p) => p.page.metaDescription.trim() && !isNoindex(p.page, facts.checkedAt));
    const candidates = pages.length >= 2 ? pages : [];
    const counts = new Map<string, number>();
    for (const p of candidates) counts.set(normalise(p.page.metaDescription), (counts.get(normalise(p.page.metaDescription)) ?? 0) + 1);
    return aggregatePages(candidates, ({ page }) => ((counts.get(normalise(page.metaDescription)) ?? 0) > 1 ? "fail" : "pass"), {
      problem: "description shared with another page",
      none: "fewer than two indexable pages with a description",
    });
  },
};
