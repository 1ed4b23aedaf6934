import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass, warnTier } from "./check.ts";
import { sampledPages } from "./page-sample.ts";

const WARN_MS = 600;
const BAD_MS = 1800;

/** Nearest-rank 75th percentile, the statistic the catalogue uses for per-page measurements. */
function p75(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.75 * sorted.length) - 1)] ?? 0;
}

export const ttfb: CheckDef = {
  code: "ttfb",
  title: "Server responds quickly",
  group: "technical",
  rankGroup: "technical",
  level: "warn",
  weight: 3,
  effort: 3,
  recheck: true,
  hint: "Bring time to first byte under 600 ms: cache rendered pages, use a CDN, and profile slow database queries and plugins.",
  run(facts) {
    const measured = sampledPages(facts).filter((p) => p.page.response && p.page.response.status > 0 && p.page.response.ttfbMs > 0);
    if (measured.length === 0) return notApplicable("no page answered, nothing to time");
    // Two-tier check (seo-anchors §3.2): the site's 75th percentile decides, the slow pages are listed.
    const value = Math.round(p75(measured.map((p) => p.page.response?.ttfbMs ?? 0)));
    const slow = measured.filter((p) => (p.page.response?.ttfbMs ?? 0) > WARN_MS).map((p) => p.url);
    const detail = `75th percentile time to first byte ${value} ms over ${measured.length} page(s)`;
    if (value > BAD_MS) return fail(value, `${detail} (over ${BAD_MS} ms)`, { level: "bad", pages: slow });
    if (value > WARN_MS) return warnTier(value, `${detail} (over ${WARN_MS} ms)`, { pages: slow });
    return pass(value, detail);
  },
};
