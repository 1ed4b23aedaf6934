import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

// SEOnaut and Screaming Frog: alt text over 100 characters.
const MAX_ALT_CHARS = 100;

export const imgAltLong: CheckDef = {
  code: "img_alt_long",
  title: "Alt texts are at most 100 characters",
  group: "content",
  rankGroup: "content",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Keep alt text to a short description of the image (at most 100 characters); put longer explanations in a caption or the page text.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const described = page.images.filter((img) => img.hasAlt && img.alt.trim());
        if (described.length === 0) return "na";
        // Characters are code points: Cyrillic counts one per letter, like Latin.
        const long = described.filter((img) => [...img.alt.trim()].length > MAX_ALT_CHARS);
        return long.length === 0 ? "pass" : { verdict: "fail", why: `${long.length} alt text(s) over ${MAX_ALT_CHARS} characters, e.g. ${long[0]?.src}` };
      },
      { problem: "alt text over 100 characters", none: "no page has images with alt text" },
    );
  },
};
