// The pure parts of the browser metrics: CLS session windows and TBT clipping, as Lighthouse
// computes them (computed/metrics/cumulative-layout-shift.js, lantern TBTUtils.js).
import { describe, expect, it } from "vitest";
import { cumulativeLayoutShift, totalBlockingTime } from "../../../crawler/index.ts";

describe("cumulative layout shift", () => {
  it("is the largest session window: gaps over 1 s or windows over 5 s start a new one", () => {
    const shifts = [
      { t: 1000, v: 0.05, input: false },
      { t: 1800, v: 0.05, input: false }, // same window: 0.10
      { t: 3000, v: 0.08, input: false }, // gap 1.2 s: new window
      { t: 3900, v: 0.04, input: false }, // 0.12
      { t: 4800, v: 0.01, input: false }, // 0.13
    ];
    expect(cumulativeLayoutShift(shifts)).toBeCloseTo(0.13, 10);
    const long = Array.from({ length: 7 }, (_, i) => ({ t: 1000 + i * 900, v: 0.01, input: false })); // 0 … 5.4 s
    expect(cumulativeLayoutShift(long)).toBeCloseTo(0.06, 10); // the 7th shift is past 5 s from the first
  });

  it("ignores shifts after input, but not the emulation's flag in the first 500 ms before an unflagged shift", () => {
    expect(cumulativeLayoutShift([{ t: 300, v: 0.1, input: true }])).toBeCloseTo(0.1, 10);
    expect(cumulativeLayoutShift([{ t: 600, v: 0.1, input: true }])).toBe(0);
    expect(cumulativeLayoutShift([{ t: 100, v: 0.02, input: false }, { t: 300, v: 0.1, input: true }])).toBeCloseTo(0.02, 10);
    expect(cumulativeLayoutShift([])).toBe(0);
  });
});

describe("total blocking time", () => {
  it("sums the part of each long task over 50 ms, after FCP", () => {
    expect(totalBlockingTime([{ t: 500, d: 300 }, { t: 900, d: 40 }, { t: 1000, d: 120 }], 100)).toBe(250 + 70);
  });

  it("clips a task that straddles FCP to the part after it", () => {
    expect(totalBlockingTime([{ t: 0, d: 200 }], 100)).toBe(50); // [100, 200] → 100 ms → 50 blocking
    expect(totalBlockingTime([{ t: 0, d: 140 }], 100)).toBe(0); // 40 ms after FCP
    expect(totalBlockingTime([{ t: 0, d: 90 }], 100)).toBe(0);
  });
});
