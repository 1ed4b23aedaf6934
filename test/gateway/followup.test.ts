import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { analyzeSite } from "../../analyzer/index.ts";
import { JobTask, SiteFacts } from "../../proto/index.ts";
import type { ProbeSample, TaskDraftRow } from "../../storage/index.ts";
import { startDnsServer, type FixtureDnsServer } from "../harness/fixture-web/dns-server.ts";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page, startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// Issue 18 §1–3: re-check of one task (on a loopback site, through the real analysis path), fix
// effects over series built so each verdict is certain, and the work history with notes.

const DAY = 86400;
let gw: TestGateway;
let site: SmallSite;
let dns: FixtureDnsServer;
beforeAll(async () => {
  site = await startSmallSite();
  // The narrow re-check's DNS look resolves narrow.test here (SVC_DNS_SERVERS), as it would a real name.
  dns = await startDnsServer([{ origin: "narrow.test", names: { "@": { A: ["127.0.0.1"], TXT: ["v=spf1 -all"] } } }]);
  gw = await startTestGateway({
    env: {
      SVC_ALLOW_PRIVATE_TARGETS: "1",
      SVC_PAGE_SAMPLE: "5",
      SVC_CRAWL_MIN_DELAY_MS: "0",
      SVC_FETCH_TIMEOUT_MS: "3000",
      SVC_PLAN_RECHECKS_PER_DAY: "3",
      SVC_DNS_SERVERS: dns.address,
    },
  });
});
afterAll(async () => {
  await gw.close();
  await site.close();
  await dns.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const nowS = () => Math.floor(gw.clock.nowMs() / 1000);

function draft(code: string, recheck = true): TaskDraftRow {
  return { code, title: `Fix ${code}`, level: "warn", group: "technical", impact: 2, hint: "", detail: "", source: "report", recheck, effort: 1 };
}

/** Opens tasks of these codes for an account's host, then (when doneAt is given) closes them at doneAt. */
async function seedTasks(accountId: number, host: string, codes: readonly string[], openAt: number, doneAt?: number): Promise<void> {
  await gw.store.tx((t) => t.tasks.applyRun(accountId, host, openAt, codes.map((c) => draft(c)), new Set()));
  if (doneAt !== undefined) await gw.store.tx((t) => t.tasks.applyRun(accountId, host, doneAt, [], new Set(codes)));
}

describe("POST /tasks/{id}/recheck", () => {
  it("re-checks a task: the fresh report is reused, a fixed site closes it, the daily limit applies", async () => {
    // Two pages lack a description: the re-check fetches those two pages (the recheck kind's pages look).
    site.pages.set("/about", page({ title: "About the small test site", links: ["/"] }));
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host } })).json().job;
    expect((await untilJobDone(gw, job.id as number)).state).toBe("done");
    const report = (await gw.call("GET", `/api/v1/report/${site.host}`)).json();
    const gain = report.items.find((i: { code: string }) => i.code === "description_present").gain as number;
    const task = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks.find((t: { code: string }) => t.code === "description_present");
    expect(task).toMatchObject({ status: "open", recheck: true });

    // Another account's key: the task is not theirs (and nothing is charged).
    const other = await gw.newAccount("recheck-other@example.com");
    expect((await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`, { key: other.key })).json()).toMatchObject({ code: "not_found" });
    const reader = await gw.newAccount("recheck-reader@example.com", ["read"]);
    expect((await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`, { key: reader.key })).json()).toMatchObject({ code: "scope" });

    // The report is seconds old: it answers, nothing runs; the check still fails.
    const runsBefore = (await gw.call("GET", `/api/v1/history/${site.host}`)).json().runs.length;
    const reused = await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`);
    expect(reused.statusCode).toBe(200);
    const still = reused.json();
    expect(still).toMatchObject({ task: { id: task.id, status: "open" }, outcome: "still", reused_fresh_report: true, rank_from: report.rank.value, rank_to: report.rank.value, new_tasks: 0 });
    expect(still.before).toBe(still.after);
    expect(still.after).toMatch(/^fail: /);
    expect((await gw.call("GET", `/api/v1/history/${site.host}`)).json().runs.length).toBe(runsBefore);

    // Fixed, and the report is now over two minutes old: the re-check fetches the two pages it failed on, nothing else.
    site.pages.set("/contact", page({ title: "Contact the small test site", description: "How to reach the people behind the small test site.", links: ["/"] }));
    site.pages.set("/about", page({ title: "About the small test site", description: "Who runs the small site, and why it exists at all.", links: ["/"] }));
    expect(report.items.find((i: { code: string }) => i.code === "description_present").pages).toEqual([`${site.url}/about`, `${site.url}/contact`]);
    gw.clock.advance(121_000);
    const fixed = (await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`)).json();
    expect(fixed).toMatchObject({
      task: { id: task.id, status: "done" },
      outcome: "fixed",
      outcome_label: "Fixed: the check passes now",
      reused_fresh_report: false,
      ran: "pages",
      rank_from: report.rank.value,
      rank_to: report.rank.value + Math.round(gain),
      new_tasks: 0,
    });
    expect(fixed.before).toBe(still.after);
    expect(fixed.after).toBe("pass: 2 pages checked, all pass");
    // No report was stored: the look was one recheck job of the two pages.
    expect((await gw.call("GET", `/api/v1/history/${site.host}`)).json().runs.length).toBe(runsBefore);
    const me0 = (await gw.call("GET", "/api/v1/me")).json();
    const looks = await gw.db.query<{ kind: string; target: string | null; task: Uint8Array }>("SELECT kind, target, task FROM jobs WHERE account_id = $1 AND kind = 'recheck' ORDER BY id", [me0.user.id]);
    // The row holds the look's task as the lease carries it, and no older text form.
    expect(looks.map((l) => [l.kind, l.target, JobTask.decode(l.task).task])).toEqual([["recheck", null, { $case: "recheck", value: { origin: site.url, robots: false, urls: [`${site.url}/about`, `${site.url}/contact`] } }]]);
    const after = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks.find((t: { id: number }) => t.id === task.id);
    expect(after.status).toBe("done");
    // Its fix date is the re-check's. The only check before it ran in the hour before the fix, which
    // the before-window leaves out (the check that closes a task runs then): nothing to compare yet.
    const effect = (await gw.call("GET", `/api/v1/effects/${site.host}`)).json().effects.find((e: { task_id: number }) => e.task_id === task.id);
    expect(effect).toMatchObject({ done_at: nowS(), metric: "rank_group.content", verdict: "nodata", note: "Score of the task's rank group: no measurement in the 7 days before the fix outside its last hour, which is left out (1 measurement(s) there: the check that closed the task may already have seen the fix)" });

    // A task judged over the whole crawl cannot be re-checked alone: 422, not charged.
    const me = (await gw.call("GET", "/api/v1/me")).json();
    await seedTasks(me.user.id as number, site.host, [], nowS());
    await gw.store.tx((t) => t.tasks.applyRun(me.user.id as number, site.host, nowS(), [draft("orphan_pages", false)], new Set()));
    const crawlTask = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks.find((t: { code: string }) => t.code === "orphan_pages");
    const unsupported = await gw.call("POST", `/api/v1/tasks/${crawlTask.id}/recheck`);
    expect(unsupported.statusCode).toBe(422);
    expect(unsupported.json()).toMatchObject({ code: "unsupported" });

    expect(unsupported.json().error).toContain("cannot be re-checked alone: a page is an orphan when no crawled page links to it");
    expect(unsupported.json().details).toMatchObject({ code: "orphan_pages", reason: "a page is an orphan when no crawled page links to it: only every page's links can show that one now does" });

    // A check only the whole analysis gathers (the 404 probe, the favicon…): the analysis runs and stores a report.
    const favicon = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks.find((t: { code: string }) => t.code === "favicon");
    expect(favicon).toMatchObject({ status: "open", recheck: true });
    const whole = (await gw.call("POST", `/api/v1/tasks/${favicon.id}/recheck`)).json();
    expect(whole).toMatchObject({ task: { id: favicon.id, status: "open" }, outcome: "still", reused_fresh_report: false, ran: "analysis", rank_from: report.rank.value });
    expect((await gw.call("GET", `/api/v1/history/${site.host}`)).json().runs.length).toBe(runsBefore + 1);

    // That was the third charged re-check of the day, the plan's last (SVC_PLAN_RECHECKS_PER_DAY=3).
    const limited = await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "limit" });
    expect(Number(limited.headers["retry-after"])).toBe((Math.floor(nowS() / DAY) + 1) * DAY - nowS());
  });
});

describe("POST /tasks/{id}/recheck: narrow looks", () => {
  const dayOf = () => Math.floor(nowS() / DAY);
  const counters = async (accountId: number) => ({
    checks: await gw.store.auth.used(`d:checks:${accountId}`, dayOf()),
    rechecks: await gw.store.auth.used(`d:rechecks:${accountId}`, dayOf()),
  });
  const untilOwnJobDone = async (key: string, jobId: number): Promise<{ state: string }> => {
    for (let i = 0; i < 300; i++) {
      const job = (await gw.call("GET", `/api/v1/jobs/${jobId}`, { key })).json().job as { state: string };
      if (job.state === "done" || job.state === "error") return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`job ${jobId} did not finish`);
  };
  const jobKinds = async (accountId: number) =>
    (await gw.db.query<{ kind: string }>("SELECT kind FROM jobs WHERE account_id = $1 ORDER BY id", [accountId])).map((r) => r.kind);

  it("re-checks a DNS task with one DNS lookup: no analysis, charged to rechecks_per_day only", async () => {
    const acct = await gw.newAccount("narrow-dns@example.com");
    const host = "narrow.test";
    // The last report saw no SPF record; the zone now publishes one (and no DMARC: that was already failing).
    const lastFacts = SiteFacts.fromPartial({
      host,
      origin: `https://${host}`,
      checkedAt: nowS() - 3600,
      home: { response: { status: 200, requestedUrl: `https://${host}/`, finalUrl: `https://${host}/` } },
      dns: { resolved: true, a: ["127.0.0.1"], registrableDomain: host },
    });
    const last = analyzeSite(lastFacts);
    const spfItem = last.items.find((i) => i.code === "spf")!;
    expect(spfItem.status).toBe("fail");
    await gw.store.tx((t) =>
      t.runs.insert({
        host,
        jobId: 900_001,
        checkedAt: nowS() - 3600,
        rank: last.rank,
        label: last.label,
        color: last.color,
        report: { version: 1, items: last.items, groups: last.groups, caps: last.caps, tech: [], tasks: last.tasks, origin: `https://${host}`, after: last.rank },
      }),
    );
    expect((await gw.call("POST", "/api/v1/sites", { key: acct.key, body: { host } })).statusCode).toBe(201);
    await seedTasks(acct.accountId, host, ["spf", "dmarc"], nowS() - 3600);
    const tasks = (await gw.call("GET", `/api/v1/tasks/${host}`, { key: acct.key })).json().tasks as { id: number; code: string }[];
    const spfTask = tasks.find((t) => t.code === "spf")!;
    const dmarcTask = tasks.find((t) => t.code === "dmarc")!;
    const before = await counters(acct.accountId);

    const res = await gw.call("POST", `/api/v1/tasks/${spfTask.id}/recheck`, { key: acct.key });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      task: { id: spfTask.id, status: "done" },
      outcome: "fixed",
      outcome_label: "Fixed: the check passes now",
      before: `fail: ${spfItem.detail}`,
      after: "pass: one valid SPF record",
      reused_fresh_report: false,
      // The last report's rank with spf passing: what its gain said fixing it is worth.
      rank_from: last.rank,
      rank_to: last.rank + spfItem.gain,
      new_tasks: 0,
      ran: "dns",
    });
    expect(spfItem.gain).toBeGreaterThan(0);
    const still = (await gw.call("POST", `/api/v1/tasks/${dmarcTask.id}/recheck`, { key: acct.key })).json();
    expect(still).toMatchObject({ task: { id: dmarcTask.id, status: "open" }, outcome: "still", ran: "dns", rank_to: last.rank, new_tasks: 0 });
    expect(still.after).toMatch(/^fail: /);

    // Nothing but the re-check counter moved; no analysis job exists for the account.
    expect(await counters(acct.accountId)).toEqual({ checks: before.checks, rechecks: before.rechecks + 2 });
    expect(await jobKinds(acct.accountId)).toEqual(["dns", "dns"]);
    expect((await gw.call("GET", "/api/v1/jobs", { key: acct.key })).json().jobs).toEqual([]);
    expect((await gw.call("GET", `/api/v1/history/${host}`, { key: acct.key })).json().runs.length).toBeLessThanOrEqual(1);
  });

  it("re-checks a task that failed on the home page only with one fetch of the home page", async () => {
    const acct = await gw.newAccount("narrow-page@example.com");
    const home = page({ title: "Small site home page for tests", description: "The home page of a small site served on loopback for Svc's tests.", links: ["/about"] });
    const site2 = await startSmallSite();
    try {
      site2.pages.set("/", home.replace(/<h1>[^<]*<\/h1>/, "<h2>Welcome</h2>"));
      expect((await gw.call("POST", "/api/v1/sites", { key: acct.key, body: { host: site2.host } })).statusCode).toBe(201);
      const job = (await gw.call("POST", "/api/v1/analyze", { key: acct.key, body: { host: site2.host } })).json().job;
      expect((await untilOwnJobDone(acct.key, job.id as number)).state).toBe("done");
      const report = (await gw.call("GET", `/api/v1/report/${site2.host}`, { key: acct.key })).json();
      const item = report.items.find((i: { code: string }) => i.code === "h1_present");
      expect(item.status).toBe("fail");
      const task = (await gw.call("GET", `/api/v1/tasks/${site2.host}`, { key: acct.key })).json().tasks.find((t: { code: string }) => t.code === "h1_present");
      const before = await counters(acct.accountId);

      site2.pages.set("/", home);
      gw.clock.advance(121_000);
      const res = (await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`, { key: acct.key })).json();
      expect(res).toMatchObject({
        task: { id: task.id, status: "done" },
        outcome: "fixed",
        reused_fresh_report: false,
        ran: "page",
        rank_from: report.rank.value,
        rank_to: report.rank.value + Math.round(item.gain),
        new_tasks: 0,
      });
      expect(res.before).toBe(`fail: ${item.detail}`);
      expect(res.after).toBe("pass: 1 page checked, all pass");
      expect(await counters(acct.accountId)).toEqual({ checks: before.checks, rechecks: before.rechecks + 1 });
      expect(await jobKinds(acct.accountId)).toEqual(["analyze", "page"]);
      expect((await gw.call("GET", "/api/v1/jobs", { key: acct.key })).json().jobs.map((j: { id: number }) => j.id)).toEqual([job.id]);
    } finally {
      await site2.close();
    }
  });
  it("re-checks broken internal links by a crawl subset: the pages that linked to the broken target, then nothing more", async () => {
    const acct = await gw.newAccount("narrow-links@example.com");
    const site4 = await startSmallSite();
    try {
      site4.pages.set("/about", page({ title: "About the small test site", description: "Who runs the small site, and why it exists at all.", links: ["/", "/gone"] }));
      expect((await gw.call("POST", "/api/v1/sites", { key: acct.key, body: { host: site4.host } })).statusCode).toBe(201);
      const crawl = await gw.call("POST", `/api/v1/crawl/${site4.host}`, { key: acct.key });
      expect(crawl.statusCode, crawl.body).toBe(202);
      expect((await untilOwnJobDone(acct.key, crawl.json().job.id as number)).state).toBe("done");
      const report = (await gw.call("GET", `/api/v1/report/${site4.host}`, { key: acct.key })).json();
      const item = report.items.find((i: { code: string }) => i.code === "broken_internal");
      expect(item).toMatchObject({ status: "fail", pages: [`${site4.url}/gone`] });
      const task = (await gw.call("GET", `/api/v1/tasks/${site4.host}`, { key: acct.key })).json().tasks.find((t: { code: string }) => t.code === "broken_internal");
      expect(task).toMatchObject({ status: "open", recheck: false });
      gw.clock.advance(121_000);

      // The link is still there: the linking page and the target are fetched, and it still fails.
      const still = (await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`, { key: acct.key })).json();
      expect(still).toMatchObject({ task: { id: task.id, status: "open" }, outcome: "still", ran: "links", rank_from: report.rank.value, rank_to: report.rank.value, new_tasks: 0 });
      expect(still.after).toMatch(/^fail: 1 broken target\(s\) of the crawl of \d{4}-\d{2}-\d{2}, 1 linking page\(s\) fetched again: 1 still linked and broken, e\.g\. http:\/\/127\.0\.0\.1:\d+\/gone \(404\)$/);

      // The link removed: the linking page alone decides it.
      site4.pages.set("/about", page({ title: "About the small test site", description: "Who runs the small site, and why it exists at all.", links: ["/"] }));
      const fixed = (await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`, { key: acct.key })).json();
      expect(fixed).toMatchObject({ task: { id: task.id, status: "done" }, outcome: "fixed", ran: "links", reused_fresh_report: false, rank_from: report.rank.value, rank_to: report.rank.value + Math.round(item.gain) });
      const looks = await gw.db.query<{ task: Uint8Array }>("SELECT task FROM jobs WHERE account_id = $1 AND kind = 'recheck' ORDER BY id", [acct.accountId]);
      expect(looks.map((l) => (JobTask.decode(l.task).task?.value as { urls: string[] }).urls)).toEqual([[`${site4.url}/about`], [`${site4.url}/gone`], [`${site4.url}/about`]]);
    } finally {
      await site4.close();
    }
  });

  it("re-checks a robots.txt task with one look at robots.txt, its sitemaps and the home page", async () => {
    const acct = await gw.newAccount("narrow-robots@example.com");
    const site3 = await startSmallSite();
    try {
      const robots = site3.pages.get("/robots.txt")!;
      // robots.txt names no sitemap: sitemap_in_robots fails (the sitemap at /sitemap.xml is still found).
      site3.pages.set("/robots.txt", "User-agent: *\nAllow: /\n");
      expect((await gw.call("POST", "/api/v1/sites", { key: acct.key, body: { host: site3.host } })).statusCode).toBe(201);
      const job = (await gw.call("POST", "/api/v1/analyze", { key: acct.key, body: { host: site3.host } })).json().job;
      expect((await untilOwnJobDone(acct.key, job.id as number)).state).toBe("done");
      const report = (await gw.call("GET", `/api/v1/report/${site3.host}`, { key: acct.key })).json();
      const item = report.items.find((i: { code: string }) => i.code === "sitemap_in_robots");
      expect(item.status).not.toBe("pass");
      const task = (await gw.call("GET", `/api/v1/tasks/${site3.host}`, { key: acct.key })).json().tasks.find((t: { code: string }) => t.code === "sitemap_in_robots");
      const before = await counters(acct.accountId);
      gw.clock.advance(121_000);

      // Not fixed yet: the look says so, the task stays open, the rank is the report's.
      const still = (await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`, { key: acct.key })).json();
      expect(still).toMatchObject({ task: { id: task.id, status: "open" }, outcome: "still", ran: "robots", rank_from: report.rank.value, rank_to: report.rank.value, new_tasks: 0 });
      expect(still.after).toBe(still.before);

      site3.pages.set("/robots.txt", robots);
      const res = (await gw.call("POST", `/api/v1/tasks/${task.id}/recheck`, { key: acct.key })).json();
      expect(res).toMatchObject({
        task: { id: task.id, status: "done" },
        outcome: "fixed",
        reused_fresh_report: false,
        ran: "robots",
        rank_from: report.rank.value,
        rank_to: report.rank.value + Math.round(item.gain),
        new_tasks: 0,
      });
      expect(res.before).toBe(`${item.status}: ${item.detail}`);
      expect(res.after).toMatch(/^pass: /);
      expect(await counters(acct.accountId)).toEqual({ checks: before.checks, rechecks: before.rechecks + 2 });
      expect(await jobKinds(acct.accountId)).toEqual(["analyze", "recheck", "recheck"]);
      expect((await gw.call("GET", `/api/v1/history/${site3.host}`, { key: acct.key })).json().runs.length).toBe(1);

      // Analyses keep robots.txt's rules per change (the diagnosis diffs them): the first analysis's
      // version, then the fixed one; a third analysis of the same file stores nothing more.
      for (let i = 0; i < 2; i++) {
        const again = (await gw.call("POST", "/api/v1/analyze", { key: acct.key, body: { host: site3.host, fresh: true } })).json().job;
        expect((await untilOwnJobDone(acct.key, again.id as number)).state).toBe("done");
        gw.clock.advance(1000);
      }
      expect(await gw.store.robots.since(site3.host, 0)).toEqual([
        { seen_at: report.checked_at, status: 200, lines: ["Allow: / (User-agent: *)"] },
        { seen_at: expect.any(Number), status: 200, lines: ["Allow: / (User-agent: *)", `Sitemap: ${site3.url}/sitemap.xml`] },
      ]);
    } finally {
      await site3.close();
    }
  });
});

describe("GET /effects/{host} and GET /work/{host}", () => {
  const host = "effects.example";
  let account: { accountId: number; key: string };
  let D: number;

  beforeAll(async () => {
    account = await gw.newAccount("effects@example.com");
    expect((await gw.call("POST", "/api/v1/sites", { key: account.key, body: { host } })).statusCode).toBe(201);
    const now = nowS();
    D = Math.floor(now / DAY) * DAY - 20 * DAY; // the fixes: midnight 20 days ago
    await seedTasks(account.accountId, host, ["lcp", "hsts", "compression", "noindex", "text_length"], D - 10 * DAY, D);
    await seedTasks(account.accountId, host, ["h1_present"], D - 10 * DAY, now - 5 * 3600);
    await seedTasks(account.accountId, host, ["mx"], D - 10 * DAY); // still open: no effect

    // LCP from the browser check: median 3000 (MAD 50) before, 2450 after the 2-day wait.
    const lcp = [[-6, 3000], [-5, 3100], [-4, 2900], [-3, 3050], [-2, 2950], [-1, 3000], [2.1, 2400], [3, 2500], [4, 2450]];
    await gw.store.checks.write(lcp.map(([d, v], i) => ({ runId: 900_000 + i, jobId: 900_000 + i, attempt: 1, host, checkedAt: D + Math.round((d as number) * DAY), code: "lcp", status: "fail", value: String(v), group: "performance" })));
    // Rank groups from the checks (one a day): security 78..82 before (median 80, band 4.448), 70 after; content steady at 50.
    const security = [80, 82, 78, 80, 81, 79];
    await gw.store.tx(async (t) => {
      for (let d = -6; d * DAY <= now - D - DAY; d++) {
        const score = d < 0 ? (security[d + 6] as number) : 70;
        const groups = [{ id: "security", weight: 10, score, checks: 5 }, { id: "content", weight: 20, score: 50, checks: 8 }];
        await t.runs.insert({ host, jobId: 800_000 + d + 6, checkedAt: D + d * DAY + 600, rank: 60, label: "ok", color: "yellow", report: { version: 1, items: [], groups, caps: [], tech: [], tasks: [], origin: `http://${host}`, after: 60 } });
      }
    });
    // Uptime probes at noon: 200 ms before (MAD 5: band is the floor, 30 ms), 202 after.
    const probe = (at: number, totalMs: number): ProbeSample => ({ host, slot: at, confirm: false, at, ok: true, status: 200, cause: "", dnsMs: 1, connectMs: 1, tlsMs: 0, ttfbMs: totalMs - 10, totalMs, lateMs: 0, node: "n1", held: false });
    const response = [[-6, 200], [-5, 210], [-4, 190], [-3, 205], [-2, 195], [-1, 200], [1, 205], [2, 198], [3, 202]];
    await gw.store.uptimeSeries.add(response.map(([d, ms]) => probe(D + (d as number) * DAY + 12 * 3600, ms as number)));
    // Imported daily search totals (100 impressions a day): mean position 12.0 before, 9.2 after the 14-day wait.
    const [batch] = await gw.db.query<{ id: number }>(
      `INSERT INTO import_batches (account_id, host, provider, kind, formats, file_name, sha256, parser_version, filters, rows, truncated, warnings, imported_at)
       VALUES ($1, $2, 'gsc', 'performance', '[]', 'chart.csv', 'x', 1, '{}', 14, false, '[]', $3) RETURNING id`,
      [account.accountId, host, now],
    );
    const positions = [...[12.0, 12.4, 11.8, 12.2, 11.6, 12.0, 12.1].map((p, i) => [i - 7, p]), ...[9.0, 9.5, 9.2, 9.1, 9.4, 9.3, 9.0].map((p, i) => [14 + i, p])];
    for (const [d, p] of positions) {
      await gw.db.query(
        `INSERT INTO search_daily (import_id, account_id, host, engine, day, query, page, country, device, clicks, impressions, pos_x_impr) VALUES ($1, $2, $3, 'google', $4, '', '', '', '', 5, 100, $5)`,
        [batch!.id, account.accountId, host, new Date((D + (d as number) * DAY) * 1000).toISOString().slice(0, 10), (p as number) * 100],
      );
    }
  });

  it("gives each done task its metric and a certain verdict", async () => {
    const res = await gw.call("GET", `/api/v1/effects/${host}`, { key: account.key });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.page).toEqual({ limit: 50, offset: 0, total: 6, next_offset: null });
    expect(body.verdicts).toContain("flat: the change stays within the band");
    const by = Object.fromEntries(body.effects.map((e: { task: string }) => [e.task, e]));
    expect(body.effects[0].task).toBe("Fix h1_present"); // newest fix first
    expect(by["Fix lcp"]).toMatchObject({ done_at: D, metric: "lcp_ms", verdict: "improved", before: 3000, after: 2450, change_pct: -18.3, band: 222.39, wait_until: null });
    expect(by["Fix hsts"]).toMatchObject({ metric: "rank_group.security", verdict: "worse", before: 80, after: 70, change_pct: -12.5, band: 4.448 });
    expect(by["Fix compression"]).toMatchObject({ metric: "response_ms", verdict: "flat", before: 200, after: 202, change_pct: 1, band: 30 });
    expect(by["Fix text_length"]).toMatchObject({ metric: "position", verdict: "improved", before: 12, after: 9.2, change_pct: -23.3, band: 0.89 });
    // No indexing data imported and no score of its rank group (indexing) in the checks: nodata.
    expect(by["Fix noindex"]).toMatchObject({ metric: "indexed_pages", verdict: "nodata", before: null, after: null, change_pct: null });
    const h1 = by["Fix h1_present"];
    // Its check moves search positions, which this site has (the last 7 days': median 9.2): 14 days to wait.
    expect(h1).toMatchObject({ metric: "position", verdict: "wait", before: 9.2, after: null, band: 0.89, wait_until: nowS() - 5 * 3600 + 14 * DAY });

    const paged = (await gw.call("GET", `/api/v1/effects/${host}?limit=2&offset=2`, { key: account.key })).json();
    expect(paged.page).toEqual({ limit: 2, offset: 2, total: 6, next_offset: 4 });
    expect(paged.effects.map((e: { task: string }) => e.task)).toEqual(body.effects.slice(2, 4).map((e: { task: string }) => e.task));
  });

  it("is the owner's only: another account gets 404, or its own (empty) list for the same host", async () => {
    const other = await gw.newAccount("effects-other@example.com");
    expect((await gw.call("GET", `/api/v1/effects/${host}`, { key: other.key })).json()).toMatchObject({ code: "not_found" });
    expect((await gw.call("GET", `/api/v1/work/${host}`, { key: other.key })).json()).toMatchObject({ code: "not_found" });
    expect((await gw.call("POST", `/api/v1/work/${host}/notes`, { key: other.key, body: { text: "not mine" } })).json()).toMatchObject({ code: "not_found" });
    await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host } });
    const own = (await gw.call("GET", `/api/v1/effects/${host}`, { key: other.key })).json();
    expect(own.effects).toEqual([]);
    expect(own.page.total).toBe(0);
    expect((await gw.call("GET", `/api/v1/work/${host}`, { key: other.key })).json()).toMatchObject({ fixed: [], incidents: [], notes: [] });
  });

  it("lists the work of the last days: fixed tasks, incidents and notes written through the API", async () => {
    const now = nowS();
    await gw.store.incidents.open({ host, kind: "down", title: "Site down", cause: "timeout", at: now - 2 * DAY });
    await gw.store.incidents.close(host, "down", now - 2 * DAY + 3600);
    const first = await gw.call("POST", `/api/v1/work/${host}/notes`, { key: account.key, body: { text: "  Moved images to the CDN  " }, headers: { "idempotency-key": "note-1" } });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ host, note: { at: now, text: "Moved images to the CDN" } });
    const replay = await gw.call("POST", `/api/v1/work/${host}/notes`, { key: account.key, body: { text: "  Moved images to the CDN  " }, headers: { "idempotency-key": "note-1" } });
    expect(replay.headers["idempotent-replay"]).toBe("true");
    expect((await gw.call("POST", `/api/v1/work/${host}/notes`, { key: account.key, body: { text: "" } })).statusCode).toBe(400);
    expect((await gw.call("POST", `/api/v1/work/${host}/notes`, { key: account.key, body: { text: "x".repeat(2001) } })).statusCode).toBe(400);
    expect((await gw.call("POST", `/api/v1/work/${host}/notes`, { key: account.key, body: { text: "   " } })).json()).toMatchObject({ code: "bad_param" });

    const month = (await gw.call("GET", `/api/v1/work/${host}`, { key: account.key })).json();
    expect(month).toMatchObject({ host, days: 30 });
    expect(month.fixed.map((f: { title: string; closed_at: number }) => [f.title, f.closed_at])).toEqual([
      ["Fix h1_present", now - 5 * 3600],
      ...["text_length", "noindex", "compression", "hsts", "lcp"].map((c) => [`Fix ${c}`, D]),
    ]);
    expect(month.incidents).toEqual([{ title: "Site down", first_seen: now - 2 * DAY, status: "closed", kind: "down", resolved_at: now - 2 * DAY + 3600 }]);
    expect(month.notes.map((n: { at: number; text: string }) => [n.at, n.text])).toEqual([[now, "Moved images to the CDN"]]);

    const week = (await gw.call("GET", `/api/v1/work/${host}?days=7`, { key: account.key })).json();
    expect(week.fixed.map((f: { title: string }) => f.title)).toEqual(["Fix h1_present"]);
    // Closed two days ago: not in the last day's work.
    const day = (await gw.call("GET", `/api/v1/work/${host}?days=1`, { key: account.key })).json();
    expect(day.incidents).toEqual([]);
    expect((await gw.call("GET", `/api/v1/work/${host}?days=0`, { key: account.key })).json()).toMatchObject({ code: "bad_param" });
    expect((await gw.call("GET", `/api/v1/work/${host}?days=91`, { key: account.key })).json()).toMatchObject({ code: "bad_param" });
  });
});
