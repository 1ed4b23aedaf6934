// Metric checks (seo-anchors §2.5, metric block M): one Core Web Vital of the home page's browser
// run, scored on Lighthouse's mobile log-normal curve (analyzer/lognormal.ts). Status follows
// Lighthouse's bands: pass at a score ≥ 0.9, warn ≥ 0.5, fail below; not applicable without a
// browser run. The detail states the run's throttling: by default Lighthouse's mobile DevTools
// throttling (slow 4G, 4x CPU), which the mobile curve was drawn for; an unthrottled run
// (SVC_BROWSER_THROTTLING=provided) is judged on the same curve and looks faster than PageSpeed
// Insights would show it.
import type { BrowserMetrics, SiteFacts } from "../../proto/index.ts";
import { describeThrottling, runThrottling } from "../browser/performance.ts";
import { metricScore, type LogNormalPoints } from "../lognormal.ts";
import { notApplicable, type CheckOutcome } from "./check.ts";

export interface MetricSpec {
  /** As the detail names it, e.g. "Largest Contentful Paint". */
  readonly name: string;
  readonly points: LogNormalPoints;
  readonly read: (metrics: BrowserMetrics) => number | undefined;
  /** "ms", or "" for unitless CLS. */
  readonly unit: "ms" | "";
}

/** The warn band's task level (the check's own level, bad, is the fail band's). */
const WARN_LEVEL = "warn";

export function metricOutcome(facts: SiteFacts, spec: MetricSpec): CheckOutcome {
  const b = facts.browser;
  if (!b) return notApplicable("no browser metrics in this run (SVC_BROWSER off, no browser installed, or a synchronous check)");
  if (b.error) return notApplicable(`the browser could not measure the home page: ${b.error}`);
  const value = spec.read(b);
  if (value === undefined) return notApplicable(`the home page showed no ${spec.name} in the browser run`);
  const score = metricScore(spec.points, value);
  const shown = spec.unit === "ms" ? Math.round(value) : Number(value.toFixed(3));
  const detail = `${spec.name} ${shown}${spec.unit === "ms" ? " ms" : ""} on the home page (${b.viewport}, ${describeThrottling(runThrottling(b))}); score ${score.toFixed(2)} on Lighthouse's mobile curve (p10 ${spec.points.p10}, median ${spec.points.median})`;
  if (score >= 0.9) return { status: "pass", score, value: shown, detail, pages: [] };
  const pages = b.url ? [b.url] : [];
  if (score >= 0.5) return { status: "warn", score, value: shown, detail, pages, level: WARN_LEVEL };
  return { status: "fail", score, value: shown, detail, pages };
}
