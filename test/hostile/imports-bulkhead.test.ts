import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleImports } from "../../gateway/operations/search-imports.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { writeLargeXlsx } from "../harness/xlsx-stream.ts";

// Q2 (hostile-trial.md): a 46 MB CSV and an XLSX whose sheet is 200 MB uncompressed, uploaded by
// account A within the documented limits, stalled every account's requests for minutes and took
// the process past 2 GB. The bulkhead's contract (issue 32 §2): while both run, account B's
// GET /me keeps a p99 under 250 ms, and the process grows by less than the bound below; the files
// are refused with bad_param saying the cap, and nothing of them is stored.

/** GET /me's p99 for another account while the imports run: the bulkhead's contract. */
const ME_P99_MS = 250;
/**
 * The longest single GET /me: B probes one request after another, so a stall of the serving thread
 * shows once, as this (parsing on the serving thread gave 5.6 s; now about 0.5 s, from receiving
 * the two 62 MB JSON bodies, which still happens there).
 */
const ME_MAX_MS = 2000;
/** RSS growth allowed over the process before the uploads: two parse threads of SVC_IMPORT_MEMORY_MB (384) each, plus the bodies. */
const RSS_GROWTH_MB = 1100;

let gw: TestGateway;
let site: SmallSite;
let dir = "";
let csvPath = "";
let xlsxPath = "";
let sheetBytes = 0;

beforeAll(async () => {
  site = await startSmallSite();
  // B probes every few ms: hourly limits raised as in the trial, so B is never answered 429.
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_RATE_PER_HOUR: "1000000", SVC_ADDRESS_RATE_PER_HOUR: "1000000", SVC_PLAN_KEY_RATE_PER_HOUR: "1000000000" } });
  expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
  dir = await mkdtemp(join(tmpdir(), "svc-q2-"));
  // 880,000 GSC query rows: 46 MB, the trial's CSV.
  csvPath = join(dir, "Queries.csv");
  const out = createWriteStream(csvPath);
  out.write("Top queries,Clicks,Impressions,CTR,Position\n");
  for (let start = 0; start < 880_000; start += 10_000) {
    let chunk = "";
    for (let i = start; i < start + 10_000; i++) chunk += `a hostile search query number ${i},${i % 50},${1000 + (i % 900)},${(i % 50) / 10}%,${1 + (i % 30)}.5\n`;
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  // An XLSX whose one sheet is about 200 MB of XML: 1,100,000 rows.
  xlsxPath = join(dir, "Performance.xlsx");
  sheetBytes = (await writeLargeXlsx(xlsxPath, "Queries", function* () {
    yield ["Top queries", "Clicks", "Impressions", "CTR", "Position"];
    for (let i = 0; i < 1_100_000; i++) yield [`hostile sheet query ${i}`, i % 50, 1000 + (i % 900), 0.012, 3.5];
  })).sheetBytes;
}, 240_000);

afterAll(async () => {
  await settleImports();
  await gw?.close();
  await site?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

describe("Q2: two large imports of account A", () => {
  it("leave account B's GET /me under 250 ms at p99 and the process within its memory bound; both files are refused saying the cap, nothing stored", async () => {
    const b = await gw.newAccount("b-q2@example.com");
    const csv = await readFile(csvPath);
    const xlsx = await readFile(xlsxPath);
    expect(csv.length).toBeGreaterThan(46_000_000);
    expect(sheetBytes).toBeGreaterThan(200_000_000);
    // The client's bodies are built before anything is measured: they are not the server's work.
    const bodies = [
      JSON.stringify({ file: csv.toString("base64"), file_name: "Queries.csv" }),
      JSON.stringify({ file: xlsx.toString("base64"), file_name: "Performance.xlsx" }),
    ];
    const statuses = new Set<number>();
    const me = async () => {
      const t0 = performance.now();
      statuses.add((await gw.call("GET", "/api/v1/me", { key: b.key })).statusCode);
      return performance.now() - t0;
    };
    for (let i = 0; i < 20; i++) await me();
    const before: number[] = [];
    for (let i = 0; i < 50; i++) before.push(await me());

    global.gc?.();
    const rss0 = process.memoryUsage.rss();
    let rssPeak = rss0;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 25);
    const during: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        during.push(await me());
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(bodies.map((payload) => gw.app.inject({ method: "POST", url: `/api/v1/imports/${site.host}`, headers: { "x-api-key": gw.ownerKey, "content-type": "application/json" }, payload })));
    await settleImports();
    const seconds = (performance.now() - started) / 1000;
    running = false;
    await probe;
    clearInterval(sampler);

    const figures = {
      seconds: Number(seconds.toFixed(1)),
      me_before_ms: { p50: Number(quantile(before, 0.5).toFixed(1)), p99: Number(quantile(before, 0.99).toFixed(1)) },
      me_during_ms: { n: during.length, p50: Number(quantile(during, 0.5).toFixed(1)), p99: Number(quantile(during, 0.99).toFixed(1)), max: Number(Math.max(...during).toFixed(1)) },
      rss_mb: { before: Math.round(rss0 / 2 ** 20), peak: Math.round(rssPeak / 2 ** 20), growth: Math.round((rssPeak - rss0) / 2 ** 20) },
    };
    console.log(`Q2 figures: ${JSON.stringify(figures)}`);

    expect([...statuses]).toEqual([200]);
    expect(answers.map((r) => r.statusCode)).toEqual([202, 202]);
    const jobs = await Promise.all(answers.map(async (r) => (await gw.call("GET", `/api/v1/jobs/${r.json<{ job: { id: number } }>().job.id}`)).json<{ job: { state: string; error: unknown } }>()));
    expect(jobs.map(({ job }) => [job.state, job.error])).toEqual([
      ["error", { reason: "bad_param", detail: "Queries.csv holds more than 500,000 rows, the most an import may hold; split the export into smaller files" }],
      ["error", { reason: "bad_param", detail: "Performance.xlsx holds more than 500,000 rows, the most an import may hold; split the export into smaller files" }],
    ]);
    expect((await gw.call("GET", `/api/v1/imports/${site.host}`)).json().imports).toEqual([]);
    expect(during.length).toBeGreaterThan(20);
    expect(figures.me_during_ms.p99).toBeLessThan(ME_P99_MS);
    expect(figures.me_during_ms.max).toBeLessThan(ME_MAX_MS);
    expect(figures.rss_mb.growth).toBeLessThan(RSS_GROWTH_MB);
  });
});
