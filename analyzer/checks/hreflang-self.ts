import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

export const hreflangSelf: CheckDef = {
  code: "hreflang_self",
  title: "hreflang sets include the page itself",
  group: "international",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "List the page itself among its hreflang alternates, with its own language code, next to the other language versions.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, url }) => {
        if (page.hreflang.length === 0) return "na";
        const self = httpUrl(url)?.href;
        // x-default pointing here is not the page listing itself under its own language.
        const own = page.hreflang.find((a) => a.hreflang.trim().toLowerCase() !== "x-default" && httpUrl(a.href)?.href === self);
        return own ? "pass" : { verdict: "fail", why: "no language alternate points to the page itself" };
      },
      { problem: "hreflang set without a self-reference", none: "no page has hreflang annotations" },
    );
  },
};
