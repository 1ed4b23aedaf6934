import { describe, expect, it } from "vitest";
import { UsageMeter } from "../../gateway/index.ts";
import type { UsageDay, UsageDelta, UsageSeries } from "../../storage/index.ts";

/** The time-series port failing on demand: a storage outage cannot be caused for real here. */
class FlakySeries implements UsageSeries {
  readonly written: UsageDelta[] = [];
  failNext = false;
  async add(deltas: readonly UsageDelta[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error("time series unavailable");
    }
    this.written.push(...deltas);
  }
  async read(): Promise<UsageDay[]> {
    return [];
  }
}

const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);

describe("UsageMeter", () => {
  it("aggregates per key and UTC day and writes on flush", async () => {
    const series = new FlakySeries();
    const meter = new UsageMeter(series);
    meter.record(1, day("2026-11-22"), "ok");
    meter.record(1, day("2026-11-22"), "error");
    meter.record(1, day("2026-11-22"), "limited");
    meter.record(2, day("2026-11-22"), "ok");
    meter.record(1, Date.parse("2026-11-23T00:00:01Z"), "ok");
    await meter.flush();
    expect(series.written).toEqual([
      { keyId: 1, day: "2026-11-22", calls: 3, errors: 1, limited: 1 },
      { keyId: 2, day: "2026-11-22", calls: 1, errors: 0, limited: 0 },
      { keyId: 1, day: "2026-11-23", calls: 1, errors: 0, limited: 0 },
    ]);
    await meter.flush();
    expect(series.written).toHaveLength(3);
  });

  it("keeps the counts of a failed flush for the next one", async () => {
    const series = new FlakySeries();
    const meter = new UsageMeter(series);
    meter.record(7, day("2026-11-22"), "ok");
    series.failNext = true;
    await expect(meter.flush()).rejects.toThrow("time series unavailable");
    meter.record(7, day("2026-11-22"), "error");
    await meter.flush();
    expect(series.written).toEqual([{ keyId: 7, day: "2026-11-22", calls: 2, errors: 1, limited: 0 }]);
  });

  it("flushes what is pending when closed", async () => {
    const series = new FlakySeries();
    const meter = new UsageMeter(series);
    meter.start(60_000);
    meter.record(3, day("2026-11-22"), "ok");
    await meter.close();
    expect(series.written).toEqual([{ keyId: 3, day: "2026-11-22", calls: 1, errors: 0, limited: 0 }]);
  });
});
