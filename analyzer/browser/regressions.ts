// A regression between two checks of a site: a page measured in the same profile both times whose
// performance score fell by at least REGRESSION_POINTS, or whose LCP, TBT or CLS moved from a good or
// average band of Lighthouse's curve into a worse one. Pure: the scheduler turns each into an event.
import { DESKTOP_CONTROL_POINTS, MOBILE_CONTROL_POINTS } from "../lognormal.ts";
import type { BrowserPageReport } from "./performance.ts";

/** Score points a page must lose to count as a regression (Lighthouse's run-to-run noise is ~5). */
export const REGRESSION_POINTS = 10;

export interface PerformanceRegression {
  readonly device: "mobile" | "desktop";
  readonly url: string;
  readonly score_from: number | null;
  readonly score_to: number | null;
  /** What got worse, e.g. ["score 92 → 71", "lcp_ms 1900 → 4200"]. */
  readonly changes: string[];
}

type Band = 0 | 1 | 2;
const band = (value: number, p: { p10: number; median: number }): Band => (value <= p.p10 ? 0 : value <= p.median ? 1 : 2);

export function performanceRegressions(before: readonly BrowserPageReport[], after: readonly BrowserPageReport[]): PerformanceRegression[] {
  const earlier = new Map(before.filter((p) => !p.error).map((p) => [`${p.device} ${p.url}`, p]));
  const out: PerformanceRegression[] = [];
  for (const now of after) {
    const then = earlier.get(`${now.device} ${now.url}`);
    if (!then || now.error) continue;
    const changes: string[] = [];
    if (then.score !== null && now.score !== null && then.score - now.score >= REGRESSION_POINTS) changes.push(`score ${then.score} → ${now.score}`);
    const points = now.device === "desktop" ? DESKTOP_CONTROL_POINTS : MOBILE_CONTROL_POINTS;
    for (const [name, curve] of [["lcp_ms", points.lcp], ["tbt_ms", points.tbt], ["cls", points.cls]] as const) {
      const a = then[name];
      const b = now[name];
      if (a !== null && b !== null && band(b, curve) > band(a, curve)) changes.push(`${name} ${a} → ${b}`);
    }
    if (changes.length > 0) out.push({ device: now.device, url: now.url, score_from: then.score, score_to: now.score, changes });
  }
  return out;
}
