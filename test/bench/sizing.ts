/**
 * npm run sizing: the sizing table of docs/operations.md ("Sizing") for 10,000, 100,000 and
 * 1,000,000 monitored sites. The CPU and slot-time units come from the benchmarks' last outputs
 * (.tmp/bench/<bench>.json, see bench-output.ts and sizing/measured-units.ts: bench:uptime,
 * bench:analyze, bench:crawl-scale, bench:browser); a unit whose output is missing keeps the stated
 * default of test/bench/sizing/units.json, and the run prints where every unit came from.
 *
 * npm run sizing -- --measure: measures the cheap figures again first and writes them to the JSON —
 * bytes per stored row in Postgres (PGlite, the real migrations: uptime probes and check results
 * written through their repositories; crawl pages, runs and jobs from a real `svc serve` crawl and
 * analysis of the 121-page fan fixture on loopback), in ClickHouse (a private server, when the
 * binary is installed: the same rows through the ClickHouse series) and on the bus (the protobuf
 * messages). CPU per unit comes from the benchmarks (bench:uptime, bench:analyze, bench:cluster);
 * they take minutes and are not run here.
 *
 * Other sizes: BENCH_SITES=5000,20000 npm run sizing
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StreamItem, StreamResult, WorkItem } from "../../proto/index.ts";
import {
  ClickHouseCheckSeries,
  ClickHouseCrawlPages,
  ClickHouseUptimeSeries,
  clickhouseIdent,
  clickhouseSql,
  ensureClickHouseSchema,
  migrate,
  openClickHouse,
  openPglite,
  PostgresCheckSeries,
  PostgresUptimeSeries,
  type CheckRow,
  type Db,
  type NewCrawlPage,
  type ProbeSample,
} from "../../storage/index.ts";
import { fanSite, serveFanSite } from "../harness/cluster.ts";
import { startClickHouse } from "../harness/clickhouse.ts";
import { http, spawnSvc, svcEnvFor, tempDataDir, waitFor, waitReady } from "../harness/svc-process.ts";
import { size, sizingTable, MOVED_BY, type Units } from "./sizing/model.ts";
import { measuredUnits } from "./sizing/measured-units.ts";
import { readBenchOutput } from "./bench-output.ts";

const UNITS_PATH = new URL("./sizing/units.json", import.meta.url);
const KEY = "svc_BxwROGl3PNRZhnpF5G09iQsn7P0rPgfM7G0spWb4";
const PROBES = 20_000;
const RUNS = 100;
const CHECKS = 118;

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };

/** A deterministic pseudo-random number in [0, 1) for the i-th value (rows as varied as real ones compress like real ones). */
function rnd(i: number): number {
  const x = Math.sin(i * 12.9898 + 78.233) * 43758.5453;
  return x - Math.floor(x);
}

/** Milliseconds as a probe measures them (three decimals). */
const ms = (i: number, scale: number) => Math.round(rnd(i) * scale * 1000) / 1000;

function probe(i: number): ProbeSample {
  const slot = 1_800_000_000 + Math.floor(i / 5000) * 300 + Math.floor(rnd(i * 7) * 300);
  const failed = rnd(i * 11) < 0.02;
  return {
    host: `${Math.floor(rnd(i % 5000) * 1e9).toString(36)}-site.example${i % 7}.com`,
    slot,
    confirm: false,
    at: slot + Math.floor(rnd(i * 13) * 3),
    ok: !failed,
    status: failed ? 503 : 200,
    cause: failed ? "http" : "",
    dnsMs: ms(i * 3, 20),
    connectMs: ms(i * 5, 60),
    tlsMs: ms(i * 17, 120),
    ttfbMs: ms(i * 19, 600),
    totalMs: ms(i * 23, 900),
    lateMs: ms(i * 29, 400),
    node: `crawler-svc-crawler-${i % 4}-${1000 + (i % 4)}-ab${i % 4}f`,
    held: false,
  };
}

function checkRows(run: number): CheckRow[] {
  return Array.from({ length: CHECKS }, (_, c) => ({
    runId: run + 1,
    jobId: run + 1,
    attempt: 1,
    host: `${Math.floor(rnd(run) * 1e9).toString(36)}-site.example.com`,
    checkedAt: 1_800_000_000 + run * 86_400,
    code: `check_${c}`,
    status: (["good", "warn", "bad", "info"] as const)[c % 4]!,
    value: c % 3 === 0 ? null : String(Math.floor(rnd(run * CHECKS + c) * 10 ** (c % 6))),
    group: `group_${c % 9}`,
  }));
}

/** Bytes per row of a Postgres table, indexes and TOAST included. */
async function pgBytesPerRow(db: Db, table: string): Promise<number> {
  const [row] = await db.query<{ bytes: string; n: string }>(`SELECT pg_total_relation_size('${table}') AS bytes, (SELECT count(*) FROM ${table}) AS n`);
  return Math.round(Number(row!.bytes) / Number(row!.n));
}

/** Crawl pages, runs and jobs as `svc serve` stores them: a crawl and an analysis of the fan fixture. */
async function servedRows(): Promise<{ pg: { crawl_page: number; run: number; job: number }; pages: NewCrawlPage[]; workItem: number }> {
  const site = await serveFanSite(fanSite());
  const dir = await tempDataDir();
  try {
    const { env, port, adminPort } = await svcEnvFor(dir.dir, { SVC_BOOTSTRAP_KEY: KEY, SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_CONFIRM_DELAY_MS: "0" });
    const serve = spawnSvc(["serve"], env);
    try {
      await waitReady(serve, adminPort, 180_000);
      const api = (path: string, method = "GET") => http(`http://127.0.0.1:${port}/api/v1${path}`, { method, key: KEY, timeoutMs: 10_000 });
      for (const path of [`/crawl/${site.host}`]) {
        const a = await api(path, "POST");
        const id = (a.json as { job: { id: number } }).job.id;
        await waitFor(`job ${id}`, 120_000, async () => ((await api(`/jobs/${id}`)).json as { job: { state: string } }).job.state === "done" || undefined, 250);
      }
    } finally {
      serve.child.kill("SIGTERM");
      await serve.waitExit(30_000);
    }
    const db = await openPglite(join(dir.dir, "pg"));
    try {
      const [run] = await db.query<{ bytes: string }>("SELECT avg(pg_column_size(r.*)) AS bytes FROM runs r");
      const [job] = await db.query<{ bytes: string }>("SELECT avg(pg_column_size(j.*)) AS bytes FROM jobs j");
      const [work] = await db.query<{ bytes: string }>("SELECT avg(octet_length(payload) + octet_length(key) + coalesce(octet_length(traceparent), 0)) AS bytes FROM outbox");
      const stored = await db.query<{ url: string; depth: number; status: number; skipped: string; title: string; words: number; outlinks: number; issues: string[]; data: unknown }>(
        "SELECT url, depth, status, skipped, title, words, outlinks, issues, data FROM crawl_pages",
      );
      return {
        // Rows of the jobs table carry two indexes on the id and the account: about 60 bytes more each.
        pg: { crawl_page: await pgBytesPerRow(db, "crawl_pages"), run: Math.round(Number(run!.bytes)), job: Math.round(Number(job!.bytes)) + 60 },
        pages: stored.map((p) => ({ ...p, issues: p.issues })),
        workItem: Math.round(Number(work!.bytes)),
      };
    } finally {
      await db.close();
    }
  } finally {
    await site.close();
    await dir.remove();
  }
}

async function measure(units: Mutable<Units>): Promise<void> {
  const probes = Array.from({ length: PROBES }, (_, i) => probe(i));
  const checks = Array.from({ length: RUNS }, (_, r) => checkRows(r)).flat();

  const db = await openPglite(null);
  await migrate(db, 0);
  await new PostgresUptimeSeries(db).add(probes);
  await new PostgresCheckSeries(db).write(checks);
  units.bytes_per_row.postgres.uptime_probe = await pgBytesPerRow(db, "uptime_probes");
  units.bytes_per_row.postgres.check_result = await pgBytesPerRow(db, "check_results");
  await db.close();

  const served = await servedRows();
  units.bytes_per_row.postgres.crawl_page = served.pg.crawl_page;
  units.bytes_per_row.postgres.run = served.pg.run;
  units.bytes_per_row.postgres.job = served.pg.job;
  units.kafka_bytes.work_item = served.workItem + 55; // + traceparent header name and Kafka's record overhead (about 20 bytes)

  // Bus messages as the uptime planner and a crawler node write them: one domain's one host a slot.
  const item = StreamItem.encode(
    StreamItem.fromPartial({ plannedMs: 1_800_000_000_000, task: { $case: "probe", value: { targets: [{ host: "www.example.com", url: "https://www.example.com/", slot: 1_800_000_000, timeoutMs: 10_000 }] } } }),
  ).finish();
  const result = StreamResult.encode(
    StreamResult.fromPartial({
      node: "crawler-svc-crawler-7d9f8-1234-abcd",
      result: { $case: "probe", value: { outcomes: [{ host: "www.example.com", slot: 1_800_000_000, atMs: 1_800_000_000_120, ok: true, status: 200, dnsMs: 3.2, connectMs: 11.5, tlsMs: 27.1, ttfbMs: 95.3, totalMs: 141.9 }] } },
    }),
  ).finish();
  // Key (the registrable domain, ~12 bytes) and Kafka's record overhead (~20 bytes) beside the payload.
  units.kafka_bytes.stream_item = item.byteLength + 32;
  units.kafka_bytes.stream_result = result.byteLength + 32;
  void WorkItem;

  let ch: Awaited<ReturnType<typeof startClickHouse>> | null = null;
  try {
    ch = await startClickHouse();
  } catch (err) {
    process.stderr.write(`ClickHouse not measured (${(err as Error).message.split("\n")[0]}); its figures stay as they were\n`);
  }
  if (ch) {
    try {
      const client = await openClickHouse({ url: await ch.createDatabase("sizing") });
      await ensureClickHouseSchema(client);
      // In batches, as the scheduler writes them (ClickHouse 18.16 bounds a query's size).
      const uptime = new ClickHouseUptimeSeries(client);
      for (let i = 0; i < probes.length; i += 1000) await uptime.add(probes.slice(i, i + 1000));
      const checkSeries = new ClickHouseCheckSeries(client);
      for (let i = 0; i < checks.length; i += CHECKS * 10) await checkSeries.write(checks.slice(i, i + CHECKS * 10));
      await new ClickHouseCrawlPages(client).put({ jobId: 1, attempt: 1, created: 1_800_000_000 }, served.pages);
      for (const t of ["uptime_probes", "check_results", "crawl_pages"]) await client.command(clickhouseSql`OPTIMIZE TABLE ${clickhouseIdent(t)} FINAL`);
      const parts = await client.query<{ table: string; bytes: string; rows: string }>(
        clickhouseSql`SELECT table, sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts WHERE active AND database = 'sizing' GROUP BY table`,
      );
      const per = (t: string) => {
        const p = parts.find((x) => x.table === t);
        return p ? Math.round(Number(p.bytes) / Number(p.rows)) : NaN;
      };
      units.bytes_per_row.clickhouse.uptime_probe = per("uptime_probes");
      units.bytes_per_row.clickhouse.check_result = per("check_results");
      units.bytes_per_row.clickhouse.crawl_page = per("crawl_pages");
      await client.close();
    } finally {
      await ch.stop();
    }
  }
  (units as { measured?: string }).measured = new Date().toISOString().slice(0, 10);
  writeFileSync(UNITS_PATH, `${JSON.stringify(units, null, 2)}\n`);
}

const stored = JSON.parse(readFileSync(UNITS_PATH, "utf8")) as Mutable<Units>;
if (process.argv.includes("--measure")) await measure(stored);
const { units, sources } = measuredUnits(stored, (bench) => readBenchOutput(bench));
console.log("Unit costs:\n");
for (const s of sources) console.log(`  ${s.unit.padEnd(24)} ${String(Math.round(s.value * 1000) / 1000).padStart(9)}  ${s.measured ? "measured " : "default  "} ${s.from}`);
console.log("");
const sites = (process.env.BENCH_SITES ?? "10000,100000,1000000").split(",").map(Number);
const sizings = sites.map((n) => size(n, units));
console.log("At the defaults:\n");
console.log(sizingTable(sizings));
console.log("");
for (const s of sizings) console.log(`${s.sites.toLocaleString("en-US")} sites: first bottleneck ${s.first_bottleneck} (${s.load[s.first_bottleneck].toFixed(2)}× at defaults), moved by ${MOVED_BY[s.first_bottleneck]}`);

// Tuned: the settings the first bottleneck asks for (units.json "tuned").
const tunedUnits = { ...units, capacity: { ...units.capacity, ...(units as { tuned?: Partial<Units["capacity"]> }).tuned } };
const tuned = sites.map((n) => size(n, tunedUnits));
console.log(`\nTuned (${JSON.stringify((units as { tuned?: unknown }).tuned ?? {})}):\n`);
console.log(sizingTable(tuned));
console.log("");
for (const s of tuned) console.log(`${s.sites.toLocaleString("en-US")} sites: next bottleneck ${s.first_bottleneck} (${s.load[s.first_bottleneck].toFixed(2)}×), moved by ${MOVED_BY[s.first_bottleneck]}`);
