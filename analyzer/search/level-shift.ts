import { median, weekdayFit } from "./unusual-days.ts";

// A sustained change of level in daily clicks (a migration, a penalty, a lost market) is a change,
// not a run of unusual days: it is found first, on log1p(clicks) less the weekday pattern, and the
// days before it are moved to the new level before unusual days are looked for and a model is fit
// (the level-shift outliers of X-13's regARIMA, in their simplest form).

/** The new level must last at least a week to count as a level, not a few odd days. */
export const SHIFT_MIN_DAYS = 7;
/** Smallest shift in log1p space that counts (≈ 16 %): smaller ones read as noise or season. */
export const SHIFT_MIN_LOG = 0.15;
/** The shift must exceed the spread of the days around their own segment's level this many times. */
export const SHIFT_MIN_Z = 5;

export interface LevelShift {
  /** Index of the first day at the new level. */
  readonly index: number;
  /** The change in log1p(clicks): after − before. */
  readonly log: number;
  /** The change as a percentage of the old level. */
  readonly pct: number;
}

const mad = (xs: readonly number[]) => {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
};

/**
 * Residuals of log1p(y) against the weekday medians of y with the days before `split` moved by
 * `log` to the level after it: the shift itself stays in the residuals, the weekday pattern does not.
 */
function residuals(y: readonly number[], split: number, log: number): number[] {
  const fit = weekdayFit(y.map((v, i) => (i < split ? Math.expm1(Math.log1p(v) + log) : v)));
  return y.map((v, i) => Math.log1p(v) - (fit[i] as number));
}

/**
 * The split that best cuts the residuals in two levels (least absolute deviation from each side's
 * median), each side at least a week long; null when the series has no sustained shift.
 */
export function levelShift(y: readonly number[]): LevelShift | null {
  const n = y.length;
  if (n < 2 * SHIFT_MIN_DAYS) return null;
  let r = residuals(y, 0, 0);
  let best: { index: number; log: number } | null = null;
  // Two passes: the weekday medians of the first are blurred by the shift itself.
  for (let pass = 0; pass < 2; pass++) {
    let cost = Infinity;
    let found: { index: number; log: number } | null = null;
    for (let c = SHIFT_MIN_DAYS; c <= n - SHIFT_MIN_DAYS; c++) {
      const before = r.slice(0, c);
      const after = r.slice(c);
      const mb = median(before);
      const ma = median(after);
      const cst = before.reduce((a, x) => a + Math.abs(x - mb), 0) + after.reduce((a, x) => a + Math.abs(x - ma), 0);
      if (cst < cost - 1e-12) {
        cost = cst;
        found = { index: c, log: ma - mb };
      }
    }
    if (found === null) return null;
    best = found;
    r = residuals(y, best.index, best.log);
  }
  if (best === null || Math.abs(best.log) < SHIFT_MIN_LOG) return null;
  // The spread of each side around its own level: a ramp leaves a wide one, a step a narrow one.
  const before = r.slice(0, best.index);
  const after = r.slice(best.index);
  const spread = (1.4826 * (mad(before) * before.length + mad(after) * after.length)) / n;
  if (Math.abs(best.log) < SHIFT_MIN_Z * spread) return null;
  // Sustained: most days after the split sit on the new side of the halfway mark.
  const mb = median(before);
  const onNewSide = after.filter((x) => (best.log < 0 ? x - mb < best.log / 2 : x - mb > best.log / 2)).length;
  if (onNewSide < 0.8 * after.length) return null;
  return { index: best.index, log: best.log, pct: Math.round(Math.expm1(best.log) * 1000) / 10 };
}
