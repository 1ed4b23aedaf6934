import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const canonicalPresent: CheckDef = {
  code: "canonical_present",
  title: "Pages declare a canonical URL",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Add `<link rel="canonical" href="…">` with the absolute preferred URL to the <head> of every page.',
  run(facts) {
    // Conflicting duplicates are canonical_valid's concern; this check asks only whether one is declared.
    return aggregatePages(htmlPages(facts), (p) => (p.page.canonicals.length > 0 || p.page.canonicalHeader ? "pass" : "fail"), {
      problem: "no canonical link",
      none: "no HTML page answered 200",
    });
  },
};
