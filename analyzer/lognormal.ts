// Lighthouse's metric scoring (seo-anchors §1.1, §3.2), reproduced to the last bit so that a value
// scores here exactly as in Lighthouse 12.8.2 (shared/statistics.js getLogNormalScore and
// shared/util.js computeLogNormalScore).
//
// A metric x is placed on a log-normal curve fixed by two control points: p10 scores 0.9 and the
// median scores 0.5.
//
//   σ·√2 = ln(median / p10) / erfc⁻¹(1/5)             (erfc⁻¹(1/5) = 0.9061938024368232)
//   p(x) = ½ · erfc( ln(x / median) / (σ·√2) )
//        = ½ · (1 − erf( ln(x / median) · 0.9061938024368232 / ln(median / p10) ))
//        = 1 − Φ( ln(x / median) / σ )                 (Φ the standard normal CDF)
//
// erf is Abramowitz–Stegun 7.1.26, as Lighthouse computes it (|error| < 1.5e-7). p(x) is then
// clamped into its band — [0.9, 1] when x ≤ p10, [0.5, 0.9) when x ≤ median, [0, 0.5) above — and
// x ≤ 0 scores 1. The audit score Lighthouse reports adds a small boost above 0.9,
// p + 0.05·(p − 0.9), and floors to two decimals.

/** The two control points of a metric's curve. */
export interface LogNormalPoints {
  readonly p10: number;
  readonly median: number;
}

/** Mobile control points of Lighthouse 12.8.2 (core/audits/metrics/*.js), as seo-anchors §1.1 lists them. */
export const MOBILE_CONTROL_POINTS = Object.freeze({
  fcp: Object.freeze({ p10: 1800, median: 3000 }),
  lcp: Object.freeze({ p10: 2500, median: 4000 }),
  tbt: Object.freeze({ p10: 200, median: 600 }),
  cls: Object.freeze({ p10: 0.1, median: 0.25 }),
}) satisfies Record<string, LogNormalPoints>;

/** Desktop control points (Lighthouse's desktop preset); CLS is the same on both. */
export const DESKTOP_CONTROL_POINTS = Object.freeze({
  fcp: Object.freeze({ p10: 934, median: 1600 }),
  lcp: Object.freeze({ p10: 1200, median: 2400 }),
  tbt: Object.freeze({ p10: 150, median: 350 }),
  cls: Object.freeze({ p10: 0.1, median: 0.25 }),
}) satisfies Record<string, LogNormalPoints>;

// The exact doubles bounding each band (statistics.js).
const MIN_PASSING_SCORE = 0.9000000000000000222;
const MAX_AVERAGE_SCORE = 0.8999999999999999112;
const MIN_AVERAGE_SCORE = 0.5;
const MAX_FAILING_SCORE = 0.4999999999999999444;
/** erfc⁻¹(1/5), the closest double. */
const INVERSE_ERFC_ONE_FIFTH = 0.9061938024368232;

/** The Gauss error function, Abramowitz and Stegun formula 7.1.26 (Lighthouse's approximation). */
export function erf(x: number): number {
  const sign = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - y * Math.exp(-a * a));
}

/** The share of the log-normal distribution above `value`, clamped into its band (getLogNormalScore). */
export function logNormalScore(points: LogNormalPoints, value: number): number {
  const { p10, median } = points;
  if (!(median > 0) || !(p10 > 0) || p10 >= median) throw new RangeError(`control points need 0 < p10 < median, got p10 ${p10}, median ${median}`);
  if (value <= 0) return 1;
  const xLogRatio = Math.log(Math.max(Number.MIN_VALUE, value / median));
  const p10LogRatio = -Math.log(Math.max(Number.MIN_VALUE, p10 / median));
  const standardized = (xLogRatio * INVERSE_ERFC_ONE_FIFTH) / p10LogRatio;
  const complementary = (1 - erf(standardized)) / 2;
  if (value <= p10) return Math.max(MIN_PASSING_SCORE, Math.min(1, complementary));
  if (value <= median) return Math.max(MIN_AVERAGE_SCORE, Math.min(MAX_AVERAGE_SCORE, complementary));
  return Math.max(0, Math.min(MAX_FAILING_SCORE, complementary));
}

/** The score Lighthouse reports for a metric audit: the log-normal score, boosted above 0.9, floored to two decimals. */
export function metricScore(points: LogNormalPoints, value: number): number {
  let p = logNormalScore(points, value);
  if (p > 0.9) p += 0.05 * (p - 0.9);
  return Math.floor(p * 100) / 100;
}
