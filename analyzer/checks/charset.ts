import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const charset: CheckDef = {
  code: "charset",
  title: "Character encoding is declared",
  group: "technical",
  rankGroup: "technical",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: 'Declare the encoding: `Content-Type: text/html; charset=utf-8` or `<meta charset="utf-8">` at the top of <head>.',
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.response?.charset || page.metaCharset ? "pass" : "fail"), {
      problem: "no charset in Content-Type or <meta charset>",
      none: "no HTML page answered 200",
    });
  },
};
