import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const imgAltMissing: CheckDef = {
  code: "img_alt_missing",
  title: "Images have alt text",
  group: "content",
  rankGroup: "content",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: true,
  hint: 'Give every <img> an alt attribute describing it; use alt="" for purely decorative images.',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.images.length === 0) return "na";
        const missing = page.images.filter((img) => !img.hasAlt);
        return missing.length === 0 ? "pass" : { verdict: "fail", why: `${missing.length} of ${page.images.length} images without alt` };
      },
      { problem: "<img> without an alt attribute", none: "no page has images" },
    );
  },
};
