import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const emptyAnchorText: CheckDef = {
  code: "empty_anchor_text",
  title: "Links have text or a label",
  group: "links",
  rankGroup: "links",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Give every link words: visible text, alt text on its image, or an aria-label for icon links, so search engines and screen readers know where it leads.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.unnamedLinks > 0) return { verdict: "fail", why: `${page.unnamedLinks} link(s) without text, e.g. ${page.unnamedLinkExamples[0] ?? ""}` };
        return page.links.length === 0 ? "na" : "pass";
      },
      { problem: "links without text, image alt, aria-label or title", none: "no page has links" },
    );
  },
};
