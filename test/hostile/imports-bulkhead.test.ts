import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleImports } from "../../gateway/operations/search-imports.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { runImportAttack, writeAttackFiles, type AttackFiles } from "../harness/import-attack.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// Q2 (hostile-trial.md): a 46 MB CSV and an XLSX whose sheet is 200 MB uncompressed, uploaded by
// account A within the documented limits as base64 in JSON (61.7 MB and 27 MB bodies), stalled
// every account's requests for minutes and took the process past 2 GB. The bulkhead (issue 32 §2):
// the bodies' base64 is decoded by a thread, the files parsed by others, the hash taken on libuv's
// pool; the serving thread only receives the bytes. So while both run over real sockets, account
// B's GET /me is answered throughout, the process stays within the bound below, and both files
// are refused with bad_param saying the cap, nothing of them stored.

/**
 * B's GET /me p99 while the imports run. The contract is 250 ms (issue 32); this test allows 1 s,
 * as the machines it runs on are shared and loaded (on a quiet one: see bench:imports --attack).
 */
const ME_P99_MS = 1000;
/** The longest single GET /me: a stall of the serving thread shows once, as this. */
const ME_MAX_MS = 3000;
/**
 * RSS growth allowed over the process before the uploads (the client's bodies already built): the
 * two bodies as received (89 MB, and once more while Fastify joins their chunks), two parse
 * threads of SVC_IMPORT_MEMORY_MB (384) each at most, and the facts they send back.
 */
const RSS_GROWTH_MB = 1100;

let gw: TestGateway;
let site: SmallSite;
let dir = "";
let files: AttackFiles;

beforeAll(async () => {
  site = await startSmallSite();
  // B probes every few ms: hourly limits raised as in the trial, so B is never answered 429.
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_RATE_PER_HOUR: "1000000", SVC_ADDRESS_RATE_PER_HOUR: "1000000", SVC_PLAN_KEY_RATE_PER_HOUR: "1000000000" } });
  expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
  dir = await mkdtemp(join(tmpdir(), "svc-q2-"));
  files = await writeAttackFiles(dir);
}, 300_000);

afterAll(async () => {
  await settleImports();
  await gw?.close();
  await site?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("Q2: two large imports of account A, over sockets", () => {
  it("leave account B's GET /me answered (p99 under 1 s) and the process within its memory bound; both files are refused saying the cap, nothing stored", async () => {
    expect(files.sheetBytes).toBeGreaterThan(200_000_000);
    const { figures, meStatuses, answers } = await runImportAttack(gw, site.host, files, settleImports);
    console.log(`Q2 figures: ${JSON.stringify(figures)}`);

    expect(figures.body_mb[0]).toBeGreaterThan(61);
    expect(new Set(meStatuses)).toEqual(new Set([200]));
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    const jobs = await Promise.all(answers.map(async (a) => (await gw.call("GET", `/api/v1/jobs/${(a.body as { job: { id: number } }).job.id}`)).json<{ job: { state: string; error: unknown } }>()));
    expect(jobs.map(({ job }) => [job.state, job.error])).toEqual([
      ["error", { reason: "bad_param", detail: "Queries.csv holds more than 500,000 rows, the most an import may hold; split the export into smaller files" }],
      ["error", { reason: "bad_param", detail: "Performance.xlsx holds more than 500,000 rows, the most an import may hold; split the export into smaller files" }],
    ]);
    expect((await gw.call("GET", `/api/v1/imports/${site.host}`)).json().imports).toEqual([]);
    expect(figures.me_during_ms.n).toBeGreaterThan(20);
    expect(figures.me_during_ms.p99).toBeLessThan(ME_P99_MS);
    expect(figures.me_during_ms.max).toBeLessThan(ME_MAX_MS);
    expect(figures.rss_mb.growth).toBeLessThan(RSS_GROWTH_MB);
  }, 900_000);
});
