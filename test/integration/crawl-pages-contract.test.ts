import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  AccountsRepo,
  ClickHouseCrawlPages,
  CRAWL_LINKS_TABLE,
  CRAWL_PAGES_TABLE,
  clickhouseIdent as ident,
  clickhouseSql as sql,
  createStore,
  dropExpiredPartitions,
  ensureClickHouseSchema,
  JobsRepo,
  migrate,
  openClickHouse,
  openPglite,
  openPostgres,
  PostgresCrawlPages,
  type ClickHouse,
  type Db,
} from "../../storage/index.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { crawlPage, crawlPagesContract, type CrawlPagesTarget } from "../harness/crawl-pages-contract.ts";
import { freshDatabase } from "../harness/databases.ts";

// One CrawlPages contract, run unchanged on the embedded store, a Postgres server and ClickHouse
// (with the jobs and their leases on a Postgres server, as the distributed mode keeps them).

let server: ClickHouseServer;

beforeAll(async () => {
  server = await startClickHouse();
});

afterAll(async () => {
  await server?.stop();
});

async function newPostgres(): Promise<Db> {
  const db = openPostgres({ url: await freshDatabase(inject("postgresUrl")), poolSize: 4 });
  await migrate(db, 0);
  return db;
}

async function newClickHouse(): Promise<ClickHouse> {
  // Small insert batches: a put of more pages than one batch must still be one idempotent write.
  const ch = await openClickHouse({ url: await server.createDatabase(`t_${randomBytes(6).toString("hex")}`), insertBatchRows: 7 });
  await ensureClickHouseSchema(ch);
  return ch;
}

const targets: CrawlPagesTarget[] = [
  {
    name: "PGlite in memory",
    open: async () => {
      const db = await openPglite(null);
      await migrate(db, 0);
      return { db, pages: new PostgresCrawlPages(db), close: () => db.close() };
    },
  },
  {
    name: "Postgres server (pool of 4)",
    open: async () => {
      const db = await newPostgres();
      return { db, pages: new PostgresCrawlPages(db), close: () => db.close() };
    },
  },
  {
    name: "ClickHouse (Debian's server) with leases on Postgres",
    open: async () => {
      const db = await newPostgres();
      const ch = await newClickHouse();
      return {
        db,
        pages: new ClickHouseCrawlPages(ch),
        async settle() {
          for (const table of [CRAWL_PAGES_TABLE, CRAWL_LINKS_TABLE]) await ch.command(sql`OPTIMIZE TABLE ${ident(table)} FINAL`);
        },
        async finalCount(jobId) {
          const [row] = await ch.query<{ n: string }>(sql`SELECT count() AS n FROM crawl_pages FINAL WHERE job_id = ${jobId}`);
          return Number(row?.n);
        },
        async close() {
          await ch.close();
          await db.close();
        },
      };
    },
  },
];

crawlPagesContract(targets);

describe("crawl pages on ClickHouse", () => {
  let db: Db;
  let ch: ClickHouse;
  let jobs: JobsRepo;
  let accountId: number;

  beforeAll(async () => {
    db = await newPostgres();
    ch = await newClickHouse();
    jobs = new JobsRepo(db);
    const accounts = new AccountsRepo(db);
    const plan = await accounts.upsertPlan("ch-crawl", { sites: 1, checks_per_day: 1, rechecks_per_day: 1, webhooks: 1, api_keys: 1 });
    accountId = (await accounts.createAccount("ch-crawl@example.test", plan, false, 0)).id;
  });

  afterAll(async () => {
    await ch?.close();
    await db?.close();
  });

  /** The lease a worker holds, as the scheduler passes it to the store (renewed, as a batch of pages renews it). */
  async function leaseOf(id: number, worker = "w1") {
    const job = await jobs.get(id);
    const lease = await jobs.renewHolding(id, worker, job?.lease_until_ms ?? 0, 60_000, 0, "crawling");
    if (!lease) throw new Error(`${worker} holds no lease on job ${id}`);
    return lease;
  }
  const ref = async (id: number) => ({ id, created: (await jobs.get(id))!.created });

  async function leasedJob(host: string, created: number): Promise<number> {
    const job = await jobs.createQueued({ accountId, kind: "crawl", host, sync: false, maxAttempts: 3 }, created, () => ({ topic: "work", key: host, payload: new Uint8Array() }));
    expect(await jobs.lease(job.id, "w1", created * 1000, 60_000)).toMatchObject({ granted: true });
    return job.id;
  }

  it("a page an older attempt writes after a newer one (a lease lost mid-put) does not replace the newer", async () => {
    const created = Date.parse("2024-02-10T00:00:00Z") / 1000;
    const id = await leasedJob("stale.example", created);
    const pages = new ClickHouseCrawlPages(ch);
    expect(await jobs.lease(id, "w2", (created + 3600) * 1000, 60_000)).toMatchObject({ granted: true, job: { attempt: 2 } });
    const page = crawlPage("https://stale.example/", { title: "attempt 2" });
    await pages.put(await leaseOf(id, "w2"), [page]);
    // What w1 would have written had it passed the lease check just before losing the lease.
    await ch.insert(CRAWL_PAGES_TABLE, ["job_id", "url", "attempt", "seq", "job_created", "depth", "status", "skipped", "title", "words", "outlinks", "issues", "data"], [
      { job_id: id, url: page.url, attempt: 1, seq: Date.now() * 1000 + 999_999, job_created: created, depth: 1, status: 500, skipped: "", title: "attempt 1", words: 0, outlinks: 0, issues: [], data: "{}" },
    ]);
    for (const when of ["before merges", "after merges"]) {
      expect((await pages.pages(id, {}, 10, 0)).rows.map((r) => [r.title, r.status]), when).toEqual([["attempt 2", 200]]);
      expect(await pages.jobPages(id, 0, 10), when).toEqual([page.data]);
      expect(await pages.count(id), when).toBe(1);
      await ch.command(sql`OPTIMIZE TABLE crawl_pages FINAL`);
    }
  });

  it("link figures are written at once, before the completion transaction commits (idempotent, so a retry is harmless)", async () => {
    const id = await leasedJob("settle.example", Date.parse("2024-02-11T00:00:00Z") / 1000);
    const pages = new ClickHouseCrawlPages(ch);
    // The crawl pages of a distributed store: its units of work hand them as they are.
    const store = createStore(db, { crawlPages: pages });
    const page = crawlPage("https://settle.example/");
    await pages.put(await leaseOf(id), [page]);
    const stats = [{ url: page.url, inlinks: 4, score: 12.5 }];
    const job = await ref(id);
    await expect(
      store.tx(async (t) => {
        await t.crawlPages.setLinkStats(job, stats);
        throw new Error("the commit fails");
      }),
    ).rejects.toThrow("the commit fails");
    const figures = async () => (await pages.pages(id, {}, 10, 0)).rows.map((r) => [r.inlinks, r.score]);
    expect(await figures()).toEqual([[4, 12.5]]);
    await store.tx((t) => t.crawlPages.setLinkStats(job, stats)); // the retried settle
    expect(await figures()).toEqual([[4, 12.5]]);
  });

  it("tables are partitioned by the month the job was created and ordered by (job, URL hash)", async () => {
    const tables = await ch.query(sql`SELECT name, engine, partition_key, sorting_key FROM system.tables WHERE database = currentDatabase() AND name LIKE 'crawl%' ORDER BY name`);
    expect(tables).toEqual([
      { name: "crawl_page_links", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(job_created)", sorting_key: "job_id, url_hash" },
      { name: "crawl_pages", engine: "ReplacingMergeTree", partition_key: "toYYYYMM(job_created)", sorting_key: "job_id, url_hash" },
    ]);
  });

  it("retention drops the pages and link figures of crawls created before the kept months, whole", async () => {
    const pages = new ClickHouseCrawlPages(ch);
    const at = (iso: string) => Date.parse(iso) / 1000;
    const old = await leasedJob("old.example", at("2023-01-31T23:59:59Z"));
    const kept = await leasedJob("kept.example", at("2023-02-01T00:00:00Z"));
    for (const id of [old, kept]) {
      await pages.put(await leaseOf(id), [crawlPage(`https://job${id}.example/`)]);
      await pages.setLinkStats(await ref(id), [{ url: `https://job${id}.example/`, inlinks: 1, score: 1 }]);
    }
    const dropped = await dropExpiredPartitions(ch, 13, at("2024-03-15T12:00:00Z"));
    expect(dropped.filter((d) => d.table.startsWith("crawl"))).toEqual([
      { table: "crawl_page_links", month: "202301" },
      { table: "crawl_pages", month: "202301" },
    ]);
    expect(await pages.count(old)).toBe(0);
    expect(await pages.pages(old, {}, 10, 0)).toEqual({ rows: [], total: 0 });
    expect((await pages.pages(kept, {}, 10, 0)).rows.map((r) => [r.url, r.inlinks])).toEqual([[`https://job${kept}.example/`, 1]]);
  });
});
