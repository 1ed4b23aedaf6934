import { levelShift, type LevelShift } from "./level-shift.ts";
import { unusualDays, weekdayFit, type UnusualDay } from "./unusual-days.ts";

// The 14-day traffic forecast (search-data-anchors §6.8): seasonal naive (m = 7) against additive
// damped Holt-Winters on log1p(clicks), chosen by a rolling-origin backtest over the last 8 origins
// by MASE; the range is the point moved by the 5th/95th percentile of the chosen model's log
// errors in the same week ahead, so it is asymmetric and never below zero. The 14 days start
// `lead` days after the series ends (today, when the data stops before it), and the backtest
// holds the models to the horizons actually forecast.

export const HORIZON = 14;
export const SEASON = 7;
export const MIN_DAYS = 28;
const ORIGINS = 8;
/** Fixed smoothing weights: stable on short daily series, and the same answer every refit. */
const HW = { alpha: 0.3, beta: 0.05, gamma: 0.2, phi: 0.98 } as const;

export type ModelName = "seasonal_naive" | "holt_winters";

interface Model {
  readonly name: ModelName;
  /** Forecasts h days after the end of y (log1p space in, log1p space out). */
  forecast(logY: readonly number[], h: number): number[];
}

/** ŷ(T+h) = y(T+h−7(k+1)), k = ⌊(h−1)/7⌋ (Hyndman & Athanasopoulos §5.2): the last observed week, repeated. */
const seasonalNaive: Model = {
  name: "seasonal_naive",
  forecast(logY, h) {
    const n = logY.length;
    return Array.from({ length: h }, (_, i) => logY[n - SEASON + (i % SEASON)] as number);
  },
};

const holtWinters: Model = {
  name: "holt_winters",
  forecast(logY, h) {
    const { alpha, beta, gamma, phi } = HW;
    const first = logY.slice(0, SEASON);
    const second = logY.slice(SEASON, 2 * SEASON);
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    let level = mean(first);
    let trend = (mean(second) - mean(first)) / SEASON;
    const season = first.map((v) => v - level);
    for (let t = SEASON; t < logY.length; t++) {
      const s = season[t % SEASON] as number;
      const prevLevel = level;
      level = alpha * ((logY[t] as number) - s) + (1 - alpha) * (prevLevel + phi * trend);
      trend = beta * (level - prevLevel) + (1 - beta) * phi * trend;
      season[t % SEASON] = gamma * ((logY[t] as number) - level) + (1 - gamma) * s;
    }
    const out: number[] = [];
    let damp = 0;
    for (let i = 1; i <= h; i++) {
      damp += phi ** i;
      out.push(level + damp * trend + (season[(logY.length + i - 1) % SEASON] as number));
    }
    return out;
  },
};

const MODELS: readonly Model[] = [seasonalNaive, holtWinters];

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (pos - lo);
}

export interface ForecastDay {
  /** Days after the last day of the series (lead … lead + 13). */
  readonly ahead: number;
  readonly clicks: number;
  readonly low: number;
  readonly high: number;
}

export interface Forecast {
  readonly model: ModelName;
  /** Each model's MASE over the backtest (lower is better; 1 = as good as last week repeated in-sample). */
  readonly mase: Readonly<Record<ModelName, number>>;
  readonly days: readonly ForecastDay[];
  /** Slope of the last four weekly totals as % of their mean, per week. */
  readonly trend_pct_week: number;
  readonly verdict: "growing" | "declining" | "flat";
  readonly unusual: readonly UnusualDay[];
  /** A sustained change of level: the days before it were moved to the new level before fitting. */
  readonly shift: LevelShift | null;
}

/** Days a forecast whose first day is `lead` days after the series needs: two seasons to start, and the horizon to test. */
export function daysNeeded(lead = 1): number {
  return Math.max(MIN_DAYS, 2 * SEASON + Math.max(1, lead) - 1 + HORIZON);
}

interface Prepared {
  readonly shift: LevelShift | null;
  readonly unusual: UnusualDay[];
  /** At the new level, unusual days at their weekday value: what the models fit. */
  readonly level: number[];
  /** As observed, unusual days at their weekday value: what the trend reads (a level change is a change). */
  readonly observed: number[];
}

/** Level shift first, then unusual days on the series at its new level (search-data-anchors §6.9). */
function prepare(y: readonly number[]): Prepared {
  const shift = levelShift(y);
  const moveBy = (i: number) => (shift !== null && i < shift.index ? shift.log : 0);
  const atLevel = y.map((v, i) => Math.expm1(Math.log1p(v) + moveBy(i)));
  const fit = weekdayFit(atLevel);
  // A day before the shift is unusual against its own level, and so is its expected value.
  const unusual = unusualDays(atLevel).map((u) => ({ ...u, expected: Math.round(Math.expm1((fit[u.index] as number) - moveBy(u.index))) }));
  const flagged = new Set(unusual.map((u) => u.index));
  const level = atLevel.map((v, i) => (flagged.has(i) ? Math.expm1(fit[i] as number) : v));
  const observed = level.map((v, i) => Math.expm1(Math.log1p(v) - moveBy(i)));
  return { shift, unusual, level, observed };
}

/** The slope of the last four weekly totals, %/week, and the verdict at ±5 % over the four weeks. */
function weeklyTrend(y: readonly number[]): { pct: number; verdict: Forecast["verdict"] } {
  // A daily regression would read the weekday pattern itself as a slope.
  const last = y.slice(-MIN_DAYS);
  const weeks = [0, 1, 2, 3].map((w) => last.slice(w * SEASON, (w + 1) * SEASON).reduce((a, b) => a + b, 0));
  const mean = weeks.reduce((a, b) => a + b, 0) / weeks.length;
  const slope = weeks.reduce((a, v, i) => a + (i - 1.5) * (v - mean), 0) / 5;
  const pct = mean === 0 ? 0 : Math.round((slope / mean) * 1000) / 10;
  const change28 = mean === 0 ? 0 : (slope * 4) / mean;
  return { pct, verdict: change28 > 0.05 ? "growing" : change28 < -0.05 ? "declining" : "flat" };
}

/** The trend and verdict of daily clicks y (oldest first, no gaps), with no forecast; null below 28 days. */
export function clicksTrend(y: readonly number[]): { trend_pct_week: number; verdict: Forecast["verdict"]; shift: LevelShift | null } | null {
  if (y.length < MIN_DAYS) return null;
  const p = prepare(y);
  const t = weeklyTrend(p.observed);
  return { trend_pct_week: t.pct, verdict: t.verdict, shift: p.shift };
}

/**
 * The forecast of daily clicks y (oldest first, no gaps) for the 14 days starting `lead` days after
 * its last day; null when y is too short for that horizon (daysNeeded).
 */
export function forecastClicks(y: readonly number[], lead = 1): Forecast | null {
  const first = Math.max(1, lead);
  const span = first - 1 + HORIZON;
  if (y.length < daysNeeded(first)) return null;
  const p = prepare(y);
  const clean = p.level;
  const logY = clean.map((v) => Math.log1p(Math.max(0, v)));
  const n = logY.length;
  // In-sample scale of MASE: the mean absolute seasonal difference.
  let scale = 0;
  for (let t = SEASON; t < n; t++) scale += Math.abs((clean[t] as number) - (clean[t - SEASON] as number));
  scale = scale / (n - SEASON) || 1;
  const origins: number[] = [];
  for (let k = 0; k < ORIGINS; k++) {
    const o = n - span - k;
    if (o >= 2 * SEASON) origins.push(o);
  }
  const mase = {} as Record<ModelName, number>;
  const errors = {} as Record<ModelName, number[][]>;
  for (const m of MODELS) {
    let abs = 0;
    let count = 0;
    const perH: number[][] = Array.from({ length: HORIZON }, () => []);
    for (const o of origins) {
      const f = m.forecast(logY.slice(0, o), span).slice(first - 1);
      f.forEach((lf, h) => {
        const actual = logY[o + first - 1 + h] as number;
        abs += Math.abs(Math.expm1(actual) - Math.expm1(lf));
        count++;
        (perH[h] as number[]).push(actual - lf);
      });
    }
    mase[m.name] = Math.round((abs / Math.max(1, count) / scale) * 1000) / 1000;
    errors[m.name] = perH;
  }
  // Ties go to the simpler seasonal naive.
  const chosen = MODELS.reduce((best, m) => (mase[m.name] < mase[best.name] ? m : best), seasonalNaive);
  const point = chosen.forecast(logY, span).slice(first - 1);
  const days = point.map((lf, h) => {
    // 8 origins give 8 errors per horizon, too few for a tail quantile: the horizons of the same
    // week ahead (whose seasonal-naive forecasts share their lag) pool theirs, and the cut is q05/q95.
    const week = Math.floor(h / SEASON);
    const e = errors[chosen.name].filter((_, i) => Math.floor(i / SEASON) === week).flat();
    const clicks = Math.max(0, Math.expm1(lf));
    return {
      ahead: first + h,
      clicks: Math.round(clicks),
      low: Math.max(0, Math.floor(Math.expm1(lf + Math.min(0, quantile(e, 0.05))))),
      high: Math.max(0, Math.ceil(Math.expm1(lf + Math.max(0, quantile(e, 0.95))))),
    };
  });
  const trend = weeklyTrend(p.observed);
  return { model: chosen.name, mase, days, trend_pct_week: trend.pct, verdict: trend.verdict, unusual: p.unusual, shift: p.shift };
}
