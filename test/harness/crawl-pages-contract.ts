import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountsRepo, JobsRepo, type CrawlPageRow, type CrawlPages, type Db, type NewCrawlPage } from "../../storage/index.ts";
import { HOSTILE_TEXT } from "./series-contract.ts";

/** The crawl pages of one store, with the account database that holds jobs and leases. */
export interface CrawlPagesHandle {
  readonly db: Db;
  readonly pages: CrawlPages;
  /** Runs the store's background merges to the end (ClickHouse: OPTIMIZE … FINAL); reads must not change. */
  settle?(): Promise<void>;
  /** ClickHouse: count() of the job's rows straight from the table with FINAL. */
  finalCount?(jobId: number): Promise<number>;
  close(): Promise<void>;
}

/** One implementation of CrawlPages that must behave like the others. */
export interface CrawlPagesTarget {
  readonly name: string;
  /** The port over a new, empty, migrated store. */
  open(): Promise<CrawlPagesHandle>;
}

const T0 = 1_706_745_600; // 2024-02-01 00:00:00 UTC
const LEASE_MS = 60_000;

/** A page with everything but what a test names set to something plain. */
export function crawlPage(url: string, p: Partial<NewCrawlPage> = {}): NewCrawlPage {
  return { url, depth: 1, status: 200, skipped: "", title: `Title of ${url}`, words: 100, outlinks: 3, issues: [], data: { url, v: 1 }, ...p };
}

/** What pages() answers for a page stored as `p` (link figures as given). */
function listed(p: NewCrawlPage, links: { inlinks: number; score: number } = { inlinks: 0, score: 0 }): CrawlPageRow {
  return { url: p.url, depth: p.depth, status: p.status, skipped: p.skipped, title: p.title, words: p.words, inlinks: links.inlinks, outlinks: p.outlinks, score: links.score, issues: [...p.issues], data: p.data };
}

/**
 * The CrawlPages contract: the same expectations, with exact values, on every target. Each target
 * gets one store for the whole block; every test works on jobs of its own.
 */
export function crawlPagesContract(targets: readonly CrawlPagesTarget[]): void {
  describe.each(targets)("crawl pages contract on $name", (target) => {
    let s: CrawlPagesHandle;
    let jobs: JobsRepo;
    let accountId: number;
    let hosts = 0;
    const settle = async () => s.settle?.();

    beforeAll(async () => {
      s = await target.open();
      jobs = new JobsRepo(s.db);
      const accounts = new AccountsRepo(s.db);
      const plan = await accounts.upsertPlan("crawl-contract", { sites: 10, checks_per_day: 100, rechecks_per_day: 10, webhooks: 1, api_keys: 1 });
      accountId = (await accounts.createAccount("crawl-contract@example.test", plan, false, T0)).id;
    });

    afterAll(async () => {
      await s?.close();
    });

    /** A queued crawl job (not leased). */
    async function queuedJob(created = T0): Promise<number> {
      const job = await jobs.createQueued({ accountId, kind: "crawl", host: `c${++hosts}.example`, sync: false, maxAttempts: 5 }, created, (j) => ({
        topic: "work",
        key: j.host,
        payload: new Uint8Array(),
      }));
      return job.id;
    }

    /** A crawl job leased by `worker` (attempt 1). */
    async function leasedJob(worker = "w1", created = T0): Promise<number> {
      const id = await queuedJob(created);
      expect(await jobs.lease(id, worker, created * 1000, LEASE_MS)).toMatchObject({ granted: true, job: { attempt: 1 } });
      return id;
    }

    /** The next attempt of a job, by another worker once the lease has lapsed. */
    async function nextAttempt(id: number, worker: string, attempt: number): Promise<void> {
      expect(await jobs.lease(id, worker, T0 * 1000 + attempt * 10 * LEASE_MS, LEASE_MS)).toMatchObject({ granted: true, job: { attempt } });
    }

    /**
     * What the scheduler does with a worker's pages: the lease is checked and renewed on the account
     * database (JobsRepo.renewHolding), and the store is given the attempt; false when the worker holds none.
     */
    async function putAs(id: number, worker: string, pages: readonly NewCrawlPage[]): Promise<boolean> {
      const lease = await jobs.renewHolding(id, worker, T0 * 1000, LEASE_MS, 50, "crawling");
      if (!lease) return false;
      await s.pages.put(lease, pages);
      return true;
    }

    /** The job as its settling passes it to setLinkStats. */
    async function ref(id: number): Promise<{ id: number; created: number }> {
      const job = await jobs.get(id);
      return { id, created: job?.created ?? 0 };
    }

    const all = async (id: number) => (await s.pages.pages(id, {}, 1000, 0)).rows;
    const urls = async (id: number, filter = {}) => (await s.pages.pages(id, filter, 1000, 0)).rows.map((r) => r.url);

    it("pages are refused, storing nothing, unless the worker holds the job's running lease (checked on the account database)", async () => {
      const page = [crawlPage("https://a.example/")];
      expect(await putAs(987_654_321, "w1", page)).toBe(false);
      const queued = await queuedJob();
      expect(await putAs(queued, "w1", page)).toBe(false);
      const held = await leasedJob("w1");
      expect(await putAs(held, "w2", page)).toBe(false);
      expect(await putAs(held, "w1", [])).toBe(true);
      // The lease lapses and another worker takes the job: the first one's pages are refused.
      await nextAttempt(held, "w2", 2);
      expect(await putAs(held, "w1", page)).toBe(false);
      const done = await leasedJob("w1");
      expect(await jobs.lockHeld(done, "w1")).toMatchObject({ id: done, worker: "w1" });
      await jobs.markDone(done, { runId: null }, T0);
      expect(await putAs(done, "w1", page)).toBe(false);
      await settle();
      for (const id of [queued, held, done]) {
        expect(await s.pages.count(id)).toBe(0);
        expect(await s.pages.pages(id, {}, 10, 0)).toEqual({ rows: [], total: 0 });
        expect(await s.pages.jobPages(id, 0, 10)).toEqual([]);
      }
    });

    it("a page stored again is listed once, with the latest data, at its new place in the store order", async () => {
      const id = await leasedJob("w1");
      const a1 = crawlPage("https://d.example/a", { status: 404, title: "first", data: { v: 1 } });
      const b = crawlPage("https://d.example/b");
      const a2 = crawlPage("https://d.example/a", { status: 200, title: "second", issues: ["title_short"], data: { v: 2 } });
      expect(await putAs(id, "w1", [a1, b])).toBe(true);
      expect(await putAs(id, "w1", [a2])).toBe(true); // the same attempt, again
      const expectSecond = async () => {
        expect(await all(id)).toEqual([listed(b), listed(a2)]);
        expect(await s.pages.jobPages(id, 0, 10)).toEqual([b.data, a2.data]);
        expect(await s.pages.count(id)).toBe(2);
        // Filters see the latest copy only: "a" answered 404 once, now 200.
        expect(await urls(id, { statusClass: 4 })).toEqual([]);
        expect(await urls(id, { statusClass: 2 })).toEqual([b.url, a2.url]);
      };
      await expectSecond();
      await settle();
      await expectSecond();

      // A later attempt stores it once more; the earlier worker can store nothing now.
      await nextAttempt(id, "w2", 2);
      const a3 = crawlPage("https://d.example/a", { depth: 2, title: "third", data: { v: 3 } });
      expect(await putAs(id, "w2", [a3])).toBe(true);
      expect(await putAs(id, "w1", [a1])).toBe(false);
      const expectThird = async () => {
        expect(await all(id)).toEqual([listed(b), listed(a3)]);
        expect(await s.pages.jobPages(id, 0, 10)).toEqual([b.data, a3.data]);
        expect(await s.pages.count(id)).toBe(2);
        if (s.finalCount) expect(await s.finalCount(id)).toBe(2);
      };
      await expectThird();
      await settle();
      await expectThird();
    });

    it("of one URL twice in a batch the last one counts", async () => {
      const id = await leasedJob();
      const c1 = crawlPage("https://e.example/c", { title: "c1", data: { v: 1 } });
      const d = crawlPage("https://e.example/d");
      const c2 = crawlPage("https://e.example/c", { title: "c2", data: { v: 2 } });
      expect(await putAs(id, "w1", [c1, d, c2])).toBe(true);
      await settle();
      expect(await all(id)).toEqual([listed(d), listed(c2)]);
      expect(await s.pages.count(id)).toBe(2);
      if (s.finalCount) expect(await s.finalCount(id)).toBe(2);
    });

    it("pages() lists by depth, sitemap-only URLs last, each in store order; pages through them with the total", async () => {
      const id = await leasedJob();
      const p = (path: string, depth: number) => crawlPage(`https://f.example${path}`, { depth });
      await putAs(id, "w1", [p("/", 0), p("/s1", -1), p("/b", 1)]);
      await putAs(id, "w1", [p("/deep", 2), p("/a", 1), p("/s2", -1)]);
      await putAs(id, "w1", [p("/c", 1)]);
      const order = ["/", "/b", "/a", "/c", "/deep", "/s1", "/s2"].map((x) => `https://f.example${x}`);
      const expectOrder = async () => {
        expect(await urls(id)).toEqual(order);
        for (const offset of [0, 3, 6, 7, 9]) {
          const got = await s.pages.pages(id, {}, 3, offset);
          expect(got.rows.map((r) => r.url), `offset ${offset}`).toEqual(order.slice(offset, offset + 3));
          expect(got.total).toBe(7);
        }
        expect(await s.pages.pages(id, {}, 0, 0)).toEqual({ rows: [], total: 7 });
      };
      await expectOrder();
      await settle();
      await expectOrder();
      // Another job's pages are its own.
      const other = await leasedJob();
      await putAs(other, "w1", [p("/", 0)]);
      expect(await urls(id)).toEqual(order);
      expect(await urls(other)).toEqual(["https://f.example/"]);
    });

    it("filters by status class (0: no answer, not skipped) and by issue, with the filtered total", async () => {
      const id = await leasedJob();
      const p = (path: string, status: number, issues: string[] = [], skipped = "") => crawlPage(`https://g.example${path}`, { status, issues, skipped });
      await putAs(id, "w1", [
        p("/ok", 200, ["title_short", "h1_missing"]),
        p("/empty", 204),
        p("/moved", 301, ["h1_missing"]),
        p("/gone", 404),
        p("/teapot", 418, ["title_short"]),
        p("/error", 500),
        p("/busy", 503, ["h1_missing"]),
        p("/timeout", 0),
        p("/robots", 0, [], "robots"),
        p("/trap", 0, [], "trap"),
      ]);
      await settle();
      const u = (...paths: string[]) => paths.map((x) => `https://g.example${x}`);
      expect(await urls(id, { statusClass: 0 })).toEqual(u("/timeout"));
      expect(await urls(id, { statusClass: 2 })).toEqual(u("/ok", "/empty"));
      expect(await urls(id, { statusClass: 3 })).toEqual(u("/moved"));
      expect(await urls(id, { statusClass: 4 })).toEqual(u("/gone", "/teapot"));
      expect(await urls(id, { statusClass: 5 })).toEqual(u("/error", "/busy"));
      expect(await urls(id, { statusClass: 1 })).toEqual([]);
      expect(await urls(id, { issue: "h1_missing" })).toEqual(u("/ok", "/moved", "/busy"));
      expect(await urls(id, { issue: "title_short" })).toEqual(u("/ok", "/teapot"));
      expect(await urls(id, { issue: "h1" })).toEqual([]);
      expect(await urls(id, { statusClass: 5, issue: "h1_missing" })).toEqual(u("/busy"));
      expect(await s.pages.pages(id, { issue: "h1_missing" }, 1, 1)).toEqual({ rows: [listed(p("/moved", 301, ["h1_missing"]))], total: 3 });
      expect((await s.pages.pages(id, { statusClass: 0 }, 10, 0)).total).toBe(1);
    });

    it("setLinkStats sets inlinks and score of stored pages; again changes nothing, newer figures replace", async () => {
      const id = await leasedJob();
      const [x, y, z] = ["x", "y", "z"].map((n, i) => crawlPage(`https://h.example/${n}`, { depth: i }));
      await putAs(id, "w1", [x!, y!, z!]);
      const stats = [
        { url: x!.url, inlinks: 7, score: 1.66 },
        { url: y!.url, inlinks: 2, score: 33.3333333333333 },
        { url: "https://h.example/not-stored", inlinks: 9, score: 50 },
      ];
      await s.pages.setLinkStats(await ref(id), stats);
      const expectStats = async () => {
        expect(await all(id)).toEqual([listed(x!, { inlinks: 7, score: 1.66 }), listed(y!, { inlinks: 2, score: 33.3333333333333 }), listed(z!)]);
        expect(await s.pages.count(id)).toBe(3);
      };
      await expectStats();
      await s.pages.setLinkStats(await ref(id), stats);
      await s.pages.setLinkStats(await ref(id), []);
      await expectStats();
      await settle();
      await expectStats();
      await s.pages.setLinkStats(await ref(id), [{ url: x!.url, inlinks: 8, score: 0.1 }]);
      // Storing a page again keeps its figures.
      const y2 = crawlPage(y!.url, { depth: 1, title: "y again" });
      await putAs(id, "w1", [y2]);
      const expectNewer = async () => {
        expect(await all(id)).toEqual([listed(x!, { inlinks: 8, score: 0.1 }), listed(y2, { inlinks: 2, score: 33.3333333333333 }), listed(z!)]);
      };
      await expectNewer();
      await settle();
      await expectNewer();
    });

    it("jobPages reads the data back in store order, by offset and limit", async () => {
      const id = await leasedJob();
      const batches = [
        [crawlPage("https://i.example/1", { depth: 3, data: { n: 1, nested: { list: [1, "two", null, true] } } }), crawlPage("https://i.example/2", { depth: 0, data: { n: 2 } })],
        [crawlPage("https://i.example/3", { depth: -1, data: { n: 3, text: "x" } })],
        [crawlPage("https://i.example/4", { data: { n: 4 } }), crawlPage("https://i.example/5", { data: { n: 5, f: 0.1 } })],
      ];
      for (const batch of batches) expect(await putAs(id, "w1", batch)).toBe(true);
      const data = batches.flat().map((p) => p.data);
      const expectData = async () => {
        expect(await s.pages.jobPages(id, 0, 10)).toEqual(data);
        expect(await s.pages.jobPages(id, 0, 2)).toEqual(data.slice(0, 2));
        expect(await s.pages.jobPages(id, 2, 2)).toEqual(data.slice(2, 4));
        expect(await s.pages.jobPages(id, 4, 2)).toEqual(data.slice(4));
        expect(await s.pages.jobPages(id, 5, 2)).toEqual([]);
        expect(await s.pages.jobPages(id, 0, 0)).toEqual([]);
      };
      await expectData();
      await settle();
      await expectData();
    });

    it("a batch larger than one insert request is one write, in store order", async () => {
      const id = await leasedJob();
      const batch = Array.from({ length: 25 }, (_, i) => crawlPage(`https://j.example/${i}`, { data: { i } }));
      expect(await putAs(id, "w1", batch)).toBe(true);
      await settle();
      expect(await s.pages.jobPages(id, 0, 100)).toEqual(batch.map((p) => p.data));
      expect(await s.pages.count(id)).toBe(25);
      if (s.finalCount) expect(await s.finalCount(id)).toBe(25);
    });

    it("URLs, titles, issues and data with quotes, backslashes, control characters and unicode come back exactly", async () => {
      const id = await leasedJob();
      const pages = HOSTILE_TEXT.map((text, i) =>
        crawlPage(`https://k.example/${text}`, { depth: i, title: text, skipped: "", issues: [text, `plain_${i}`], data: { text, list: [text], [text]: i } }),
      );
      expect(await putAs(id, "w1", pages)).toBe(true);
      await s.pages.setLinkStats(await ref(id), pages.map((p, i) => ({ url: p.url, inlinks: i, score: i / 4 })));
      const expectExact = async () => {
        expect(await all(id)).toEqual(pages.map((p, i) => listed(p, { inlinks: i, score: i / 4 })));
        expect(await s.pages.jobPages(id, 0, 100)).toEqual(pages.map((p) => p.data));
        for (const [i, text] of HOSTILE_TEXT.entries()) {
          expect(await urls(id, { issue: text }), JSON.stringify(text)).toEqual([pages[i]!.url]);
        }
      };
      await expectExact();
      await settle();
      await expectExact();
    });

    it("refuses a batch with an invalid page, writing none of it, and an invalid filter or limit", async () => {
      const id = await leasedJob();
      const good = crawlPage("https://l.example/good");
      const invalid: Partial<NewCrawlPage>[] = [{ title: "nul\0inside" }, { url: "lone \ud800 surrogate" }, { issues: ["a\0"] }, { depth: 2 ** 31 }, { status: 1.5 }, { words: -(2 ** 31) - 1 }];
      for (const bad of invalid) {
        await expect(putAs(id, "w1", [good, crawlPage("https://l.example/bad", bad)]), JSON.stringify(bad)).rejects.toThrow(RangeError);
      }
      await expect(s.pages.setLinkStats(await ref(id), [{ url: good.url, inlinks: 1, score: Number.NaN }])).rejects.toThrow(RangeError);
      await expect(s.pages.pages(id, {}, -1, 0)).rejects.toThrow(RangeError);
      await expect(s.pages.pages(id, { statusClass: 2.5 }, 10, 0)).rejects.toThrow(RangeError);
      await expect(s.pages.jobPages(id, -1, 10)).rejects.toThrow(RangeError);
      await settle();
      expect(await s.pages.count(id)).toBe(0);
      expect(await putAs(id, "w1", [good, crawlPage("https://l.example/max", { depth: -1, status: 2 ** 31 - 1, words: 0 })])).toBe(true);
      expect(await urls(id)).toEqual([good.url, "https://l.example/max"]);
    });
  });
}
