import { describe, expect, it } from "vitest";
import { size, sizingTable, type Units } from "../bench/sizing/model.ts";

// The sizing arithmetic (npm run sizing) on round figures whose answers are worked out by hand.

const UNITS: Units = {
  workload: { uptime_interval_s: 300, analyses_per_site_per_day: 1, crawls_per_site_per_week: 1, pages_per_analysis: 20, pages_per_crawl: 500, checks_per_run: 100, confirm_fraction: 0 },
  cpu_ms: { probe: 3, analysed_page: 10, crawled_page: 2 },
  wall_s: { probe: 0.5, analysis: 10, crawled_page: 0.3 },
  bytes_per_row: {
    postgres: { uptime_probe: 300, check_result: 250, crawl_page: 3000, run: 10_000, job: 200 },
    clickhouse: { uptime_probe: 30, check_result: 10, crawl_page: 500 },
  },
  kafka_bytes: { stream_item: 100, stream_result: 150, work_item: 150 },
  capacity: { crawler_cores: 2, crawler_cpu_target: 0.5, job_slots: 2, stream_slots: 128, partitions: 16, partition_bytes_per_s: 1_000_000, postgres_rows_per_s: 5000 },
};

describe("sizing", () => {
  it("derives rates, crawler replicas, Kafka, Postgres and ClickHouse from the per-unit figures", () => {
    // 864,000 sites: 10 analyses a second, 2,880 probes, 1/0.7 crawls a second.
    const s = size(864_000, UNITS);
    expect(s.rates.probes_per_s).toBeCloseTo(2880, 9);
    expect(s.rates.analyses_per_s).toBeCloseTo(10, 9);
    expect(s.rates.analysed_pages_per_s).toBeCloseTo(200, 9);
    expect(s.rates.crawls_per_s).toBeCloseTo(10 / 7, 9);
    expect(s.rates.crawled_pages_per_s).toBeCloseTo(5000 / 7, 9);
    // CPU: 2880 × 3 + 200 × 10 + 714.29 × 2 = 8640 + 2000 + 1428.57 ms a second.
    expect(s.crawler.cores).toBeCloseTo(12.06857, 4);
    // Slots: 10 × 10 s + 10/7 × 500 × 0.3 s = 100 + 214.29; probes 2880 × 0.5 = 1440.
    expect(s.crawler.job_slots_busy).toBeCloseTo(314.2857, 3);
    expect(s.crawler.stream_slots_busy).toBeCloseTo(1440, 9);
    expect(s.crawler.replicas_by).toEqual({ crawler_cpu: 13, job_slots: 158, stream_slots: 12 });
    expect(s.crawler.replicas).toBe(158);
    expect(s.kafka.messages_per_s.stream).toBeCloseTo(2880, 9);
    // 2880 × (100 + 150) + (10 + 10/7) × 150.
    expect(s.kafka.bytes_per_s).toBeCloseTo(720_000 + 1714.2857, 2);
    expect(s.kafka.partitions_needed).toBe(158);
    // Postgres: jobs 11.43/s × 5 rows + 10 runs; series 2880 + 1000 + 714.29 rows.
    expect(s.postgres.rows_per_s_with_clickhouse).toBeCloseTo(67.142857, 4);
    expect(s.postgres.rows_per_s_without_clickhouse).toBeCloseTo(67.142857 + 4594.2857, 3);
    // Bytes a month (30 days): (11.43 × 200 + 10 × 10,000) × 2,592,000.
    expect(s.postgres.gb_per_month_with_clickhouse).toBeCloseTo((((10 + 10 / 7) * 200 + 100_000) * 2_592_000) / 1e9, 6);
    expect(s.clickhouse.gb_per_month).toBeCloseTo(((2880 * 30 + 1000 * 10 + (5000 / 7) * 500) * 2_592_000) / 1e9, 6);
    expect(s.first_bottleneck).toBe("job_slots");
    expect(s.load.job_slots).toBeCloseTo(157.142857, 4);
  });

  it("keeps a job slot through the confirm delay for the analyses that confirm a severe failure", () => {
    // 10 analyses a second, one in 5 confirming: 8 × 10 s + 2 × 70 s = 220 slot-seconds, plus the crawls' 214.29.
    const confirming: Units = { ...UNITS, workload: { ...UNITS.workload, analysis_confirm_fraction: 0.2 }, wall_s: { ...UNITS.wall_s, analysis_confirmed: 70 } };
    expect(size(864_000, confirming).crawler.job_slots_busy).toBeCloseTo(220 + 1500 / 7, 3);
  });

  it("names the constraint that binds first: with slots to spare, Postgres writes of series kept in it", () => {
    const roomy = { ...UNITS, capacity: { ...UNITS.capacity, job_slots: 10_000, stream_slots: 100_000, crawler_cores: 1000, partitions: 10_000, postgres_rows_per_s: 1000 } };
    const s = size(864_000, roomy);
    expect(s.first_bottleneck).toBe("postgres_writes");
    expect(s.crawler.replicas).toBe(1);
  });

  it("prints one column per size", () => {
    const table = sizingTable([size(10_000, UNITS), size(100_000, UNITS)]).split("\n");
    expect(table[0]).toBe("| | 10,000 sites | 100,000 sites |");
    expect(table.find((l) => l.startsWith("| crawled pages / s |"))).toBe("| crawled pages / s | 8.3 | 82.7 |");
  });
});
