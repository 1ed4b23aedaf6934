import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const doctype: CheckDef = {
  code: "doctype",
  title: "Pages start with <!DOCTYPE html>",
  group: "technical",
  rankGroup: "technical",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Start every HTML document with `<!DOCTYPE html>` so browsers do not render it in quirks mode.",
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.hasDoctype ? "pass" : "fail"), {
      problem: "no <!DOCTYPE html> (quirks mode)",
      none: "no HTML page answered 200",
    });
  },
};
