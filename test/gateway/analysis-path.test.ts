import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page, startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// The whole path in one process: gateway → gRPC → scheduler → outbox → bus → crawler worker
// (gRPC lease, heartbeat, complete) → analyzer → runs, tasks, events → gateway reads.

let gw: TestGateway;
let site: SmallSite;
beforeAll(async () => {
  site = await startSmallSite();
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "5", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const untilDone = (jobId: number) => untilJobDone(gw, jobId);

describe("the analysis path", () => {
  it("analyses a site, opens tasks, and closes them when the site is fixed", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
    expect((await gw.call("GET", `/api/v1/report/${site.host}`)).json().code).toBe("not_ready");

    const started = await gw.call("POST", "/api/v1/analyze", { body: { host: site.host } });
    expect(started.statusCode).toBe(202);
    const queued = started.json().job;
    expect(queued).toMatchObject({ kind: "analyze", host: site.host, progress: 0, poll_after_s: 3, result: null, self: `/api/v1/jobs/${queued.id}` });
    const job = await untilDone(queued.id as number);
    expect(job).toMatchObject({ state: "done", progress: 100, poll_after_s: null, items: [{ host: site.host, state: "done", cached: false, error: null }] });
    expect(job.result).toEqual({ report: `/api/v1/report/${site.host}`, issues: `/api/v1/issues/${site.host}` });

    const report = (await gw.call("GET", `/api/v1/report/${site.host}`)).json();
    expect(report.rank.value).toBeGreaterThanOrEqual(1);
    expect(report.rank.value).toBeLessThanOrEqual(100);
    const description = report.items.find((i: { code: string }) => i.code === "description_present");
    expect(description).toMatchObject({ status: "fail", pages: [`${site.url}/contact`] });

    const tasks = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks as { id: number; code: string; status: string; impact: number }[];
    const task = tasks.find((t) => t.code === "description_present");
    expect(task).toMatchObject({ status: "open", impact: description.gain });
    const plan = (await gw.call("GET", "/api/v1/plan")).json();
    expect(plan.tasks.map((t: { id: number }) => t.id)).toContain(task?.id);
    const issues = (await gw.call("GET", `/api/v1/issues/${site.host}`)).json();
    expect(issues).toMatchObject({ host: site.host, rank: report.rank.value, label: report.rank.label, total_issues: tasks.length });
    const sites = (await gw.call("GET", "/api/v1/sites")).json().sites;
    expect(sites[0]).toMatchObject({ host: site.host, rank: report.rank.value, prev_rank: null, label: report.rank.label });

    // Polling a finished job: its ETag holds while only age_s moves, so If-None-Match answers 304.
    const polled = await gw.call("GET", `/api/v1/jobs/${queued.id}`);
    gw.clock.advance(5000);
    const again304 = await gw.call("GET", `/api/v1/jobs/${queued.id}`, { headers: { "if-none-match": polled.headers.etag as string } });
    gw.clock.advance(-5000);
    expect(again304.statusCode).toBe(304);

    // A second POST without fresh is answered from the fresh report, not charged.
    const cached = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host } })).json().job;
    expect(cached).toMatchObject({ state: "done", items: [{ cached: true }] });

    // Fix the site, check again: the task becomes done and the rank rises by its impact.
    site.pages.set("/contact", page({ title: "Contact the small test site", description: "How to reach the people behind the small test site.", links: ["/"] }));
    const again = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host, fresh: true } })).json().job;
    expect((await untilDone(again.id as number)).state).toBe("done");
    const after = (await gw.call("GET", `/api/v1/report/${site.host}`)).json();
    expect(after.rank.value).toBe(report.rank.value + Math.round(description.gain));
    const fixed = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks.find((t: { code: string }) => t.code === "description_present");
    expect(fixed.status).toBe("done");
    const changes = (await gw.call("GET", `/api/v1/changes/${site.host}`)).json();
    expect(changes.fixed.map((c: { code: string }) => c.code)).toContain("description_present");
    expect(changes.rank_delta).toBe(after.rank.value - report.rank.value);
    const history = (await gw.call("GET", `/api/v1/history/${site.host}`)).json();
    expect(history.runs).toHaveLength(2);
    const feed = (await gw.call("GET", `/api/v1/events?host=${site.host}&limit=200`)).json().events as { type: string; kind: string; text: string; data: { change?: string } }[];
    expect(feed.filter((e) => e.kind === "analysis.done")).toHaveLength(2);
    expect(feed.filter((e) => e.kind === "analysis.done").every((e) => e.type === "events" && e.text.startsWith(`Analysis of ${site.host} done: rank `))).toBe(true);
    expect(feed.some((e) => e.type === "events" && e.kind === "task.fixed" && e.data.change === "fixed")).toBe(true);
  });

  it("shows the site at a glance, with the watchdog's pages and changes, and the blocks of features to come as null", async () => {
    const res = await gw.call("GET", `/api/v1/site/${site.host}`);
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({ host: site.host, search: null, baseline: null, master_index: null, crawl: null });
    // The fix of the first test added missing meta descriptions: the watchdog saw each as a change.
    expect(s.watchdog_changes.length).toBeGreaterThan(0);
    expect(s.watchdog_changes.every((c: { field: string; before: string; level: string }) => c.field === "description" && c.before === "" && c.level === "info")).toBe(true);
    expect(s.watched_pages[0]).toMatchObject({ url: `http://${site.host}/`, status: 200 });
    expect(s.stats.runs).toBe(2);
    const open = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks.filter((t: { status: string }) => t.status === "open");
    expect(s.tasks_open).toBe(open.length);
    expect(s.top_tasks).toHaveLength(Math.min(5, open.length));
    expect(s.events.map((e: { kind: string }) => e.kind)).toContain("analysis.done");
  });

  it("answers GET /analyze with the report when it finishes in time", async () => {
    const res = await gw.call("GET", `/api/v1/analyze?d=${site.host}&fresh=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ host: site.host, phase: "done" });
    // Without fresh=1 the report just made answers at once: the same run, from a cached job.
    const cached = await gw.call("GET", `/api/v1/analyze?d=${site.host}`);
    expect(cached.statusCode).toBe(200);
    expect(cached.json().run).toBe(res.json().run);
    const [last] = await gw.db.query<{ cached: boolean }>("SELECT cached FROM jobs WHERE kind = 'analyze' ORDER BY id DESC LIMIT 1");
    expect(last).toEqual({ cached: true });
  });

  it("checks one page live: all groups with /full, one group with /check/{tool}", async () => {
    const full = await gw.call("GET", `/api/v1/full?url=${encodeURIComponent(`${site.url}/about`)}`);
    expect(full.statusCode).toBe(200);
    const body = full.json();
    expect(body.url).toBe(`${site.url}/about`);
    expect(Object.keys(body.checks)).toEqual(["meta", "headings", "images", "links", "content", "technical", "social", "structured"]);
    expect(body.checks.meta.find((c: { code: string }) => c.code === "description_present")).toMatchObject({ status: "pass" });
    expect(body.overall).toMatchObject({ status: 200, page_ok: true });
    // An inner page is judged as one: its text length is checked, not "no inner page was sampled".
    expect(body.checks.content.find((c: { code: string }) => c.code === "text_length").status).not.toBe("na");
    const meta = await gw.call("GET", `/api/v1/check/meta?url=${encodeURIComponent(`${site.url}/contact`)}`);
    expect(meta.json()).toMatchObject({ tool: "meta", url: `${site.url}/contact` });
    expect(meta.json().items.map((i: { code: string }) => i.code)).toContain("title_present");
    const unknown = await gw.call("GET", `/api/v1/check/weather?url=${encodeURIComponent(site.url)}`);
    expect(unknown.json()).toMatchObject({ code: "bad_param", param: "tool" });
    // A page that answers 404 is judged by that first: score 0, whatever its markup.
    const dead = (await gw.call("GET", `/api/v1/full?url=${encodeURIComponent(`${site.url}/no-such-page`)}`)).json();
    expect(dead.overall).toMatchObject({ status: 404, page_ok: false, score: 0, error: null, failed: 1 });
    // ...with an explicit verdict among the checks, as Lighthouse's http-status-code gives (B1).
    expect(dead.checks.meta.find((c: { code: string }) => c.code === "http_status")).toMatchObject({
      status: "fail",
      level: "bad",
      value: 404,
      detail: `${site.url}/no-such-page answers 404 (client error)`,
    });
    expect(body.checks.meta.find((c: { code: string }) => c.code === "http_status")).toMatchObject({ status: "pass", value: 200 });
    // A page that cannot be fetched is still an answer: the reason is in overall.error.
    const closed = (await gw.call("GET", `/api/v1/full?url=${encodeURIComponent("http://127.0.0.1:1/")}`)).json();
    expect(closed.overall).toMatchObject({ status: 0, score: null, page_ok: false, error: expect.stringMatching(/^refused/) });
    const ftp = await gw.call("GET", "/api/v1/full?url=ftp%3A%2F%2Fexample.com%2F");
    expect(ftp.json()).toMatchObject({ code: "bad_param", param: "url" });
  });

  it("looks up DNS and the certificate live", async () => {
    const dns = (await gw.call("GET", `/api/v1/dns/${site.host}`)).json();
    expect(dns).toMatchObject({ host: site.host, resolved: true, records: { a: ["127.0.0.1"] } });
    expect(dns.findings.map((f: { code: string }) => f.code)).toEqual(["dns_resolves", "spf", "dmarc"]);
    // The loopback site speaks plain HTTP: the handshake fails and the certificate is not valid.
    const ssl = (await gw.call("GET", `/api/v1/ssl/${site.host}`)).json();
    expect(ssl).toMatchObject({ host: site.host, valid: false, handshake_ok: false, trusted: false });
    expect(ssl.error).toBeTruthy();
    // Single checks do not appear among the background jobs.
    // (POST /analyze, its cached repeat, the fresh one, GET /analyze?fresh=1 and its cached repeat: five analyses.)
    const jobs = (await gw.call("GET", "/api/v1/jobs")).json().jobs as { host: string }[];
    expect(jobs).toHaveLength(5);
  });

  it("keeps another account's jobs and tasks to itself", async () => {
    const other = await gw.newAccount("stranger@example.com");
    const mine = (await gw.call("GET", "/api/v1/jobs")).json().jobs[0];
    expect((await gw.call("GET", `/api/v1/jobs/${mine.id}`, { key: other.key })).json().code).toBe("not_found");
    expect((await gw.call("GET", `/api/v1/tasks/${site.host}`, { key: other.key })).json().code).toBe("not_found");
    // Reports are shared: a site added after its host's checks shows their ranks at once.
    const report = (await gw.call("GET", `/api/v1/report/${site.host}`, { key: other.key })).json();
    expect(report.host).toBe(site.host);
    await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: site.host } });
    const [theirs] = (await gw.call("GET", "/api/v1/sites", { key: other.key })).json().sites;
    const [mineRow] = (await gw.call("GET", "/api/v1/sites")).json().sites;
    expect(theirs).toMatchObject({ host: site.host, rank: report.rank.value, label: report.rank.label, prev_rank: mineRow.prev_rank, last_run: report.checked_at });
    expect((await gw.call("GET", "/api/v1/report/never-seen.example.com", { key: other.key })).json().code).toBe("not_found");
  });

  it("sets task statuses; an invalid one is bad_status", async () => {
    const task = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks[0];
    expect((await gw.call("PATCH", `/api/v1/tasks/${task.id}`, { body: { status: "ignored" } })).json()).toEqual({ id: task.id, status: "ignored", host: site.host });
    const bad = await gw.call("PATCH", `/api/v1/tasks/${task.id}`, { body: { status: "later" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "bad_status", param: "status" });
  });
});

describe("periodic re-checks", () => {
  it("checks a newly added site without being asked, and again once its interval has passed", async () => {
    const planned = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "2", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_PLAN_EVERY_S: "1" } });
    const other = await startSmallSite();
    try {
      await planned.call("POST", "/api/v1/sites", { body: { host: other.host, interval: 1 } });
      const runs = async () => (await planned.call("GET", `/api/v1/history/${other.host}`)).json().runs as unknown[];
      const waitFor = async (n: number) => {
        const started = Date.now();
        while ((await runs()).length < n) {
          if (Date.now() - started > 20_000) throw new Error(`fewer than ${n} runs after 20 s`);
          await sleep(100);
        }
      };
      await waitFor(1);
      // Periodic re-checks are not jobs started through the API: GET /jobs does not list them.
      expect((await planned.call("GET", "/api/v1/jobs")).json().jobs).toEqual([]);
      const [scheduled] = await planned.db.query<{ state: string; origin: string }>("SELECT state, origin FROM jobs WHERE host = $1", [other.host]);
      expect(scheduled).toEqual({ state: "done", origin: "schedule" });
      // Not due again within the interval…
      await sleep(1500);
      expect(await runs()).toHaveLength(1);
      // …and due once the clock has moved past it.
      planned.clock.advance(3600_000);
      await waitFor(2);
      // Scheduled checks are free: the daily counter charged nothing.
      const charged = await planned.db.query("SELECT n FROM rate_counters WHERE subject LIKE 'd:checks:%'");
      expect(charged).toEqual([]);
    } finally {
      await planned.close();
      await other.close();
    }
  });
});
