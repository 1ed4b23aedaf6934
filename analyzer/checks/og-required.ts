import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

const REQUIRED = ["og:title", "og:type", "og:url", "og:image"];

export const ogRequired: CheckDef = {
  code: "og_required",
  title: "Open Graph tags are present",
  group: "social",
  rankGroup: "presentation",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Add og:title, og:type, og:url and og:image meta tags so links to the page show a proper card when shared.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const present = new Set(page.openGraph.filter((m) => m.content.trim()).map((m) => m.key));
        const missing = REQUIRED.filter((key) => !present.has(key));
        return missing.length === 0 ? "pass" : { verdict: "fail", why: `missing ${missing.join(", ")}` };
      },
      { problem: "required Open Graph tags missing", none: "no HTML page answered 200" },
    );
  },
};
