import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const pictureNoImg: CheckDef = {
  code: "picture_no_img",
  title: "Every <picture> has a fallback <img>",
  group: "content",
  rankGroup: "content",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Put an <img src=… alt=…> as the last child of every <picture>: without it the browser shows nothing and search engines see no image.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => (page.picturesWithoutImg === 0 ? "pass" : { verdict: "fail", why: `${page.picturesWithoutImg} <picture> without <img>` }),
      { problem: "<picture> without an <img> inside", none: "no HTML page answered 200" },
    );
  },
};
