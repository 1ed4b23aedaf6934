import type { CheckDef } from "./check.ts";
import { isNoindex } from "./noindex.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

function normalise(title: string): string {
  return title.trim().toLowerCase().replace(/\s+/g, " ");
}

export const titleDuplicate: CheckDef = {
  code: "title_duplicate",
  title: "Titles are unique",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  // A crawl check (scope C): judged on the pages this run saw, decided fully only by a crawl.
  recheck: false,
  hint: "Give each indexable page its own title that names what is different about it.",
  run(facts) {
    const pages = htmlPages(facts).filter((p) => p.page.title.trim() && !isNoindex(p.page, facts.checkedAt));
    // Duplicates need at least two pages to compare.
    const candidates = pages.length >= 2 ? pages : [];
    const counts = new Map<string, number>();
    for (const p of candidates) counts.set(normalise(p.page.title), (counts.get(normalise(p.page.title)) ?? 0) + 1);
    return aggregatePages(
      candidates,
      ({ page }) => ((counts.get(normalise(page.title)) ?? 0) > 1 ? { verdict: "fail", why: `"${page.title.trim()}"` } : "pass"),
      { problem: "title shared with another page", none: "fewer than two indexable pages with a title" },
    );
  },
};
