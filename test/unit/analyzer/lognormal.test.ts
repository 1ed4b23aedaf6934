// Lighthouse's metric scoring, held against values Lighthouse 12.8.2 itself computes
// (shared/statistics.js getLogNormalScore, shared/util.js computeLogNormalScore, run on each value
// below with bench:lighthouse-seo's install).
import { describe, expect, it } from "vitest";
import { CHECKS, DESKTOP_CONTROL_POINTS as DESKTOP, erf, logNormalScore, metricScore, MOBILE_CONTROL_POINTS as MOBILE } from "../../../analyzer/index.ts";
import { fastBrowserRun } from "./cases/browser.ts";
import { healthySite } from "./site-builder.ts";

describe("the log-normal curve", () => {
  it("scores 0.9 at p10 and 0.5 at the median, 1 at zero or below", () => {
    for (const points of [...Object.values(MOBILE), ...Object.values(DESKTOP)]) {
      expect(logNormalScore(points, points.p10)).toBeCloseTo(0.9, 6);
      expect(logNormalScore(points, points.median)).toBe(0.5);
      expect(logNormalScore(points, 0)).toBe(1);
      expect(logNormalScore(points, -5)).toBe(1);
    }
  });

  it.each([
    // metric, value, curve, Lighthouse's getLogNormalScore
    ["lcp", 3200, MOBILE, 0.7285528832299233],
    ["lcp", 6000, MOBILE, 0.13445521990743464],
    ["lcp", 1000, DESKTOP, 0.9472380348050303],
    ["cls", 0.15, MOBILE, 0.7625274308900016],
    ["cls", 0.3, MOBILE, 0.3993614634680348],
    ["tbt", 450, MOBILE, 0.6314085650211376],
    ["tbt", 250, DESKTOP, 0.6945957295823673],
    ["fcp", 1500, MOBILE, 0.9589788862470383],
    ["fcp", 1000, DESKTOP, 0.8684282178668599],
  ] as const)("%s %d (%#) gives Lighthouse's percentile", (metric, value, curve, expected) => {
    expect(logNormalScore(curve[metric], value)).toBe(expected);
  });

  it("keeps each value in its band even where the approximation would cross it", () => {
    expect(logNormalScore(MOBILE.lcp, 2500.0001)).toBeLessThan(0.9);
    expect(logNormalScore(MOBILE.lcp, 4000.0001)).toBeLessThan(0.5);
    expect(logNormalScore(MOBILE.lcp, 1e9)).toBe(0);
  });

  it("refuses control points that do not make a curve", () => {
    expect(() => logNormalScore({ p10: 4000, median: 2500 }, 3000)).toThrow(RangeError);
    expect(() => logNormalScore({ p10: 0, median: 2500 }, 3000)).toThrow(RangeError);
  });

  it("uses Lighthouse's erf (Abramowitz–Stegun 7.1.26): odd, and within 1.5e-7 of the true values", () => {
    expect(erf(0)).toBe(0);
    expect(erf(-0.5)).toBe(-erf(0.5));
    expect(Math.abs(erf(0.5) - 0.5204998778130465)).toBeLessThan(1.5e-7);
    expect(Math.abs(erf(1) - 0.8427007929497149)).toBeLessThan(1.5e-7);
  });
});

describe("the audit score Lighthouse reports", () => {
  it.each([
    // metric, value, curve, Lighthouse's computeLogNormalScore
    ["lcp", 3200, MOBILE, 0.72], // percentile 0.7286, floored (seo-anchors rounds it to 0.73)
    ["lcp", 2500, MOBILE, 0.9],
    ["lcp", 4000, MOBILE, 0.5],
    ["lcp", 1300, MOBILE, 1], // 0.9989 boosted past 1 − 0.005
    ["lcp", 1300, DESKTOP, 0.87],
    ["cls", 0.0851, MOBILE, 0.93],
    ["cls", 0.05, MOBILE, 0.99],
    ["cls", 0.15, MOBILE, 0.76],
    ["tbt", 100, MOBILE, 0.98],
    ["tbt", 450, MOBILE, 0.63],
    ["tbt", 450, DESKTOP, 0.35],
    ["fcp", 1500, MOBILE, 0.96],
    ["fcp", 1500, DESKTOP, 0.56],
    ["fcp", 88, DESKTOP, 1],
  ] as const)("%s %d (%#) scores %d", (metric, value, curve, expected) => {
    expect(metricScore(curve[metric], value)).toBe(expected);
  });
});

describe("the metric checks", () => {
  const lcpCheck = () => CHECKS.find((c) => c.code === "lcp")!;

  it("are not applicable without a browser run, or when the browser could not measure the page", () => {
    expect(lcpCheck().run(healthySite()).status).toBe("na");
    const failed = lcpCheck().run(healthySite((f) => void (f.browser = fastBrowserRun({ error: "page.goto: Timeout 30000ms exceeded", lcpMs: undefined }))));
    expect({ status: failed.status, detail: failed.detail }).toEqual({ status: "na", detail: "the browser could not measure the home page: page.goto: Timeout 30000ms exceeded" });
    const blank = lcpCheck().run(healthySite((f) => void (f.browser = fastBrowserRun({ lcpMs: undefined }))));
    expect(blank.status).toBe("na");
  });

  it("score with Lighthouse's audit score and open a warn-level task in the 0.5–0.9 band, a bad one below", () => {
    const warn = lcpCheck().run(healthySite((f) => void (f.browser = fastBrowserRun({ lcpMs: 3200 }))));
    expect({ status: warn.status, score: warn.score, level: warn.level, pages: warn.pages }).toEqual({ status: "warn", score: 0.72, level: "warn", pages: ["https://example.com/"] });
    const bad = lcpCheck().run(healthySite((f) => void (f.browser = fastBrowserRun({ lcpMs: 4001 }))));
    expect({ status: bad.status, score: bad.score, level: bad.level }).toEqual({ status: "fail", score: 0.49, level: undefined });
    const edge = lcpCheck().run(healthySite((f) => void (f.browser = fastBrowserRun({ lcpMs: 2500 }))));
    expect({ status: edge.status, score: edge.score }).toEqual({ status: "pass", score: 0.9 });
  });
});
