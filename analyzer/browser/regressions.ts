// A regression between two checks of a site: a page measured in the same profile and with the same
// throttling method both times (a change of SVC_BROWSER_THROTTLING is no regression) whose
// performance score fell by at least REGRESSION_POINTS, or one of whose browser metrics (FCP, LCP,
// TBT, CLS, INP) got worse beyond both of its thresholds in METRIC_REGRESSION: a relative one (run
// to run noise is proportional on a slow page) and an absolute one (a 40 → 60 ms FCP is +50 % and
// means nothing), and ended past the metric's good threshold (Lighthouse's p10 control point of the
// profile; INP's 200 ms): a page that got slower but stays good is noise to its owner. Pure: the
// scheduler turns each into an event, GET /changes lists them.
import { DESKTOP_CONTROL_POINTS, MOBILE_CONTROL_POINTS } from "../lognormal.ts";
import { throttlingOf, type BrowserPageReport } from "./performance.ts";

/** Score points a page must lose to count as a regression (Lighthouse's run-to-run noise is ~5). */
export const REGRESSION_POINTS = 10;

export type RegressedMetric = "score" | "fcp_ms" | "lcp_ms" | "tbt_ms" | "cls" | "inp_ms";

/** How much worse a metric must get to count: both `relative` (a fraction of the earlier value) and `absolute` (in its unit). */
export const METRIC_REGRESSION: Readonly<Record<Exclude<RegressedMetric, "score">, { readonly relative: number; readonly absolute: number }>> = Object.freeze({
  fcp_ms: { relative: 0.2, absolute: 200 },
  lcp_ms: { relative: 0.2, absolute: 300 },
  tbt_ms: { relative: 0.2, absolute: 200 },
  cls: { relative: 0.2, absolute: 0.05 },
  inp_ms: { relative: 0.2, absolute: 100 },
});

/** One metric of one page and profile that got worse. */
export interface MetricRegression {
  readonly metric: RegressedMetric;
  readonly from: number;
  readonly to: number;
}

export interface PerformanceRegression {
  readonly device: "mobile" | "desktop";
  readonly url: string;
  readonly score_from: number | null;
  readonly score_to: number | null;
  /** What got worse, in the order of RegressedMetric. */
  readonly metrics: MetricRegression[];
  /** The same as text, e.g. ["score 92 → 71", "lcp_ms 1900 → 4200"]. */
  readonly changes: string[];
}

/** INP's good threshold (web.dev; Lighthouse's navigation mode scores no INP). */
const INP_GOOD_MS = 200;

/** The value up to which a metric is good in the profile. */
export function goodUpTo(metric: keyof typeof METRIC_REGRESSION, device: "mobile" | "desktop"): number {
  if (metric === "inp_ms") return INP_GOOD_MS;
  const points = device === "desktop" ? DESKTOP_CONTROL_POINTS : MOBILE_CONTROL_POINTS;
  return points[({ fcp_ms: "fcp", lcp_ms: "lcp", tbt_ms: "tbt", cls: "cls" } as const)[metric]].p10;
}

/** True when `to` is worse than `from` beyond both thresholds of the metric, and no longer good. */
export function regressed(metric: keyof typeof METRIC_REGRESSION, device: "mobile" | "desktop", from: number, to: number): boolean {
  const t = METRIC_REGRESSION[metric];
  const delta = to - from;
  // A tiny epsilon: 0.05 + 0.1 is 0.15000000000000002 in binary.
  return delta >= t.absolute - 1e-9 && delta >= t.relative * from - 1e-9 && to > goodUpTo(metric, device);
}

export function performanceRegressions(before: readonly BrowserPageReport[], after: readonly BrowserPageReport[]): PerformanceRegression[] {
  const earlier = new Map(before.filter((p) => !p.error).map((p) => [`${p.device} ${p.url}`, p]));
  const out: PerformanceRegression[] = [];
  for (const now of after) {
    const then = earlier.get(`${now.device} ${now.url}`);
    if (!then || now.error || throttlingOf(then).method !== throttlingOf(now).method) continue;
    const metrics: MetricRegression[] = [];
    if (then.score !== null && now.score !== null && then.score - now.score >= REGRESSION_POINTS) metrics.push({ metric: "score", from: then.score, to: now.score });
    for (const name of Object.keys(METRIC_REGRESSION) as (keyof typeof METRIC_REGRESSION)[]) {
      const a = then[name];
      const b = now[name];
      if (a !== null && b !== null && regressed(name, now.device, a, b)) metrics.push({ metric: name, from: a, to: b });
    }
    if (metrics.length > 0) out.push({ device: now.device, url: now.url, score_from: then.score, score_to: now.score, metrics, changes: metrics.map((m) => `${m.metric} ${m.from} → ${m.to}`) });
  }
  return out;
}
