import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

// Pages this deep or deeper (path segments) sit inside a section: the trail above them is worth marking up.
const MIN_SEGMENTS = 2;

export const schemaBreadcrumbs: CheckDef = {
  code: "schema_breadcrumbs",
  title: "Inner pages mark up their breadcrumbs",
  group: "structured_data",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Add a BreadcrumbList (JSON-LD or microdata) to pages inside sections, e.g. Home › Blog › Post, so results show the trail instead of the bare URL.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, url, isHome }) => {
        const segments = (httpUrl(url)?.pathname ?? "/").split("/").filter(Boolean).length;
        if (isHome || segments < MIN_SEGMENTS) return "na";
        return page.schemaTypes.includes("BreadcrumbList") ? "pass" : { verdict: "fail", why: "no BreadcrumbList" };
      },
      { problem: "no BreadcrumbList on a page two or more levels deep", none: "no sampled page is two or more path levels deep" },
    );
  },
};
