import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

// Without a browser run there is no savings estimate (the catalogue's > 100 ms). Synchronous head
// scripts always block; one or two stylesheets are normal critical CSS, so styles count from the third.
const MAX_STYLES = 2;

export const renderBlocking: CheckDef = {
  code: "render_blocking",
  title: "No render-blocking resources",
  group: "performance",
  rankGroup: "performance",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Add `defer` (or `async`/`type=module`) to scripts in <head>, and inline critical CSS or merge stylesheets into one or two files.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const scripts = page.renderBlockingScripts;
        const styles = page.renderBlockingStyles;
        if (scripts === 0 && styles <= MAX_STYLES) return "pass";
        return { verdict: "fail", why: `${scripts} blocking script(s), ${styles} stylesheet(s) in <head>` };
      },
      { problem: "render-blocking scripts or stylesheets in <head>", none: "no HTML page answered 200" },
    );
  },
};
