import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const httpInternalLinks: CheckDef = {
  code: "http_internal_links",
  title: "HTTPS pages link to the site over HTTPS",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Change links to your own pages from http:// to https:// (or to relative links), so no click passes through an unencrypted redirect.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, url }) => {
        if (!url.startsWith("https://")) return "na";
        const internal = page.links.filter((l) => l.internal);
        if (internal.length === 0) return "na";
        const plain = internal.filter((l) => l.href.startsWith("http://"));
        return plain.length === 0 ? "pass" : { verdict: "fail", why: `${plain.length} http:// link(s), e.g. ${plain[0]?.href}` };
      },
      { problem: "internal links to http://", none: "no HTTPS page has internal links" },
    );
  },
};
