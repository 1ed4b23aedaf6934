import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const duplicateIds: CheckDef = {
  code: "duplicate_ids",
  title: "Element ids are unique",
  group: "technical",
  rankGroup: "technical",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Give every `id` attribute on a page a unique value; repeated ids break anchors, labels and scripts.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => (page.duplicateIds.length > 0 ? { verdict: "fail", why: page.duplicateIds.slice(0, 3).map((id) => `#${id}`).join(", ") } : "pass"),
      { problem: "repeated id values", none: "no HTML page answered 200" },
    );
  },
};
