import { createClient } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { freshDatabase } from "../harness/databases.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { http, killAllSvc, spawnSvc, svcEnvFor, tempDataDir, waitFor, waitReady } from "../harness/svc-process.ts";

// `svc serve` on the real engines of the time series: account data on a Postgres server, usage,
// per-check results and crawl pages on ClickHouse (Debian's 18.16). An analysis's results reach
// ClickHouse once per check, and stay once after the job is completed again and after a restart; a
// crawl's pages are stored there once each, with the link figures its settle adds.

let ch: ClickHouseServer;
let site: SmallSite;
let dir: { dir: string; remove(): Promise<void> };
const KEY = "svc_ssb45ok2hipehfRyiFVcsaH2Xvco8rlogBfipUVg";

beforeAll(async () => {
  ch = await startClickHouse();
  site = await startSmallSite();
  dir = await tempDataDir();
});
afterAll(async () => {
  await killAllSvc();
  await site.close();
  await ch.stop();
  await dir.remove();
});

async function serve(pgUrl: string, chUrl: string) {
  const { env, port, adminPort } = await svcEnvFor(dir.dir, {
    SVC_POSTGRES_URL: pgUrl,
    SVC_CLICKHOUSE_URL: chUrl,
    SVC_BOOTSTRAP_KEY: KEY,
    SVC_ALLOW_PRIVATE_TARGETS: "1",
    SVC_CONFIRM_DELAY_MS: "0",
    SVC_PLAN_EVERY_S: "0",
    SVC_USAGE_FLUSH_MS: "200",
  });
  const proc = spawnSvc(["serve"], env);
  await waitReady(proc, adminPort);
  return { proc, api: (path: string, init: { method?: string; body?: unknown } = {}) => http(`http://127.0.0.1:${port}/api/v1${path}`, { ...init, key: KEY }) };
}

describe("svc serve on Postgres and ClickHouse", () => {
  it("writes each check of a run to ClickHouse once, and usage there too", async () => {
    const pgUrl = await freshDatabase(inject("postgresUrl"), "chserve");
    const chUrl = await ch.createDatabase("svc_serve");
    const svc = await serve(pgUrl, chUrl);
    expect((await svc.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    const started = await svc.api("/analyze", { method: "POST", body: { host: site.host } });
    expect(started.status).toBe(202);
    const id = (started.json as { job: { id: number } }).job.id;
    await waitFor("the analysis", 30_000, async () => {
      const job = (await svc.api(`/jobs/${id}`)).json as { job: { state: string } };
      return job.job.state === "done" ? true : undefined;
    });
    const report = (await svc.api(`/report/${site.host}`)).json as { items: { code: string; status: string }[] };
    const client = createClient({ url: chUrl });
    try {
      const rows = await waitFor("check results in ClickHouse", 15_000, async () => {
        const r = await (await client.query({ query: "SELECT code, argMax(status, attempt) AS status, count() AS n FROM check_results GROUP BY code ORDER BY code", format: "JSONEachRow" })).json<{ code: string; status: string; n: string }>();
        return r.length === report.items.length ? r : undefined;
      });
      expect(rows.map((r) => [r.code, r.status])).toEqual(report.items.map((i) => [i.code, i.status]).sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)));
      const usage = await waitFor("usage in ClickHouse", 15_000, async () => {
        const r = await (await client.query({ query: "SELECT sum(calls) AS calls FROM usage_daily", format: "JSONEachRow" })).json<{ calls: string }>();
        return Number(r[0]?.calls ?? 0) > 0 ? Number(r[0]?.calls) : undefined;
      });
      expect(usage).toBeGreaterThan(0);

      // A restart syncs from its cursor: nothing is written twice.
      svc.proc.child.kill("SIGTERM");
      await svc.proc.waitExit(15_000);
      await serve(pgUrl, chUrl);
      const [count] = await (await client.query({ query: "SELECT count() AS n, uniqExact(run_id, code) AS u FROM check_results FINAL", format: "JSONEachRow" })).json<{ n: string; u: string }>();
      expect(Number(count?.n)).toBe(report.items.length);
      expect(Number(count?.u)).toBe(report.items.length);
    } finally {
      await client.close();
    }
  });

  it("stores a crawl's pages in ClickHouse once each; GET /crawl lists them with their inlinks", async () => {
    await killAllSvc(); // the analysis test's server: one svc at a time on the data dir
    const pgUrl = await freshDatabase(inject("postgresUrl"), "chcrawl");
    const chUrl = await ch.createDatabase("svc_crawl");
    const svc = await serve(pgUrl, chUrl);
    const started = await svc.api(`/crawl/${site.host}`, { method: "POST" });
    expect(started.status).toBe(202);
    const id = (started.json as { job: { id: number } }).job.id;
    await waitFor("the crawl", 60_000, async () => {
      const job = (await svc.api(`/jobs/${id}`)).json as { job: { state: string } };
      return job.job.state === "done" ? true : undefined;
    });
    const crawl = (await svc.api(`/crawl/${site.host}?limit=200`)).json as { job: number; pages: { url: string; status: number; inlinks: number }[]; page: { total: number } };
    expect(crawl.job).toBe(id);
    // The home page is linked from both others; each of them from the home page only.
    expect(crawl.pages.map((p) => [p.url, p.status, p.inlinks])).toEqual([
      [`${site.url}/`, 200, 2],
      [`${site.url}/about`, 200, 1],
      [`${site.url}/contact`, 200, 1],
    ]);
    expect(crawl.page.total).toBe(3);
    const client = createClient({ url: chUrl });
    try {
      const count = async (query: string) => Number((await (await client.query({ query, format: "JSONEachRow" })).json<{ n: string }>())[0]?.n);
      expect(await count(`SELECT count() AS n FROM crawl_pages FINAL WHERE job_id = ${id}`)).toBe(3);
      expect(await count(`SELECT count() AS n FROM crawl_page_links FINAL WHERE job_id = ${id}`)).toBe(3);
    } finally {
      await client.close();
    }
  });
});
