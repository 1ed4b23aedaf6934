import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const metaInBody: CheckDef = {
  code: "meta_in_body",
  title: "Head tags are not placed in the body",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Move the robots and description meta tags and `<link rel=canonical>` into `<head>`: after `<body>` search engines may ignore them.",
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => (page.metaInBody ? "fail" : "pass"), {
      problem: "robots, description or canonical tag after <body>",
      none: "no HTML page answered 200",
    });
  },
};
