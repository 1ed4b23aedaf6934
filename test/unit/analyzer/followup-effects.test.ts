import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECKS, EFFECT_METRICS, measureEffect, metricsFor, VERDICTS_LEGEND, type EffectInput, type EffectMetric, type SeriesPoint } from "../../../analyzer/index.ts";

const DAY = 86400;
/** done_at of every case: 2027-01-15 00:00:00 UTC. */
const D = Date.UTC(2027, 0, 15) / 1000;
const metric = (id: string): EffectMetric => EFFECT_METRICS.find((m) => m.id === id) as EffectMetric;
const pts = (start: number, values: readonly number[]): SeriesPoint[] => values.map((v, i) => ({ t: start + i * DAY, v }));

// LCP before the fix, one a day from D−6d: median 3000, MAD 50 → band max(100, 3 × 1.4826 × 50) = 222.39.
const LCP_BEFORE = pts(D - 6 * DAY, [3000, 3100, 2900, 3050, 2950, 3000]);
const lcp = (after: readonly number[], extra: SeriesPoint[] = []): EffectInput => ({
  taskId: 7,
  host: "example.test",
  title: "Main content appears quickly (LCP)",
  doneAt: D,
  metric: metric("lcp_ms"),
  metricName: "lcp_ms",
  // lcp_ms waits 2 days: the after-window opens at D+2d.
  series: [...LCP_BEFORE, ...extra, ...pts(D + 2 * DAY + 3600, after)],
});

describe("measureEffect", () => {
  it("improved: LCP fell by more than its noise band", () => {
    const e = measureEffect(lcp([2400, 2500, 2450]), D + 10 * DAY);
    expect(e).toMatchObject({ verdict: "improved", before: 3000, after: 2450, changePct: -18.3, band: 222.39, metric: "lcp_ms", task: "Main content appears quickly (LCP)", doneAt: D, waitUntil: null });
    expect(e.note).toBe("Largest Contentful Paint median 3000 ms → 2450 ms (-18.3%); noise band ±222.39 ms from 6 measurement(s) before the fix, 3 after a 2-day wait");
  });

  it("worse: LCP rose by more than the band", () => {
    expect(measureEffect(lcp([3600, 3500, 3700]), D + 10 * DAY)).toMatchObject({ verdict: "worse", before: 3000, after: 3600, changePct: 20 });
  });

  it("flat: a change inside the band (the line's own wobble) is no effect", () => {
    expect(measureEffect(lcp([3150, 2850, 3100]), D + 10 * DAY)).toMatchObject({ verdict: "flat", before: 3000, after: 3100, changePct: 3.3, band: 222.39 });
  });

  it("the band comes from the metric's own history: a wobbling rank group needs more than its wobble", () => {
    // Group score 78..82 before the fix: median 80, MAD 1 → band 3 × 1.4826 = 4.448 (above the floor of 1).
    const before = pts(D - 6 * DAY, [80, 82, 78, 80, 81, 79]);
    const group = (after: number): EffectInput => ({ taskId: 1, host: "h.test", title: "t", doneAt: D, metric: metric("rank_group"), metricName: "rank_group.content", series: [...before, { t: D + DAY + 60, v: after }] });
    expect(measureEffect(group(83), D + 2 * DAY)).toMatchObject({ verdict: "flat", before: 80, after: 83, band: 4.448, metric: "rank_group.content" });
    expect(measureEffect(group(90), D + 2 * DAY)).toMatchObject({ verdict: "improved", after: 90, changePct: 12.5 });
    expect(measureEffect(group(70), D + 2 * DAY)).toMatchObject({ verdict: "worse", after: 70, changePct: -12.5 });
  });

  it("a steady line gets the metric's floor as its band", () => {
    const steady = pts(D - 5 * DAY, [50, 50, 50, 50]);
    const e = measureEffect({ taskId: 1, host: "h.test", title: "t", doneAt: D, metric: metric("rank_group"), metricName: "rank_group.meta", series: [...steady, { t: D + DAY, v: 51 }] }, D + 2 * DAY);
    expect(e).toMatchObject({ verdict: "flat", band: 1, before: 50, after: 51 });
  });

  it("improved when a lower-is-better metric falls past its band: search position 12.0 → 9.2", () => {
    // Before: median 12.0, MAD 0.2 → band 3 × 1.4826 × 0.2 = 0.89 (above the floor of 0.5).
    const series = [...pts(D - 7 * DAY, [12.0, 12.4, 11.8, 12.2, 11.6, 12.0, 12.1]), ...pts(D + 14 * DAY, [9.0, 9.5, 9.2, 9.1, 9.4, 9.3, 9.0])];
    const input: EffectInput = { taskId: 3, host: "h.test", title: "t", doneAt: D, metric: metric("position"), metricName: "position", series };
    expect(measureEffect(input, D + 21 * DAY)).toMatchObject({ verdict: "improved", before: 12, after: 9.2, changePct: -23.3, band: 0.89 });
    // Six days after the wait: one day short of the seven it needs.
    expect(measureEffect({ ...input, series: series.slice(0, 13) }, D + 20 * DAY)).toMatchObject({ verdict: "wait", after: null });
  });

  it("wait: until the metric's waiting period has passed, with the day it ends", () => {
    const e = measureEffect(lcp([2400]), D + DAY);
    expect(e).toMatchObject({ verdict: "wait", before: 3000, after: null, changePct: null, waitUntil: D + 2 * DAY });
    expect(e.note).toBe("Largest Contentful Paint: judged from 2027-01-17, after a 2-day wait");
  });

  it("wait: the after-window is open but has too few measurements yet", () => {
    // Clicks need 7 daily points after a 14-day wait; 3 so far.
    const clicks: EffectInput = { taskId: 2, host: "h.test", title: "t", doneAt: D, metric: metric("clicks"), metricName: "clicks", series: [...pts(D - 10 * DAY, [10, 11, 9, 10]), ...pts(D + 14 * DAY, [20, 21, 22])] };
    expect(measureEffect(clicks, D + 17 * DAY)).toMatchObject({ verdict: "wait", waitUntil: null, note: "Search clicks per day: 3 of 7 measurements after the wait so far" });
    // Once the window is over with still 3: nodata.
    expect(measureEffect(clicks, D + 40 * DAY).verdict).toBe("nodata");
  });

  it("nodata: no series, nothing before the fix, nothing after the window", () => {
    expect(measureEffect({ ...lcp([]), series: null }, D + 10 * DAY)).toMatchObject({ verdict: "nodata", before: null, after: null, band: null, note: "Largest Contentful Paint: no measurements for this site" });
    expect(measureEffect({ ...lcp([]), series: pts(D + 3 * DAY, [2000]) }, D + 10 * DAY)).toMatchObject({ verdict: "nodata", before: null, note: "Largest Contentful Paint: no measurement in the 7 days before the fix" });
    // Measurements minutes before the fix exist but are left out by the 1-hour guard: the note says so.
    expect(measureEffect({ ...lcp([]), series: [{ t: D - 180, v: 2400 }, { t: D - 120, v: 2300 }] }, D + 10 * DAY)).toMatchObject({
      verdict: "nodata",
      before: null,
      note: "Largest Contentful Paint: no measurement in the 7 days before the fix outside its last hour, which is left out (2 measurement(s) there: the check that closed the task may already have seen the fix)",
    });
    expect(measureEffect(lcp([]), D + 10 * DAY)).toMatchObject({ verdict: "nodata", before: 3000, after: null });
  });

  it("leaves the hour before done_at out of the before-window (the closing check saw the fix) and old points too", () => {
    const e = measureEffect(lcp([2400], [{ t: D - 1800, v: 100 }, { t: D - 30 * DAY, v: 9000 }]), D + 10 * DAY);
    expect(e).toMatchObject({ before: 3000, band: 222.39, verdict: "improved" });
  });
});

describe("the metric table", () => {
  it("measures a task by its own metric first and falls back to its rank group", () => {
    expect(metricsFor("lcp").map((m) => m.id)).toEqual(["lcp_ms", "rank_group"]);
    expect(metricsFor("description_present").map((m) => m.id)).toEqual(["clicks", "rank_group"]);
    expect(metricsFor("h1_present").map((m) => m.id)).toEqual(["position", "rank_group"]);
    expect(metricsFor("hsts").map((m) => m.id)).toEqual(["rank_group"]);
  });

  it("names only checks that exist", () => {
    const codes = new Set(CHECKS.map((c) => c.code));
    const named = EFFECT_METRICS.flatMap((m) => (m.codes === "any" ? [] : [...m.codes, ...(m.check ? [m.check] : [])]));
    expect(named.filter((c) => !codes.has(c))).toEqual([]);
  });

  it("is documented in docs/followup.md with each metric's wait and window", () => {
    const doc = readFileSync(new URL("../../../docs/followup.md", import.meta.url), "utf8");
    for (const m of EFFECT_METRICS) expect(doc).toContain(`| \`${m.id}\` | ${m.waitDays} | ${m.windowDays} | ${m.minAfter} |`);
    expect(doc).toContain(VERDICTS_LEGEND);
  });
});
