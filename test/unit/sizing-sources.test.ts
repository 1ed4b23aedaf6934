import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readBenchOutput, writeBenchOutput } from "../bench/bench-output.ts";
import { measuredUnits } from "../bench/sizing/measured-units.ts";
import { size, type Units } from "../bench/sizing/model.ts";

// npm run sizing takes its unit costs from the benches' JSON outputs, not from units.json's constants.

const DEFAULTS: Units = {
  workload: { uptime_interval_s: 300, analyses_per_site_per_day: 1, crawls_per_site_per_week: 1, pages_per_analysis: 20, pages_per_crawl: 500, checks_per_run: 100, confirm_fraction: 0 },
  cpu_ms: { probe: 3, analysed_page: 10, crawled_page: 2, browser_analysis: 1000 },
  wall_s: { probe: 0.5, analysis: 10, crawled_page: 0.3 },
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
    writeBenchOutput({ bench: "uptime", mode: "full", figures: { cpu_ms_per_probe: 2.5, job_slot_s_with_confirm_delay: 70 } }, dir);
    writeBenchOutput({ bench: "browser", mode: "full", figures: { browser_cpu_ms_per_analysis: 7600 } }, dir);

    const { units, sources } = measuredUnits(DEFAULTS, (bench) => readBenchOutput(bench, dir));

    expect(units.cpu_ms).toEqual({ probe: 2.5, analysed_page: 35, crawled_page: 4.6, browser_analysis: 7600 });
    expect(units.wall_s).toEqual({ probe: 0.5, analysis: 70, crawled_page: 0.3 });
    expect(sources.every((s) => s.measured)).toBe(true);
    expect(sources.find((s) => s.unit === "cpu_ms.crawled_page")?.from).toMatch(/^bench:crawl-scale crawler_cpu_ms_per_page \(full run \d{4}-\d{2}-\d{2}, commit /);

    // 864,000 sites: 2,880 probes, 10 analyses (200 pages), 5000/7 crawled pages a second.
    // CPU: 2880 × 2.5 + 200 × 35 + 10 × 7600 + 714.29 × 4.6 ms a second = 7200 + 7000 + 76000 + 3285.71.
    expect(size(864_000, units).crawler.cores).toBeCloseTo(93.48571, 4);
  });

  it("keeps the stated defaults, printed as such, where an output or a figure is missing", () => {
    const dir = outputsDir();
    writeBenchOutput({ bench: "crawl-scale", mode: "smoke", figures: { cpu_ms_per_page: 9 } }, dir);
    writeBenchOutput({ bench: "uptime", mode: "full", figures: { cpu_ms_per_probe: null } }, dir);

    const { units, sources } = measuredUnits(DEFAULTS, (bench) => readBenchOutput(bench, dir));

    // crawl-scale without the crawler-only figure falls back to its whole-process one.
    expect(units.cpu_ms).toEqual({ probe: 3, analysed_page: 10, crawled_page: 9, browser_analysis: 1000 });
    expect(units.wall_s.analysis).toBe(10);
    const from = Object.fromEntries(sources.map((s) => [s.unit, s.from]));
    expect(from["cpu_ms.crawled_page"]).toMatch(/^bench:crawl-scale cpu_ms_per_page \(smoke run/);
    expect(from["cpu_ms.analysed_page"]).toBe("units.json (no output of bench:analyze)");
    expect(from["cpu_ms.probe"]).toBe("units.json (bench:uptime's output has no cpu_ms_per_probe)");
    expect(sources.filter((s) => !s.measured).map((s) => s.unit)).toEqual(["cpu_ms.probe", "cpu_ms.analysed_page", "cpu_ms.browser_analysis", "wall_s.analysis"]);
  });
});
