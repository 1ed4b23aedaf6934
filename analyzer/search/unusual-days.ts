// Unusual days (search-data-anchors §6.9): residuals of log1p(clicks) against the median of the
// same weekday, scored by the robust z 0.6745·(r − median)/MAD; |z| > 3.5 (Iglewicz–Hoaglin).

export const UNUSUAL_Z = 3.5;
/**
 * The least spread of log1p(clicks) the z is measured against: on an almost regular series (a
 * level moved in log space, rounding) the MAD is near 0 and a day 1 % off would score as unusual.
 * With it, a day must be more than 3.5 × 0.05 (≈ 19 %) off its weekday's value.
 */
export const UNUSUAL_MIN_SCALE = 0.05;

export interface UnusualDay {
  /** Index into the series. */
  readonly index: number;
  /** The clicks the weekday pattern expected that day. */
  readonly expected: number;
  readonly z: number;
  readonly direction: "drop" | "spike";
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The weekday-median fit of log1p(y): index i shares its fit with every 7th neighbour. */
export function weekdayFit(y: readonly number[]): number[] {
  const logs = y.map((v) => Math.log1p(v));
  const byDay = Array.from({ length: 7 }, (_, d) => median(logs.filter((_, i) => i % 7 === d)));
  return logs.map((_, i) => byDay[i % 7] as number);
}

/** Days whose robust z exceeds 3.5, with their sign. */
export function unusualDays(y: readonly number[]): UnusualDay[] {
  if (y.length < 14) return [];
  const fit = weekdayFit(y);
  const r = y.map((v, i) => Math.log1p(v) - (fit[i] as number));
  const med = median(r);
  const dev = r.map((x) => Math.abs(x - med));
  let scale = median(dev) / 0.6745;
  // A perfectly regular series has MAD 0: the mean absolute deviation (×1.2533 for a normal) stands in.
  if (scale === 0) scale = (dev.reduce((a, b) => a + b, 0) / dev.length) * 1.2533;
  scale = Math.max(scale, UNUSUAL_MIN_SCALE);
  const out: UnusualDay[] = [];
  r.forEach((x, i) => {
    const z = (x - med) / scale;
    if (Math.abs(z) > UNUSUAL_Z) out.push({ index: i, expected: Math.round(Math.expm1(fit[i] as number)), z: Math.round(z * 10) / 10, direction: z < 0 ? "drop" : "spike" });
  });
  return out;
}
