import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const imageDimensions: CheckDef = {
  code: "image_dimensions",
  title: "Images declare width and height",
  group: "performance",
  rankGroup: "performance",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Give every <img> `width` and `height` attributes (or a CSS aspect-ratio) so the layout does not shift while images load.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.images.length === 0) return "na";
        const unsized = page.images.filter((img) => img.width <= 0 || img.height <= 0);
        return unsized.length === 0 ? "pass" : { verdict: "fail", why: `${unsized.length} of ${page.images.length} images unsized` };
      },
      { problem: "<img> without width and height", none: "no page has images" },
    );
  },
};
