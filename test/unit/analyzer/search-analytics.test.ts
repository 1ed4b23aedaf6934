import { describe, expect, it } from "vitest";
import { cannibalization, ctrCurve, ctrOpportunities, dataState, daysNeeded, forecastClicks, freshDays30, levelShift, nearOpportunities, studyCtr, unusualDays } from "../../../analyzer/index.ts";

// The formulas of search-data-anchors §6, with figures computed by hand.

const study = ctrCurve([]);
const DAY = 86_400;

describe("expected CTR", () => {
  it("uses the study curve, falling 0.2 pp a place below 10 to a 0.5 % floor", () => {
    expect(study.source).toBe("study");
    expect([studyCtr(1), studyCtr(3), studyCtr(10), studyCtr(12), studyCtr(40)]).toEqual([0.285, 0.11, 0.025, 0.021, 0.005]);
  });
  it("uses the site's own CTR at a rank with at least 100 impressions", () => {
    const curve = ctrCurve([
      { clicks: 6, impressions: 120, position: 3.2 },
      { clicks: 4, impressions: 80, position: 2.8 },
      { clicks: 9, impressions: 99, position: 1 },
    ]);
    expect(curve.source).toBe("measured");
    expect(curve.at(3)).toBe(10 / 200);
    expect(curve.at(1)).toBe(0.285);
  });
});

describe("opportunities", () => {
  it("near: 1,000 impressions at position 8 with 20 clicks could gain 1000 × (11 % − 2 %) = 90", () => {
    const rows = [
      { engine: "google" as const, query: "near", clicks: 20, impressions: 1000, posXImpr: 8000 },
      { engine: "google" as const, query: "too-far", clicks: 1, impressions: 1000, posXImpr: 16_000 },
      { engine: "yandex" as const, query: "yandex-far", clicks: 1, impressions: 500, posXImpr: 9000 },
      { engine: "google" as const, query: "too-few", clicks: 0, impressions: 99, posXImpr: 99 * 6 },
    ];
    expect(nearOpportunities(rows, study).map((o) => [o.query, o.position, o.expected_gain_clicks])).toEqual([
      ["near", 8, 90],
      // Yandex reaches position 20: 500 × (0.11 − 0.002) = 54.
      ["yandex-far", 18, 54],
    ]);
  });
  it("ctr: 2,000 impressions at position 2 with 40 clicks gain 2000 × (15.7 % − 2 %) = 274", () => {
    const rows = [
      { engine: "google" as const, query: "weak-snippet", clicks: 40, impressions: 2000, posXImpr: 4000 },
      { engine: "google" as const, query: "fine", clicks: 300, impressions: 2000, posXImpr: 4000 },
      { engine: "google" as const, query: "small", clicks: 0, impressions: 499, posXImpr: 499 },
    ];
    expect(ctrOpportunities(rows, study).map((o) => [o.query, o.expected_gain_clicks])).toEqual([["weak-snippet", 274]]);
  });
  it("ctr: a query alone at its rank is judged against the curve without itself (leave-one-out)", () => {
    // "oak table" is the only query at rank 2: measured with itself, rank 2 would expect its own 12 %.
    // Without it rank 2 has no impressions, so the study's 15.7 %: 5000 × 3.7 pp = 185. "pine" shares
    // rank 1 with "oak": each is judged against the other's CTR, 600 × (25 % − 10 %) = 90 for pine.
    const rows = [
      { engine: "google" as const, query: "oak table", clicks: 600, impressions: 5000, posXImpr: 5000 * 2.1 },
      { engine: "google" as const, query: "pine", clicks: 60, impressions: 600, posXImpr: 600 },
      { engine: "google" as const, query: "oak", clicks: 250, impressions: 1000, posXImpr: 1000 },
    ];
    const curve = ctrCurve(rows.map((r) => ({ clicks: r.clicks, impressions: r.impressions, position: r.posXImpr / r.impressions })));
    expect(curve.at(2.1)).toBe(0.12);
    expect(ctrOpportunities(rows, curve).map((o) => [o.query, o.expected_gain_clicks])).toEqual([
      ["oak table", 185],
      ["pine", 90],
    ]);
  });
  it("cannibalization: two URLs over 10 % of a query; gain at the best position's CTR", () => {
    const rows = [
      { engine: "google" as const, query: "диван", page: "/a", clicks: 6, impressions: 300, posXImpr: 1500 },
      { engine: "google" as const, query: "диван", page: "/b", clicks: 1, impressions: 100, posXImpr: 900 },
      { engine: "google" as const, query: "диван", page: "/c", clicks: 0, impressions: 20, posXImpr: 600 },
      { engine: "google" as const, query: "one-page", page: "/a", clicks: 0, impressions: 500, posXImpr: 500 },
    ];
    const [o, ...rest] = cannibalization(rows, study);
    expect(rest).toEqual([]);
    // 420 × (7.2 % − 7/420) = 23.24; position (1500+900+600)/420 = 7.14.
    expect(o).toMatchObject({ kind: "cannibalization", query: "диван", impressions: 420, clicks: 7, position: 7.1, expected_gain_clicks: 23 });
    expect(o!.pages).toEqual([{ url: "/a", share: 0.714, position: 5 }, { url: "/b", share: 0.238, position: 9 }]);
  });
});

const WEEK = [100, 120, 130, 125, 110, 60, 50];

describe("forecast and unusual days", () => {
  it("finds exactly the planted drop and spike in a weekly series", () => {
    const y = Array.from({ length: 42 }, (_, t) => WEEK[t % 7]!);
    y[20] = 5;
    y[30] = 400;
    expect(unusualDays(y).map((u) => [u.index, u.direction, u.expected])).toEqual([[20, "drop", 50], [30, "spike", 130]]);
  });

  it("picks the seasonal model for a weekly pattern, and its range covers the held-out days", () => {
    const y = Array.from({ length: 70 }, (_, t) => Math.round(WEEK[t % 7]! * (1 + 0.04 * Math.sin(t * 1.7))));
    const f = forecastClicks(y.slice(0, 56))!;
    expect(f.model).toBe("seasonal_naive");
    expect(f.mase.seasonal_naive).toBeLessThan(f.mase.holt_winters);
    expect(f.days).toHaveLength(14);
    f.days.forEach((d, h) => {
      const actual = y[56 + h]!;
      expect(d.low).toBeLessThanOrEqual(actual);
      expect(d.high).toBeGreaterThanOrEqual(actual);
    });
    // Four whole weeks of the same pattern have no slope.
    const flat = forecastClicks(Array.from({ length: 28 }, (_, t) => WEEK[t % 7]!))!;
    expect([flat.trend_pct_week, flat.verdict]).toEqual([0, "flat"]);
  });

  it("holds the seasonal naive's backtest to a reference implementation: MASE 1.5 by hand, not 2.0", () => {
    // Four weeks, each 5 clicks a day above the one before. One origin (day 14): the reference
    // (Hyndman & Athanasopoulos §5.2, ŷ(T+h) = y(T+h−7(k+1)), k = ⌊(h−1)/7⌋) repeats week 2 for
    // both weeks ahead: errors 5 (week 3) and 10 (week 4), mean 7.5, over the in-sample scale
    // mean|y(t) − y(t−7)| = 5: 1.5. Reaching back to week 1 for the second week (lag 21) would give
    // errors 15 there and 2.0.
    const y = Array.from({ length: 28 }, (_, t) => WEEK[t % 7]! + 5 * Math.floor(t / 7));
    const reference = (series: number[], o: number, h: number) => series[o + h - 1 - 7 * (Math.floor((h - 1) / 7) + 1)]!;
    let abs = 0;
    for (let h = 1; h <= 14; h++) abs += Math.abs(y[14 + h - 1]! - reference(y, 14, h));
    expect(abs / 14 / 5).toBe(1.5);
    expect(forecastClicks(y)!.mase.seasonal_naive).toBe(1.5);
  });

  it("repeats the last observed week for both forecast weeks after a sustained 40 % fall", () => {
    // Six weeks of the weekly pattern; from day 32 every day at 60 % (10 days: a level, not outliers).
    const y = Array.from({ length: 42 }, (_, t) => (t >= 32 ? Math.round(WEEK[t % 7]! * 0.6) : WEEK[t % 7]!));
    const f = forecastClicks(y)!;
    expect(f.shift).toMatchObject({ index: 32, pct: -39.6 });
    expect(f.unusual).toEqual([]);
    expect(f.model).toBe("seasonal_naive");
    // Days 35…41 (weekdays 0…6) at 60 %: 60, 72, 78, 75, 66, 36, 30, twice.
    expect(f.days.map((d) => d.clicks)).toEqual([60, 72, 78, 75, 66, 36, 30, 60, 72, 78, 75, 66, 36, 30]);
    // The fall is the trend: the last four weekly totals 695, 695, 607, 417.
    expect(f.verdict).toBe("declining");
  });

  it("finds no level shift in a steady climb, a noisy weekly series or two outliers", () => {
    expect(levelShift(Array.from({ length: 42 }, (_, t) => 100 + 3 * t))).toBeNull();
    expect(levelShift(Array.from({ length: 70 }, (_, t) => Math.round(WEEK[t % 7]! * (1 + 0.1 * Math.sin(t * 2.3)))))).toBeNull();
    const y = Array.from({ length: 42 }, (_, t) => WEEK[t % 7]!);
    y[20] = 5;
    y[30] = 400;
    expect(levelShift(y)).toBeNull();
    // A fall of 5 days is not yet a level: its days stay unusual drops.
    const recent = Array.from({ length: 42 }, (_, t) => (t >= 37 ? Math.round(WEEK[t % 7]! * 0.4) : WEEK[t % 7]!));
    expect(levelShift(recent)).toBeNull();
    expect(unusualDays(recent).map((u) => u.index)).toEqual([37, 38, 39, 40, 41]);
  });

  it("starts the forecast lead days after the data, and asks for the days that horizon needs", () => {
    const y = Array.from({ length: 31 }, (_, t) => WEEK[t % 7]!);
    // Data ending 4 days before today: the first day forecast is 4 ahead (day 34, weekday 6).
    const f = forecastClicks(y, 4)!;
    expect(f.days.map((d) => d.ahead)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(f.days.map((d) => d.clicks).slice(0, 7)).toEqual([50, 100, 120, 130, 125, 110, 60]);
    expect(daysNeeded(4)).toBe(31);
    expect(forecastClicks(y.slice(1), 4)).toBeNull();
  });

  it("needs 28 days; a growing series says growing", () => {
    expect(forecastClicks(Array.from({ length: 27 }, () => 10))).toBeNull();
    const f = forecastClicks(Array.from({ length: 42 }, (_, t) => 100 + 3 * t))!;
    // Weekly totals of the last 28 days rise by 3 × 49 = 147 on a mean week of 7 × 182.5 = 1277.5: 11.5 %/week.
    expect(f.trend_pct_week).toBe(11.5);
    expect(f.verdict).toBe("growing");
  });
});

describe("provider freshness", () => {
  const now = 100 * DAY;
  it("is fresh within slo_days, stale to 3 × slo_days, expired beyond; missing without data", () => {
    expect(dataState("gsc", now - 4 * DAY, false, now)).toBe("fresh");
    expect(dataState("gsc", now - 4 * DAY, true, now)).toBe("partial");
    expect(dataState("gsc", now - 5 * DAY, false, now)).toBe("stale");
    expect(dataState("gsc", now - 12 * DAY, false, now)).toBe("stale");
    expect(dataState("gsc", now - 13 * DAY, false, now)).toBe("expired");
    expect(dataState("gsc", null, false, now)).toBe("missing");
  });
  it("counts the days of the last 30 the data known then was fresh", () => {
    // Imported 3 days ago with data until 4 days ago: fresh on days 0–3 (ages 4…1). Before that the
    // import of 10 days ago (data until 12 days ago) is what was known: ages 2, 3, 4 on days 10, 9, 8
    // are fresh, ages 5…8 on days 7…4 are not, and before day 10 nothing was known: 4 + 3 = 7.
    expect(freshDays30([{ importedAt: now - 10 * DAY, dataUntil: now - 12 * DAY }, { importedAt: now - 3 * DAY, dataUntil: now - 4 * DAY }], "gsc", now)).toBe(7);
  });
});
