/**
 * bench:imports: search-data imports (issue 19) and the reads over them, on PGlite (embedded) and
 * on a Postgres server.
 *
 *   GSC        a GSC Performance ZIP: Queries.csv with 200,000 rows (an API/Sheets-sized export)
 *              and a 90-day Chart.csv
 *   backlinks  an Ahrefs backlinks export, UTF-16LE TSV in a ZIP, 1,000,000 rows
 *
 * Each is uploaded through POST /api/v1/imports/{host} (base64 in JSON, app.inject: the whole
 * pipeline without sockets); then every read operation is timed (median of 5). Figures: rows/s of
 * each import, the process's peak RSS after it, read latencies. ClickHouse is not measured: the
 * facts imported here (GSC query rows, backlinks) stay in Postgres in both modes; the ones with a
 * ClickHouse adapter (docs/search-data.md) are checked by the series contract suite.
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:imports                 full: 200,000 GSC rows, 1,000,000 backlinks
 *   npm run bench:imports -- --smoke      smoke: 5,000 GSC rows, 20,000 backlinks (also when CI=true)
 *
 * Overrides (environment): BENCH_GSC_ROWS, BENCH_BACKLINK_ROWS, BENCH_TARGETS (pglite,postgres).
 */
import { writePgliteTemplate } from "../harness/template.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startPostgres, type PostgresServer } from "../harness/postgres.ts";
import { buildZip, utf16le } from "../harness/zip-writer.ts";

const SMOKE = process.env.CI === "true" || process.argv.includes("--smoke");
const GSC_ROWS = Number(process.env.BENCH_GSC_ROWS ?? (SMOKE ? 5_000 : 200_000));
const BACKLINK_ROWS = Number(process.env.BENCH_BACKLINK_ROWS ?? (SMOKE ? 20_000 : 1_000_000));
const TARGETS = (process.env.BENCH_TARGETS ?? "pglite,postgres").split(",");
const HOST = "bench.example.com";
const READS = ["/queries/H", "/opportunities/H", "/traffic/H", "/backlinks/H", "/backlinks/H?state=lost", "/indexing/H", "/positions/H", "/providers", "/imports/H"];

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

async function timeImport(gw: TestGateway, name: string, zip: Buffer, fileName: string): Promise<void> {
  const body = { file: zip.toString("base64"), file_name: fileName };
  const started = process.hrtime.bigint();
  const res = await gw.call("POST", `/api/v1/imports/${HOST}`, { body });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (res.statusCode !== 201) throw new Error(`${name} import answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  const rows = res.json<{ import: { rows: number } }>().import.rows;
  log(`  import ${name.padEnd(10)} ${String(rows).padStart(9)} facts  ${seconds.toFixed(1).padStart(6)} s  ${String(Math.round(rows / seconds)).padStart(8)} rows/s  upload ${mb(body.file.length)}  peak RSS ${mb(peakRss())}`);
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

async function main(): Promise<void> {
  log(`bench:imports (${SMOKE ? "smoke" : "full"}): ${GSC_ROWS} GSC query rows, ${BACKLINK_ROWS} backlinks; targets ${TARGETS.join(", ")}`);
  const gsc = gscZip(GSC_ROWS);
  const links = backlinksZip(BACKLINK_ROWS);
  log(`fixtures: GSC ZIP ${mb(gsc.length)}, backlinks ZIP ${mb(links.length)}; peak RSS so far ${mb(peakRss())}`);
  let server: PostgresServer | null = null;
  try {
    for (const target of TARGETS) {
      let postgresUrl: string | undefined;
      if (target === "postgres") {
        server = await startPostgres();
        postgresUrl = await server.createDatabase("bench_imports");
      } else await writePgliteTemplate();
      const gw = await startTestGateway({ ...(postgresUrl ? { postgresUrl } : {}), validateResponses: false, env: { SVC_RATE_PER_HOUR: "10000000" } });
      try {
        log(`${target}:`);
        const added = await gw.call("POST", "/api/v1/sites", { body: { host: HOST } });
        if (added.statusCode !== 201) throw new Error(`adding ${HOST} answered ${added.statusCode}`);
        await timeImport(gw, "gsc", gsc, "bench-Performance-on-Search.zip");
        await timeImport(gw, "backlinks", links, "bench-backlinks.zip");
        await timeReads(gw);
      } finally {
        await gw.close();
      }
    }
    log("clickhouse: not measured (rank checks, daily facts and SERP snapshots have ClickHouse adapters; GSC query rows and backlinks, imported here, stay in Postgres)");
  } finally {
    server?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:imports could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
