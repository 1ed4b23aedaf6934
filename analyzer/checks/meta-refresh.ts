import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

// axe-core's meta-refresh rule (Lighthouse accessibility): a refresh sooner than 20 hours takes the
// page away from its reader (WCAG 2.2.1); a redirect by refresh is one search engines read as a
// weaker signal than an HTTP 301.
const LONGEST_ALLOWED_S = 72_000;

/** The delay (seconds) and target of a refresh meta's content, e.g. `5; url=/new`; null when it is not one. */
export function parseRefresh(content: string): { delayS: number; url: string } | null {
  const m = /^\s*(\d+(?:\.\d*)?)\s*(?:[;,]\s*(?:url\s*=\s*)?["']?([^"']*)["']?)?\s*$/i.exec(content);
  if (!m) return null;
  return { delayS: Number(m[1]), url: (m[2] ?? "").trim() };
}

export const metaRefresh: CheckDef = {
  code: "meta_refresh",
  title: "Pages do not refresh or redirect by meta tag",
  group: "technical",
  rankGroup: "technical",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Replace `<meta http-equiv="refresh">` redirects by a 301 on the server, and drop timed reloads (let the reader refresh).',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (!page.metaRefresh) return "pass";
        const refresh = parseRefresh(page.metaRefresh);
        if (refresh === null || refresh.delayS >= LONGEST_ALLOWED_S) return "pass";
        const why = refresh.url ? `redirects to ${refresh.url} after ${refresh.delayS} s` : `reloads itself every ${refresh.delayS} s`;
        return { verdict: "fail", why };
      },
      { problem: "a meta refresh within 20 hours", none: "no HTML page answered 200" },
    );
  },
};
