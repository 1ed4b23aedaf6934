import type { MetaTag } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { httpUrl } from "./response.ts";

// Facebook's sharing guide: images smaller than 200×200 px are not shown.
const MIN_EDGE_PX = 200;

function content(tags: readonly MetaTag[], key: string): string {
  return tags.find((m) => m.key === key)?.content.trim() ?? "";
}

/** What is wrong with a page's og:image declaration, or undefined. */
export function ogImageProblem(tags: readonly MetaTag[]): string | undefined {
  const image = content(tags, "og:image") || content(tags, "og:image:url");
  // Crawlers of social networks do not resolve relative URLs against the page.
  if (!httpUrl(image)) return `og:image "${image}" is not an absolute http(s) URL`;
  const secure = content(tags, "og:image:secure_url");
  if (secure && httpUrl(secure)?.protocol !== "https:") return `og:image:secure_url "${secure}" is not an https URL`;
  const [width, height] = [content(tags, "og:image:width"), content(tags, "og:image:height")];
  // Only declared sizes are known: the image itself is not fetched.
  const small = [width, height].some((v) => v !== "" && Number.isFinite(Number(v)) && Number(v) < MIN_EDGE_PX);
  if (small) return `og:image declared ${width || "?"}×${height || "?"} px, under ${MIN_EDGE_PX}×${MIN_EDGE_PX}`;
  return undefined;
}

export const ogImage: CheckDef = {
  code: "og_image",
  title: "og:image is an absolute URL of a large enough image",
  group: "social",
  rankGroup: "presentation",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Point og:image to an absolute https:// URL of an image at least 200×200 px (1200×630 is best for link cards), and declare og:image:width and og:image:height.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        // A missing og:image is og_required's failure.
        if (!content(page.openGraph, "og:image") && !content(page.openGraph, "og:image:url")) return "na";
        const why = ogImageProblem(page.openGraph);
        return why === undefined ? "pass" : { verdict: "fail", why };
      },
      { problem: "og:image relative, not https where required, or declared under 200×200 px", none: "no page declares og:image" },
    );
  },
};
