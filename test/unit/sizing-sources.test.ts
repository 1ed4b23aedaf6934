import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readBenchOutput, writeBenchOutput } from "../bench/bench-output.ts";
import { measuredUnits } from "../bench/sizing/measured-units.ts";
import { size, type Units } from "../bench/sizing/model.ts";

// npm run sizing takes its unit costs from the benches' JSON outputs, not from units.json's constants.

const DEFAULTS: Units = {
  workload: { uptime_interval_s: 300, analyses_per_site_per_day: 1, crawls_per_site_per_week: 1, pages_per_analysis: 20, pages_per_crawl: 500, checks_per_run: 100, confirm_fraction: 0, analysis_confirm_fraction: 0.05 },
  cpu_ms: { probe: 3, analysed_page: 10, crawled_page: 2, browser_analysis: 1000 },
  wall_s: { probe: 0.5, analysis: 10, crawled_page: 0.3, analysis_confirmed: 70 },
  bytes_per_row: {
    postgres: { uptime_probe: 300, check_result: 250, crawl_page: 3000, run: 10_000, job: 200 },
    clickhouse: { uptime_probe: 30, check_result: 10, crawl_page: 500 },
  },
  kafka_bytes: { stream_item: 100, stream_result: 150, work_item: 150 },
  capacity: { crawler_cores: 2, crawler_cpu_target: 0.5, job_slots: 2, stream_slots: 128, partitions: 16, partition_bytes_per_s: 1_000_000, postgres_rows_per_s: 5000 },
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function outputsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-out-"));
  dirs.push(dir);
  return dir;
}

describe("sizing from the benches' outputs", () => {
  it("uses every figure a bench wrote and says where it came from", () => {
    const dir = outputsDir();
    writeBenchOutput({ bench: "crawl-scale", mode: "full", figures: { crawler_cpu_ms_per_page: 4.6, cpu_ms_per_page: 9 } }, dir);
    writeBenchOutput({ bench: "analyze", mode: "full", figures: { cpu_ms_per_page: 35 } }, dir);
    writeBenchOutput({ bench: "uptime", mode: "full", figures: { cpu_ms_per_probe: 2.5, job_slot_s_without_confirm_delay: 31.5, job_slot_s_with_confirm_delay: 95 } }, dir);
    writeBenchOutput({ bench: "browser", mode: "full", figures: { browser_cpu_ms_per_analysis: 7600, analysis_cpu_ms_without_browser: 950 } }, dir);

    const { units, sources } = measuredUnits(DEFAULTS, (bench) => readBenchOutput(bench, dir));

    expect(units.cpu_ms).toEqual({ probe: 2.5, analysed_page: 35, crawled_page: 4.6, browser_analysis: 7600 });
    expect(units.wall_s).toEqual({ probe: 0.5, analysis: 31.5, crawled_page: 0.3, analysis_confirmed: 95 });
    expect(sources.every((s) => s.measured)).toBe(true);
    expect(sources.find((s) => s.unit === "cpu_ms.crawled_page")?.from).toMatch(/^bench:crawl-scale crawler_cpu_ms_per_page \(full run \d{4}-\d{2}-\d{2}, commit /);

    // 864,000 sites: 2,880 probes, 10 analyses (200 pages), 5000/7 crawled pages a second.
    // CPU: 2880 × 2.5 + 200 × 35 + 10 × 7600 + 714.29 × 4.6 ms a second = 7200 + 7000 + 76000 + 3285.71.
    expect(size(864_000, units).crawler.cores).toBeCloseTo(93.48571, 4);
    // Job slots: 10 analyses a second hold theirs 0.95 × 31.5 + 0.05 × 95 = 34.675 s; 5000/7 crawled pages 0.3 s each.
    expect(size(864_000, units).crawler.job_slots_busy).toBeCloseTo(346.75 + 214.28571, 4);
  });

  it("takes Chromium's CPU and the job-slot times from bench:browser and bench:uptime, each named as measured, over units.json's", () => {
    const dir = outputsDir();
    writeBenchOutput({ bench: "uptime", mode: "full", figures: { job_slot_s_without_confirm_delay: 31.5, job_slot_s_with_confirm_delay: 95 } }, dir);
    writeBenchOutput({ bench: "browser", mode: "smoke", figures: { browser_cpu_ms_per_analysis: 14_665 } }, dir);

    const { units, sources } = measuredUnits(DEFAULTS, (bench) => readBenchOutput(bench, dir));

    expect([units.cpu_ms.browser_analysis, units.wall_s.analysis, units.wall_s.analysis_confirmed]).toEqual([14_665, 31.5, 95]);
    const of = (unit: string) => sources.find((s) => s.unit === unit)!;
    expect([of("cpu_ms.browser_analysis").measured, of("wall_s.analysis").measured, of("wall_s.analysis_confirmed").measured]).toEqual([true, true, true]);
    expect(of("cpu_ms.browser_analysis").from).toMatch(/^bench:browser browser_cpu_ms_per_analysis \(smoke run \d{4}-\d{2}-\d{2}, commit /);
    expect(of("wall_s.analysis").from).toMatch(/^bench:uptime job_slot_s_without_confirm_delay \(full run /);
    expect(of("wall_s.analysis_confirmed").from).toMatch(/^bench:uptime job_slot_s_with_confirm_delay \(full run /);
    // The defaults stay where the benches did not measure: the probe's CPU (bench:uptime's output has none here).
    expect([units.cpu_ms.probe, of("cpu_ms.probe").from]).toEqual([3, "units.json (bench:uptime's output has no cpu_ms_per_probe)"]);
  });

  it("keeps the stated defaults, printed as such, where an output or a figure is missing", () => {
    const dir = outputsDir();
    writeBenchOutput({ bench: "crawl-scale", mode: "smoke", figures: { cpu_ms_per_page: 9 } }, dir);
    writeBenchOutput({ bench: "uptime", mode: "full", figures: { cpu_ms_per_probe: null } }, dir);

    const { units, sources } = measuredUnits(DEFAULTS, (bench) => readBenchOutput(bench, dir));

    // crawl-scale without the crawler-only figure falls back to its whole-process one.
    expect(units.cpu_ms).toEqual({ probe: 3, analysed_page: 10, crawled_page: 9, browser_analysis: 1000 });
    expect([units.wall_s.analysis, units.wall_s.analysis_confirmed]).toEqual([10, 70]);
    const from = Object.fromEntries(sources.map((s) => [s.unit, s.from]));
    expect(from["cpu_ms.crawled_page"]).toMatch(/^bench:crawl-scale cpu_ms_per_page \(smoke run/);
    expect(from["cpu_ms.analysed_page"]).toBe("units.json (no output of bench:analyze)");
    expect(from["cpu_ms.probe"]).toBe("units.json (bench:uptime's output has no cpu_ms_per_probe)");
    expect(sources.filter((s) => !s.measured).map((s) => s.unit)).toEqual(["cpu_ms.probe", "cpu_ms.analysed_page", "cpu_ms.browser_analysis", "wall_s.analysis", "wall_s.analysis_confirmed"]);
  });
});
