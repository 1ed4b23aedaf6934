// The sizing arithmetic of docs/operations.md ("Sizing"): from per-unit costs measured here
// (test/bench/sizing/units.json) to what N monitored sites need. Pure: `npm run sizing` prints it,
// test/unit/sizing.test.ts checks it on a known input.

export interface Units {
  /** What every site gets (the issue's workload). */
  readonly workload: {
    readonly uptime_interval_s: number;
    readonly analyses_per_site_per_day: number;
    readonly crawls_per_site_per_week: number;
    /** Pages an analysis fetches and checks (SVC_PAGE_SAMPLE). */
    readonly pages_per_analysis: number;
    /** Pages a weekly crawl stores (the plan's crawl size, SVC_PLAN_CRAWL_PAGES). */
    readonly pages_per_crawl: number;
    /** Check results an analysis writes (one per check). */
    readonly checks_per_run: number;
    /** Share of probes that fail and are confirmed by a second probe. */
    readonly confirm_fraction: number;
    /** Share of analyses that see a severe failure and wait SVC_CONFIRM_DELAY_MS to confirm it (their slot stays taken). */
    readonly analysis_confirm_fraction?: number;
  };
  /** CPU milliseconds on a crawler node (all threads), per unit of work. */
  readonly cpu_ms: {
    readonly probe: number;
    readonly analysed_page: number;
    readonly crawled_page: number;
    /** What Chromium adds to one analysis (SVC_BROWSER on, the default where Chromium is installed). */
    readonly browser_analysis?: number;
  };
  /** How long a unit holds a slot (wall time, mostly waiting on the network and on politeness). */
  readonly wall_s: {
    readonly probe: number;
    readonly analysis: number;
    readonly crawled_page: number;
    /** An analysis that confirms a severe failure: its slot time with the confirm delay (SVC_CONFIRM_DELAY_MS). */
    readonly analysis_confirmed?: number;
  };
  /** Bytes a stored row takes on disk, with its indexes (Postgres) or compressed (ClickHouse). */
  readonly bytes_per_row: {
    readonly postgres: { readonly uptime_probe: number; readonly check_result: number; readonly crawl_page: number; readonly run: number; readonly job: number };
    readonly clickhouse: { readonly uptime_probe: number; readonly check_result: number; readonly crawl_page: number };
  };
  /** Bytes of one bus message (protobuf payload, key and headers). */
  readonly kafka_bytes: { readonly stream_item: number; readonly stream_result: number; readonly work_item: number };
  /** What one replica or one server is given or can take. */
  readonly capacity: {
    readonly crawler_cores: number;
    /** Share of a crawler's cores planned to be busy (headroom for bursts and GC). */
    readonly crawler_cpu_target: number;
    /** SVC_WORKER_CONCURRENCY: analyses and crawls one crawler runs at once. */
    readonly job_slots: number;
    /** SVC_WORKER_STREAM_CONCURRENCY: probe batches one crawler runs at once. */
    readonly stream_slots: number;
    /** SVC_KAFKA_PARTITIONS. */
    readonly partitions: number;
    /** Bytes a second one partition is planned to carry. */
    readonly partition_bytes_per_s: number;
    /** Rows a second a modest Postgres server sustains for these inserts (with its indexes). */
    readonly postgres_rows_per_s: number;
  };
}

export type Bottleneck = "job_slots" | "stream_slots" | "crawler_cpu" | "partitions" | "postgres_writes";

/** The engine setting that moves each bottleneck. */
export const MOVED_BY: Readonly<Record<Bottleneck, string>> = {
  job_slots: "SVC_WORKER_CONCURRENCY (slots wait on politeness, not CPU: raise it before adding replicas)",
  stream_slots: "SVC_WORKER_STREAM_CONCURRENCY",
  crawler_cpu: "crawler replicas (or cores per replica)",
  partitions: "SVC_KAFKA_PARTITIONS (set before the topics are created)",
  postgres_writes: "SVC_CLICKHOUSE_URL (time series and crawl pages in ClickHouse)",
};

export interface Sizing {
  readonly sites: number;
  readonly rates: {
    readonly probes_per_s: number;
    readonly analyses_per_s: number;
    readonly analysed_pages_per_s: number;
    readonly crawls_per_s: number;
    readonly crawled_pages_per_s: number;
  };
  readonly crawler: {
    /** Cores busy on crawler nodes, on average. */
    readonly cores: number;
    /** Analysis and crawl slots busy on average (Little's law: rate × duration). */
    readonly job_slots_busy: number;
    readonly stream_slots_busy: number;
    /** Replicas for each constraint at the configured capacity, and the most of them. */
    readonly replicas_by: Readonly<Record<"crawler_cpu" | "job_slots" | "stream_slots", number>>;
    readonly replicas: number;
  };
  readonly kafka: {
    readonly messages_per_s: Readonly<Record<"stream" | "results" | "work", number>>;
    readonly bytes_per_s: number;
    /** Partitions the busiest topic needs (for its bytes, and one per crawler replica at least). */
    readonly partitions_needed: number;
  };
  readonly postgres: {
    /** Rows written a second with the series in ClickHouse (jobs, runs), and with everything in Postgres. */
    readonly rows_per_s_with_clickhouse: number;
    readonly rows_per_s_without_clickhouse: number;
    readonly gb_per_month_with_clickhouse: number;
    readonly gb_per_month_without_clickhouse: number;
  };
  readonly clickhouse: { readonly rows_per_s: number; readonly gb_per_month: number };
  /** Each constraint's load against what the configured capacity gives (1 = full), at one replica per role where that is the unit. */
  readonly load: Readonly<Record<Bottleneck, number>>;
  /** The constraint that binds first (the highest load), and the setting that moves it. */
  readonly first_bottleneck: Bottleneck;
}

const DAY_S = 86_400;
const MONTH_S = 30 * DAY_S;
const GB = 1e9;

/** Rows of a job's life in Postgres: the job, its outbox row, lease, heartbeats, completion (published mark, run or result). */
const JOB_ROWS = 5;

export function size(sites: number, u: Units): Sizing {
  const w = u.workload;
  const probes = (sites / w.uptime_interval_s) * (1 + w.confirm_fraction);
  const analyses = (sites * w.analyses_per_site_per_day) / DAY_S;
  const analysedPages = analyses * w.pages_per_analysis;
  const crawls = (sites * w.crawls_per_site_per_week) / (7 * DAY_S);
  const crawledPages = crawls * w.pages_per_crawl;

  const cores = (probes * u.cpu_ms.probe + analysedPages * u.cpu_ms.analysed_page + analyses * (u.cpu_ms.browser_analysis ?? 0) + crawledPages * u.cpu_ms.crawled_page) / 1000;
  const confirmed = w.analysis_confirm_fraction ?? 0;
  const analysisSlotS = (1 - confirmed) * u.wall_s.analysis + confirmed * (u.wall_s.analysis_confirmed ?? u.wall_s.analysis);
  const jobSlotsBusy = analyses * analysisSlotS + crawls * w.pages_per_crawl * u.wall_s.crawled_page;
  const streamSlotsBusy = probes * u.wall_s.probe;
  const c = u.capacity;
  const replicasBy = {
    crawler_cpu: Math.ceil(cores / (c.crawler_cores * c.crawler_cpu_target)),
    job_slots: Math.ceil(jobSlotsBusy / c.job_slots),
    stream_slots: Math.ceil(streamSlotsBusy / c.stream_slots),
  };
  const replicas = Math.max(1, replicasBy.crawler_cpu, replicasBy.job_slots, replicasBy.stream_slots);

  const k = u.kafka_bytes;
  const messages = { stream: probes, results: probes, work: analyses + crawls };
  const streamBytes = probes * k.stream_item;
  const resultBytes = probes * k.stream_result;
  const bytesPerS = streamBytes + resultBytes + messages.work * k.work_item;
  const partitionsNeeded = Math.max(replicas, Math.ceil(Math.max(streamBytes, resultBytes) / c.partition_bytes_per_s));

  const pg = u.bytes_per_row.postgres;
  const ch = u.bytes_per_row.clickhouse;
  const jobsPerS = analyses + crawls;
  const pgCore = jobsPerS * JOB_ROWS + analyses;
  const seriesRows = probes + analyses * w.checks_per_run + crawledPages;
  const pgCoreBytes = jobsPerS * pg.job + analyses * pg.run;
  const pgSeriesBytes = probes * pg.uptime_probe + analyses * w.checks_per_run * pg.check_result + crawledPages * pg.crawl_page;
  const chBytes = probes * ch.uptime_probe + analyses * w.checks_per_run * ch.check_result + crawledPages * ch.crawl_page;

  const load: Record<Bottleneck, number> = {
    job_slots: jobSlotsBusy / c.job_slots,
    stream_slots: streamSlotsBusy / c.stream_slots,
    crawler_cpu: cores / (c.crawler_cores * c.crawler_cpu_target),
    partitions: partitionsNeeded / c.partitions,
    postgres_writes: (pgCore + seriesRows) / c.postgres_rows_per_s,
  };
  const first = (Object.keys(load) as Bottleneck[]).reduce((a, b) => (load[b] > load[a] ? b : a));
  return {
    sites,
    rates: { probes_per_s: probes, analyses_per_s: analyses, analysed_pages_per_s: analysedPages, crawls_per_s: crawls, crawled_pages_per_s: crawledPages },
    crawler: { cores, job_slots_busy: jobSlotsBusy, stream_slots_busy: streamSlotsBusy, replicas_by: replicasBy, replicas },
    kafka: { messages_per_s: messages, bytes_per_s: bytesPerS, partitions_needed: partitionsNeeded },
    postgres: {
      rows_per_s_with_clickhouse: pgCore,
      rows_per_s_without_clickhouse: pgCore + seriesRows,
      gb_per_month_with_clickhouse: (pgCoreBytes * MONTH_S) / GB,
      gb_per_month_without_clickhouse: ((pgCoreBytes + pgSeriesBytes) * MONTH_S) / GB,
    },
    clickhouse: { rows_per_s: seriesRows, gb_per_month: (chBytes * MONTH_S) / GB },
    load,
    first_bottleneck: first,
  };
}

const fmt = (n: number, digits = 1) => (n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(digits));

/** The sizing table in Markdown, one column per size. */
export function sizingTable(sizings: readonly Sizing[]): string {
  const rows: [string, (s: Sizing) => string][] = [
    ["probes / s (with confirmations)", (s) => fmt(s.rates.probes_per_s)],
    ["analyses / s (pages / s)", (s) => `${fmt(s.rates.analyses_per_s, 2)} (${fmt(s.rates.analysed_pages_per_s)})`],
    ["crawled pages / s", (s) => fmt(s.rates.crawled_pages_per_s)],
    ["crawler cores busy", (s) => fmt(s.crawler.cores, 2)],
    ["job slots busy / stream slots busy", (s) => `${fmt(s.crawler.job_slots_busy)} / ${fmt(s.crawler.stream_slots_busy)}`],
    ["crawler replicas (cpu / job slots / stream slots)", (s) => `${s.crawler.replicas} (${s.crawler.replicas_by.crawler_cpu} / ${s.crawler.replicas_by.job_slots} / ${s.crawler.replicas_by.stream_slots})`],
    ["Kafka messages / s (stream, results, work)", (s) => `${fmt(s.kafka.messages_per_s.stream)}, ${fmt(s.kafka.messages_per_s.results)}, ${fmt(s.kafka.messages_per_s.work, 2)}`],
    ["Kafka KB / s (all topics)", (s) => fmt(s.kafka.bytes_per_s / 1000)],
    ["partitions needed (busiest topic)", (s) => String(s.kafka.partitions_needed)],
    ["Postgres rows / s (series in ClickHouse / in Postgres)", (s) => `${fmt(s.postgres.rows_per_s_with_clickhouse, 2)} / ${fmt(s.postgres.rows_per_s_without_clickhouse)}`],
    ["Postgres GB / month (series in ClickHouse / in Postgres)", (s) => `${fmt(s.postgres.gb_per_month_with_clickhouse, 2)} / ${fmt(s.postgres.gb_per_month_without_clickhouse)}`],
    ["ClickHouse rows / s, GB / month", (s) => `${fmt(s.clickhouse.rows_per_s)}, ${fmt(s.clickhouse.gb_per_month)}`],
    ["first bottleneck (its load on one replica / one server)", (s) => `${s.first_bottleneck} (${fmt(s.load[s.first_bottleneck], 2)}×)`],
  ];
  const head = `| | ${sizings.map((s) => `${s.sites.toLocaleString("en-US")} sites`).join(" | ")} |`;
  const rule = `|---|${sizings.map(() => "---:").join("|")}|`;
  return [head, rule, ...rows.map(([name, f]) => `| ${name} | ${sizings.map(f).join(" | ")} |`)].join("\n");
}
