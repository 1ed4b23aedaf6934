import type { EffectMetric } from "./metrics.ts";

export type EffectVerdict = "improved" | "worse" | "flat" | "wait" | "nodata";

/** One measurement of a metric: when (Unix seconds) and its value. */
export interface SeriesPoint {
  readonly t: number;
  readonly v: number;
}

/** A done task and the series of the metric chosen for it (null: the metric has no series at all). */
export interface EffectInput {
  readonly taskId: number;
  readonly host: string;
  readonly title: string;
  readonly doneAt: number;
  readonly metric: EffectMetric;
  /** The name shown (a rank group's metric names its group: rank_group.content). */
  readonly metricName: string;
  readonly series: readonly SeriesPoint[] | null;
}

export interface FixEffect {
  readonly taskId: number;
  readonly host: string;
  readonly task: string;
  readonly doneAt: number;
  readonly metric: string;
  readonly verdict: EffectVerdict;
  /** Median of the before-window; null without a point there. */
  readonly before: number | null;
  /** Median of the after-window; null until it has its points. */
  readonly after: number | null;
  /** (after − before) / |before| × 100, one decimal; null while either is missing or before is 0. */
  readonly changePct: number | null;
  /** Half-width of the noise band the change was judged against; null without a before-window. */
  readonly band: number | null;
  /** When the verdict can come (end of the wait), for `wait`; null otherwise. */
  readonly waitUntil: number | null;
  readonly note: string;
}

export const DAY_S = 86400;
/**
 * Measurements in the hour before done_at are left out of the before-window: the check that closed
 * the task ran then, and it already saw the fix.
 */
export const GUARD_S = 3600;
/** 1.4826 × MAD estimates a normal distribution's standard deviation robustly (outliers barely move it). */
export const MAD_SCALE = 1.4826;

export const VERDICTS_LEGEND =
  "improved: the metric moved the good way by more than its noise band; worse: it moved the bad way by more than the band; " +
  "flat: the change stays within the band (the metric's own wobble before the fix); wait: the metric's waiting period after the fix has not passed, or its after-window has too few measurements yet; " +
  "nodata: the metric has no measurements before the fix, or none in its after-window.";

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Median absolute deviation from the median. */
export function mad(values: readonly number[]): number {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m)));
}

/** Half-width of the noise band of a metric from its before-window. */
export function noiseBand(metric: EffectMetric, before: readonly number[]): number {
  return Math.max(metric.floor, metric.k * MAD_SCALE * mad(before));
}

const round = (x: number, digits = 3) => Number(x.toFixed(digits));

function fmt(x: number, metric: EffectMetric): string {
  return `${round(x)}${metric.unit === "" ? "" : metric.unit === "%" ? "%" : ` ${metric.unit}`}`;
}

function isoDay(t: number): string {
  return new Date(t * 1000).toISOString().slice(0, 10);
}

/** The verdict of one done task's fix at `now` (Unix seconds). Pure: the same input gives the same row. */
export function measureEffect(input: EffectInput, now: number): FixEffect {
  const { metric, doneAt } = input;
  const base = { taskId: input.taskId, host: input.host, task: input.title, doneAt, metric: input.metricName };
  const empty = { before: null, after: null, changePct: null, band: null, waitUntil: null };
  const window = metric.windowDays * DAY_S;
  const afterFrom = doneAt + metric.waitDays * DAY_S;
  const afterTo = afterFrom + window;
  if (!input.series || input.series.length === 0) {
    return { ...base, ...empty, verdict: "nodata", note: `${metric.title}: no measurements for this site` };
  }
  const beforePts = input.series.filter((p) => p.t >= doneAt - window && p.t < doneAt - GUARD_S).map((p) => p.v);
  if (beforePts.length === 0) {
    // Measurements of the last hour before the fix exist but are left out (GUARD_S): say so, or the
    // note contradicts the history the user sees.
    const guarded = input.series.filter((p) => p.t >= doneAt - GUARD_S && p.t < doneAt).length;
    const why =
      guarded > 0
        ? `no measurement in the ${metric.windowDays} days before the fix outside its last hour, which is left out (${guarded} measurement(s) there: the check that closed the task may already have seen the fix)`
        : `no measurement in the ${metric.windowDays} days before the fix`;
    return { ...base, ...empty, verdict: "nodata", note: `${metric.title}: ${why}` };
  }
  const before = round(median(beforePts));
  const band = round(noiseBand(metric, beforePts));
  const withBefore = { ...empty, before, band };
  if (now < afterFrom) {
    return { ...base, ...withBefore, verdict: "wait", waitUntil: afterFrom, note: `${metric.title}: judged from ${isoDay(afterFrom)}, after a ${metric.waitDays}-day wait` };
  }
  const afterPts = input.series.filter((p) => p.t >= afterFrom && p.t < afterTo && p.t <= now).map((p) => p.v);
  if (afterPts.length < metric.minAfter) {
    if (now < afterTo) {
      const need = `${afterPts.length} of ${metric.minAfter} measurement${metric.minAfter === 1 ? "" : "s"}`;
      return { ...base, ...withBefore, verdict: "wait", waitUntil: null, note: `${metric.title}: ${need} after the wait so far` };
    }
    return { ...base, ...withBefore, verdict: "nodata", note: `${metric.title}: ${afterPts.length} measurement(s) between ${isoDay(afterFrom)} and ${isoDay(afterTo)}, ${metric.minAfter} needed` };
  }
  const after = round(median(afterPts));
  const diff = after - before;
  const changePct = before === 0 ? null : round((diff / Math.abs(before)) * 100, 1);
  const good = metric.better === "higher" ? diff > 0 : diff < 0;
  const verdict: EffectVerdict = Math.abs(diff) <= band ? "flat" : good ? "improved" : "worse";
  const pct = changePct === null ? "" : ` (${changePct > 0 ? "+" : ""}${changePct}%)`;
  const note =
    `${metric.title} median ${fmt(before, metric)} → ${fmt(after, metric)}${pct}; noise band ±${fmt(band, metric)} ` +
    `from ${beforePts.length} measurement(s) before the fix, ${afterPts.length} after a ${metric.waitDays}-day wait`;
  return { ...base, ...withBefore, after, changePct, verdict, note };
}

/** The effects of many done tasks, in the order given. */
export function measureEffects(inputs: readonly EffectInput[], now: number): FixEffect[] {
  return inputs.map((i) => measureEffect(i, now));
}
