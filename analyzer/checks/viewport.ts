import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages, type PageJudgement } from "./page-sample.ts";

const MIN_MAX_SCALE = 5;

/** Missing or without width=device-width → fail; zoom disabled or limited → warn (half failure). */
export function judgeViewport(content: string): PageJudgement {
  const props = new Map(
    content
      .toLowerCase()
      .split(/[,;]/)
      .map((part) => part.split("=").map((s) => s.trim()))
      .map(([key, value]) => [key ?? "", value ?? ""]),
  );
  if (props.get("width") !== "device-width") return { verdict: "fail", why: content ? `viewport "${content}"` : "no viewport meta" };
  const userScalable = props.get("user-scalable");
  if (userScalable === "no" || userScalable === "0") return { verdict: "warn", why: "zoom disabled (user-scalable=no)" };
  const maxScale = Number(props.get("maximum-scale") ?? MIN_MAX_SCALE);
  if (maxScale < MIN_MAX_SCALE) return { verdict: "warn", why: `zoom limited (maximum-scale=${maxScale})` };
  return "pass";
}

export const viewport: CheckDef = {
  code: "viewport",
  title: "Pages are mobile-friendly (viewport)",
  group: "mobile",
  rankGroup: "presentation",
  level: "bad",
  weight: 6,
  effort: 2,
  recheck: true,
  hint: 'Add `<meta name="viewport" content="width=device-width, initial-scale=1">` and do not disable zooming.',
  run(facts) {
    return aggregatePages(htmlPages(facts), ({ page }) => judgeViewport(page.metaViewport), {
      problem: "no width=device-width viewport, or zoom disabled",
      none: "no HTML page answered 200",
      warnLevel: "warn",
    });
  },
};
