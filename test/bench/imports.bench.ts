/**
 * bench:imports: search-data imports (issue 19) and the reads over them, on PGlite (embedded), on
 * a Postgres server, and on a Postgres server with ClickHouse holding the time-series ports (the
 * distributed mode's store: SERP snapshots, period sums, daily facts, rank checks); each also on
 * the job path (`<target>:job`: SVC_IMPORT_SYNC_MAX_MB=0, so every upload answers 202 with an
 * import job that is polled with GET /jobs/{id} until done).
 *
 *   GSC        a GSC Performance ZIP: Queries.csv with 200,000 rows (an API/Sheets-sized export)
 *              and a 90-day Chart.csv
 *   backlinks  an Ahrefs backlinks export, UTF-16LE TSV in a ZIP, 1,000,000 rows
 *
 * Each is uploaded through POST /api/v1/imports/{host} (base64 in JSON, app.inject: the whole
 * pipeline without sockets); then every read operation is timed (median of 5). Figures: rows/s of
 * each import (on the job path: from the POST to the poll that saw it done), the process's peak
 * RSS after it, on the job path the slowest poll answered while the import ran, read latencies. On
 * the clickhouse targets backlinks, indexing and market facts go to ClickHouse too (BacklinkSeries,
 * IndexSeries, MarketSeries): the run counts the backlinks there and in Postgres after the import.
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:imports                 full: 200,000 GSC rows, 1,000,000 backlinks
 *   npm run bench:imports -- --smoke      smoke: 5,000 GSC rows, 20,000 backlinks (also when CI=true)
 *   npm run bench:imports -- --attack     the Q2 attack (test/harness/import-attack.ts): a 46 MB CSV
 *                                         and a 200 MB-sheet XLSX uploaded over sockets by one account
 *                                         while another asks GET /me; B's latencies and RSS
 *
 * Overrides (environment): BENCH_GSC_ROWS, BENCH_BACKLINK_ROWS, BENCH_TARGETS
 * (pglite,postgres,clickhouse,pglite:job,clickhouse:job).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ClickHouseBacklinkSeries, ClickHouseIndexSeries, ClickHouseMarketSeries, ClickHouseRankSeries, ClickHouseSearchDailySeries, ClickHouseSearchPeriodSeries, ClickHouseSerpSeries, clickhouseSql, createStore, ensureClickHouseSchema, openClickHouse, type ClickHouse } from "../../storage/index.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { writePgliteTemplate } from "../harness/template.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startPostgres, type PostgresServer } from "../harness/postgres.ts";
import { buildZip, utf16le } from "../harness/zip-writer.ts";
import { runImportAttack, writeAttackFiles } from "../harness/import-attack.ts";
import { startSmallSite } from "../harness/sites/small-site.ts";
import { settleImports } from "../../gateway/operations/search-imports.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const GSC_ROWS = Number(process.env.BENCH_GSC_ROWS ?? (SMOKE ? 5_000 : 200_000));
const BACKLINK_ROWS = Number(process.env.BENCH_BACKLINK_ROWS ?? (SMOKE ? 20_000 : 1_000_000));
const TARGETS = (process.env.BENCH_TARGETS ?? "pglite,postgres,clickhouse,pglite:job,clickhouse:job").split(",");
const POLL_MS = 20;
const HOST = "bench.example.com";
const READS = ["/queries/H", "/opportunities/H", "/traffic/H", "/backlinks/H", "/backlinks/H?state=lost", "/indexing/H", "/positions/H", "/market/H", "/providers", "/imports/H"];

const log = (s: string) => process.stdout.write(`${s}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const peakRss = () => process.resourceUsage().maxRSS * 1024;

function gscZip(rows: number): Buffer {
  const lines = ["Top queries,Clicks,Impressions,CTR,Position"];
  for (let i = 0; i < rows; i++) {
    const impr = 50 + ((i * 7919) % 5000);
    const clicks = Math.floor(impr * (0.01 + (i % 13) / 200));
    lines.push(`query ${i} word${i % 97},${clicks},${impr},${((100 * clicks) / impr).toFixed(2)}%,${(1 + (i % 300) / 10).toFixed(1)}`);
  }
  const chart = ["Date,Clicks,Impressions,CTR,Position"];
  for (let d = 0; d < 90; d++) chart.push(`${new Date(Date.UTC(2026, 7, 1 + d)).toISOString().slice(0, 10)},${[100, 120, 130, 125, 110, 60, 50][d % 7]! * 10},${20_000 + d},5%,9.1`);
  return buildZip([{ name: "Queries.csv", data: `${lines.join("\n")}\n` }, { name: "Chart.csv", data: `${chart.join("\n")}\n` }]);
}

function backlinksZip(rows: number): Buffer {
  const lines = ["Referring page URL\tDomain rating\tTarget URL\tAnchor\tNofollow\tFirst seen\tLost"];
  for (let i = 0; i < rows; i++) lines.push(`https://s${i % 20_000}.example.org/p/${i}\t${i % 100}\thttps://${HOST}/c/${i % 500}\tanchor ${i % 1000}\t${i % 5 === 0}\t2026-0${1 + (i % 9)}-1${i % 10}\t${i % 10 === 0 ? "2026-10-01" : ""}`);
  return buildZip([{ name: "backlinks.csv", data: utf16le(lines.join("\n")) }]);
}

/** Posts the file; on the job path (202) polls GET /jobs/{id} until the job ends. Answers the batch's rows. */
async function postImport(gw: TestGateway, name: string, body: { file: string; file_name: string }): Promise<{ rows: number; via: string }> {
  const res = await gw.call("POST", `/api/v1/imports/${HOST}`, { body });
  if (res.statusCode === 201) return { rows: res.json<{ import: { rows: number } }>().import.rows, via: "sync" };
  if (res.statusCode !== 202) throw new Error(`${name} import answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  const id = res.json<{ job: { id: number } }>().job.id;
  let polls = 0;
  let slowest = 0;
  // The longest time between two answered polls (from the POST's answer): on PGlite a transaction
  // holds the event loop, so a poll's timer fires only after it; this is what a client waits.
  let longestGap = 0;
  let lastAnswer = process.hrtime.bigint();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    polls++;
    const asked = process.hrtime.bigint();
    const job = (await gw.call("GET", `/api/v1/jobs/${id}`)).json<{ job: { state: string; result: { import: number } | null; error: unknown } }>().job;
    const answered = process.hrtime.bigint();
    slowest = Math.max(slowest, Number(answered - asked) / 1e6);
    longestGap = Math.max(longestGap, Number(answered - lastAnswer) / 1e6);
    lastAnswer = answered;
    if (job.state === "error") throw new Error(`${name} import job ${id} failed: ${JSON.stringify(job.error)}`);
    if (job.state !== "done") continue;
    const batches = (await gw.call("GET", `/api/v1/imports/${HOST}?limit=200`)).json<{ imports: { id: number; rows: number }[] }>().imports;
    return { rows: batches.find((b) => b.id === job.result?.import)?.rows ?? 0, via: `job, ${polls} polls, slowest ${slowest.toFixed(0)} ms, longest gap ${longestGap.toFixed(0)} ms` };
  }
}

async function timeImport(gw: TestGateway, name: string, zip: Buffer, fileName: string): Promise<void> {
  const body = { file: zip.toString("base64"), file_name: fileName };
  const started = process.hrtime.bigint();
  const { rows, via } = await postImport(gw, name, body);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  log(`  import ${name.padEnd(10)} ${String(rows).padStart(9)} facts  ${seconds.toFixed(1).padStart(6)} s  ${String(Math.round(rows / seconds)).padStart(8)} rows/s  upload ${mb(body.file.length)}  peak RSS ${mb(peakRss())}  (${via})`);
}

/** The distributed mode's store: the Postgres server's repositories, ClickHouse behind the search ports. */
function withClickHouse(ch: ClickHouse) {
  return (_store: unknown, db: Parameters<typeof createStore>[0]) =>
    createStore(db, {
      serp: new ClickHouseSerpSeries(ch),
      searchDaily: new ClickHouseSearchDailySeries(ch),
      searchPeriod: new ClickHouseSearchPeriodSeries(ch),
      ranks: new ClickHouseRankSeries(ch),
      backlinks: new ClickHouseBacklinkSeries(ch),
      index: new ClickHouseIndexSeries(ch),
      market: new ClickHouseMarketSeries(ch),
    });
}

async function timeReads(gw: TestGateway): Promise<void> {
  for (const path of READS) {
    const url = `/api/v1${path.replace("H", HOST)}`;
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = process.hrtime.bigint();
      const res = await gw.call("GET", url);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    }
    times.sort((a, b) => a - b);
    log(`  read ${url.padEnd(48)} median ${times[2]!.toFixed(1).padStart(8)} ms  max ${times[4]!.toFixed(1).padStart(8)} ms`);
  }
}

/** --attack: the Q2 attack on PGlite, its figures as one JSON line. */
async function attack(): Promise<void> {
  log(`bench:imports --attack: load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  await writePgliteTemplate();
  const dir = await mkdtemp(join(tmpdir(), "svc-bench-q2-"));
  const site = await startSmallSite();
  const gw = await startTestGateway({ validateResponses: false, env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_RATE_PER_HOUR: "1000000", SVC_ADDRESS_RATE_PER_HOUR: "1000000", SVC_PLAN_KEY_RATE_PER_HOUR: "1000000000" } });
  try {
    const added = await gw.call("POST", "/api/v1/sites", { body: { host: site.host } });
    if (added.statusCode !== 201) throw new Error(`adding ${site.host} answered ${added.statusCode}`);
    const files = await writeAttackFiles(dir);
    const { figures, answers } = await runImportAttack(gw, site.host, files, settleImports);
    log(`  uploads answered ${answers.map((a) => a.status).join(", ")}`);
    log(`  Q2 figures: ${JSON.stringify(figures)}`);
  } finally {
    await gw.close();
    await site.close();
    await rm(dir, { recursive: true, force: true });
    log(`  load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--attack")) return attack();
  log(`bench:imports (${SMOKE ? "smoke" : "full"}): ${GSC_ROWS} GSC query rows, ${BACKLINK_ROWS} backlinks; targets ${TARGETS.join(", ")}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const gsc = gscZip(GSC_ROWS);
  const links = backlinksZip(BACKLINK_ROWS);
  log(`fixtures: GSC ZIP ${mb(gsc.length)}, backlinks ZIP ${mb(links.length)}; peak RSS so far ${mb(peakRss())}`);
  let server: PostgresServer | null = null;
  let chServer: ClickHouseServer | null = null;
  try {
    for (const [i, target] of TARGETS.entries()) {
      const [engine, path] = target.split(":");
      let postgresUrl: string | undefined;
      let ch: ClickHouse | null = null;
      if (engine === "postgres" || engine === "clickhouse") {
        server ??= await startPostgres();
        postgresUrl = await server.createDatabase(`bench_imports_${i}`);
      } else await writePgliteTemplate();
      if (engine === "clickhouse") {
        chServer ??= await startClickHouse();
        ch = await openClickHouse({ url: await chServer.createDatabase(`bench_imports_${i}`) });
        await ensureClickHouseSchema(ch);
      }
      // The synchronous path up to the body limit (the backlinks upload is 18 MB), or every upload a job;
      // the row cap (500,000 by default) and the parse heap (384 MB) raised for the full run's million backlinks.
      const env = { SVC_RATE_PER_HOUR: "10000000", SVC_IMPORT_SYNC_MAX_MB: path === "job" ? "0" : "64", SVC_IMPORT_MAX_ROWS: String(Math.max(500_000, BACKLINK_ROWS + 1000, GSC_ROWS + 1000)), SVC_IMPORT_MEMORY_MB: "2048" };
      const gw = await startTestGateway({ ...(postgresUrl ? { postgresUrl } : {}), ...(ch ? { storeOverrides: withClickHouse(ch) } : {}), validateResponses: false, env });
      try {
        log(`${target}${ch ? " (Postgres server + ClickHouse " + chServer!.version + ")" : ""}:`);
        const added = await gw.call("POST", "/api/v1/sites", { body: { host: HOST } });
        if (added.statusCode !== 201) throw new Error(`adding ${HOST} answered ${added.statusCode}`);
        await timeImport(gw, "gsc", gsc, "bench-Performance-on-Search.zip");
        await timeImport(gw, "backlinks", links, "bench-backlinks.zip");
        const inPostgres = Number((await gw.db.query<{ n: number | string }>("SELECT count(*) AS n FROM backlinks"))[0]?.n ?? 0);
        const inClickHouse = ch ? Number((await ch.query<{ n: string }>(clickhouseSql`SELECT toString(count()) AS n FROM backlinks`))[0]?.n ?? 0) : 0;
        log(`  backlink rows stored: ${inPostgres} in Postgres, ${inClickHouse} in ClickHouse`);
        await timeReads(gw);
      } finally {
        await gw.close();
        await ch?.close();
        log(`  load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
      }
    }
  } finally {
    server?.stop();
    await chServer?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:imports could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
