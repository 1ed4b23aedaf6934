import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const mixedContent: CheckDef = {
  code: "mixed_content",
  title: "No mixed content on HTTPS pages",
  group: "security",
  rankGroup: "security",
  level: "bad",
  weight: 6,
  effort: 2,
  recheck: true,
  hint: "Load every script, stylesheet, frame and image of HTTPS pages over https:// (or protocol-relative URLs).",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page, url }) => {
        if (!url.startsWith("https://")) return "na";
        const first = page.mixedContent[0];
        return first === undefined ? "pass" : { verdict: "fail", why: `${page.mixedContent.length} http:// resource(s), e.g. ${first}` };
      },
      { problem: "http:// subresources on an https page", none: "no HTML page is served over HTTPS" },
    );
  },
};
