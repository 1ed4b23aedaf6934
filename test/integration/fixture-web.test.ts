import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFixtureWeb, type FixtureSite, type FixtureWeb, type SiteKey } from "../harness/fixture-web/sites.ts";
import { http, killAllSvc, spawnSvc, svcEnvFor, tempDataDir, waitFor, waitReady, type Answer, type SvcProcess } from "../harness/svc-process.ts";

// The real `svc serve` against fixture sites that look like the real web: names in several
// registrable .test domains, each site on its own loopback address with http on :80 and https on
// :443, an authoritative DNS server for their zones and a private CA. Svc reaches them only
// through operator settings (SVC_DNS_SERVERS, SVC_EXTRA_CA_FILE, SVC_ALLOW_PRIVATE_TARGETS), and
// the test drives it only through the REST API, asserting what a user would see in the reports.

const KEY = "svc_4elcDvqYqQ7rKnT3I9er9VD34NkndWu7u34iUEPl";
const READY_MS = 30_000;
const JOB_MS = 45_000;
const ANALYSED: readonly SiteKey[] = ["shop", "blog", "news", "broken", "forum"];

let web: FixtureWeb;
const dirs: { remove(): Promise<void> }[] = [];

beforeAll(async () => {
  web = await startFixtureWeb();
}, 60_000);
afterEach(async () => {
  await killAllSvc();
  for (const d of dirs.splice(0)) await d.remove();
});
afterAll(async () => {
  await web?.close();
});

interface Service {
  readonly proc: SvcProcess;
  readonly env: Record<string, string>;
  api(path: string, init?: { method?: string; body?: unknown }): Promise<Answer>;
}

async function dataDir(): Promise<string> {
  const d = await tempDataDir();
  dirs.push(d);
  return d.dir;
}

/** `svc serve` on dir, configured to reach the fixture web, waited for until ready. */
async function serve(dir: string, allowPrivateTargets: boolean): Promise<Service> {
  const { env, port, adminPort } = await svcEnvFor(dir, {
    SVC_BOOTSTRAP_KEY: KEY,
    SVC_DNS_SERVERS: web.dnsAddress,
    SVC_EXTRA_CA_FILE: web.caFile,
    SVC_ALLOW_PRIVATE_TARGETS: allowPrivateTargets ? "1" : "0",
    SVC_CRAWL_MIN_DELAY_MS: "0",
    SVC_PAGE_SAMPLE: "10",
    SVC_LEASE_MS: "3000",
    // Only the checks the test starts: no periodic check of a newly added site.
    SVC_PLAN_EVERY_S: "0",
    // Caps are confirmed by a second look; at once here, not after the default minute.
    SVC_CONFIRM_DELAY_MS: "0",
    // Polling jobs is many requests; the default of 120 an hour is for people.
    SVC_RATE_PER_HOUR: "100000",
    SVC_WORKER_CONCURRENCY: "4",
  });
  const proc = spawnSvc(["serve"], env);
  await waitReady(proc, adminPort, READY_MS);
  return { proc, env, api: (path, init) => http(`http://127.0.0.1:${port}/api/v1${path}`, { ...init, key: KEY }) };
}

interface Job {
  id: number;
  state: string;
  host: string;
  progress: number;
  items: { state: string; error: string | null; cached: boolean }[];
  error: { reason: string; detail: string | null } | null;
  result: { report: string; issues: string } | null;
}

async function startAnalysis(svc: Service, host: string): Promise<Job> {
  const started = await svc.api("/analyze", { method: "POST", body: { host } });
  expect(started.status, started.text).toBe(202);
  return (started.json as { job: Job }).job;
}

/** Polls GET /jobs/{id} until the job is done or in error. */
function finished(svc: Service, id: number, timeoutMs = JOB_MS): Promise<Job> {
  return waitFor(`job ${id} finished`, timeoutMs, async () => {
    const job = ((await svc.api(`/jobs/${id}`)).json as { job: Job }).job;
    return job.state === "done" || job.state === "error" ? job : undefined;
  });
}

interface Report {
  host: string;
  items: { code: string; status: string; value: string | number | null; detail: string }[];
  rank: { value: number; label: string; caps: { code: string; cap: number; title: string }[] };
}

function code(a: Answer): unknown {
  return (a.json as { code?: unknown } | undefined)?.code;
}

/** What the report says for the expected checks, in the expectations' shape (value only where one is expected). */
function observed(report: Report, site: FixtureSite): Record<string, { status: string; value?: unknown }> {
  const out: Record<string, { status: string; value?: unknown }> = {};
  for (const [c, e] of Object.entries(site.expectations.checks)) {
    const item = report.items.find((i) => i.code === c);
    out[c] = item === undefined ? { status: "missing" } : e.value === undefined ? { status: item.status } : { status: item.status, value: item.value };
  }
  return out;
}

function svcRequests(site: FixtureSite, since = 0) {
  return site.requests.slice(since).filter((r) => r.userAgent.startsWith("SvcBot/"));
}

describe("svc serve against the fixture web", () => {
  it("analyses sites with good and broken certificates, DNS and files, and reports what a user would see", { timeout: 120_000 }, async () => {
    const svc = await serve(await dataDir(), true);
    const sites = ANALYSED.map((k) => web.sites[k]);
    for (const site of sites) {
      const added = await svc.api("/sites", { method: "POST", body: { host: site.name } });
      expect(added.status, added.text).toBe(201);
      expect(added.json).toEqual({ host: site.name, added: true, interval_h: 24 });
    }
    const jobs = await Promise.all(sites.map((s) => startAnalysis(svc, s.name)));
    const done = await Promise.all(jobs.map((j) => finished(svc, j.id)));
    for (const [i, job] of done.entries()) {
      const host = sites[i]!.name;
      expect(job).toMatchObject({ state: "done", host, progress: 100, error: null, items: [{ state: "done", error: null, cached: false }] });
      expect(job.result).toEqual({ report: `/api/v1/report/${host}`, issues: `/api/v1/issues/${host}` });
    }

    const listed = (await svc.api("/sites")).json as { sites: { host: string; rank: number | null; label: string | null }[] };
    for (const site of sites) {
      const res = await svc.api(`/report/${site.name}`);
      expect(res.status, res.text).toBe(200);
      const report = res.json as Report;
      const want = site.expectations;
      expect({ site: site.name, checks: observed(report, site) }).toEqual({ site: site.name, checks: want.checks });
      expect({ site: site.name, caps: report.rank.caps.map(({ code, cap }) => ({ code, cap })) }).toEqual({ site: site.name, caps: want.caps });
      if (want.rank !== undefined) expect({ site: site.name, rank: report.rank.value, label: report.rank.label }).toEqual({ site: site.name, rank: want.rank, label: "poor" });
      if (want.minRank !== undefined) expect(report.rank.value, site.name).toBeGreaterThanOrEqual(want.minRank);
      // The site list shows the same rank.
      expect(listed.sites.find((s) => s.host === site.name)).toMatchObject({ rank: report.rank.value, label: report.rank.label });

      // Politeness: robots.txt was read, and what it (or its 5xx) forbids was never requested.
      const requests = svcRequests(site);
      expect(requests.some((r) => r.path === "/robots.txt"), site.name).toBe(true);
      expect(requests.filter((r) => want.neverFetched.includes(r.path.split("?")[0] ?? "")).map((r) => r.path)).toEqual([]);
    }

    // A capped site says why, the certificate first.
    const newsReport = (await svc.api(`/report/${web.sites.news.name}`)).json as Report;
    expect(newsReport.rank.caps[0]).toEqual({ code: "tls_cert_valid", cap: 39, title: "TLS certificate is valid" });

    // news-c.test's TXT answer is too big for UDP: the SPF record above was found over TCP.
    expect(web.dns.queries.filter((q) => q.name === "news-c.test" && q.type === "TXT").map((q) => [q.transport, q.truncated])).toContainEqual(["tcp", false]);
  });

  it("with private targets refused: .test names are bad_host, and public-looking names on private addresses end in blocked_private_address", { timeout: 90_000 }, async () => {
    const svc = await serve(await dataDir(), false);
    const { loopback, private: intranet } = web.publicLooking;

    const testName = await svc.api("/sites", { method: "POST", body: { host: web.sites.shop.name } });
    expect([testName.status, code(testName)]).toEqual([400, "bad_host"]);
    const testAnalysis = await svc.api("/analyze", { method: "POST", body: { host: web.sites.blog.name } });
    expect([testAnalysis.status, code(testAnalysis)]).toEqual([400, "bad_host"]);

    // The gateway checks only the syntax of a .com name; the crawler's egress guard resolves it.
    const before = web.sites.broken.requests.length; // broken-d.test listens on 127.0.0.5
    const added = await svc.api("/sites", { method: "POST", body: { host: loopback.name } });
    expect([added.status, added.json]).toEqual([201, { host: loopback.name, added: true, interval_h: 24 }]);
    const job = await finished(svc, (await startAnalysis(svc, loopback.name)).id);
    expect(job).toMatchObject({ state: "error", host: loopback.name, result: null });
    expect(job.error).toEqual({ reason: "blocked_private_address", detail: `${loopback.name} resolves to ${loopback.address} (loopback), which is not a public address` });
    expect(job.items[0]).toMatchObject({ state: "error", error: "blocked_private_address" });

    for (const target of [loopback, intranet]) {
      const sync = await svc.api(`/analyze?d=${target.name}`);
      expect([sync.status, code(sync)], sync.text).toEqual([400, "bad_host"]);
      expect(sync.json).toMatchObject({ param: "d", details: { reason: "blocked_private_address" } });
    }
    const report = await svc.api(`/report/${loopback.name}`);
    expect([report.status, code(report)]).toEqual([409, "not_ready"]);
    // Nothing connected to the refused address.
    expect(web.sites.broken.requests.length).toBe(before);
  });

  it("a job survives SIGKILL of svc serve: after a restart on the same data directory it completes once", { timeout: 120_000 }, async () => {
    const dir = await dataDir();
    const slow = web.sites.slow;
    const first = await serve(dir, true);
    expect((await first.api("/sites", { method: "POST", body: { host: slow.name } })).status).toBe(201);
    const job = await startAnalysis(first, slow.name);
    const atStart = slow.requests.length;
    await waitFor("the job running and the slow site being crawled", 15_000, async () => {
      const state = ((await first.api(`/jobs/${job.id}`)).json as { job: Job }).job.state;
      if (state === "done" || state === "error") throw Object.assign(new Error(`job ended (${state}) before the kill`), { fatal: true });
      return state === "running" && svcRequests(slow, atStart).length > 0 ? true : undefined;
    }, 25);
    first.proc.child.kill("SIGKILL");
    expect(await first.proc.waitExit(15_000)).toEqual({ code: null, signal: "SIGKILL" });
    const killedAt = slow.requests.length;

    const second = await serve(dir, true);
    const done = await finished(second, job.id);
    expect(done).toMatchObject({ id: job.id, state: "done", host: slow.name, progress: 100, error: null, items: [{ state: "done", error: null, cached: false }] });
    // The restarted service crawled the site again (the first attempt's facts died with the process)…
    expect(svcRequests(slow, killedAt).some((r) => r.path === "/")).toBe(true);
    // …and produced exactly one run.
    const history = (await second.api(`/history/${slow.name}`)).json as { runs: unknown[] };
    expect(history.runs).toHaveLength(1);
    const report = (await second.api(`/report/${slow.name}`)).json as Report;
    expect(observed(report, slow)).toEqual(slow.expectations.checks);
    expect(report.rank.caps).toEqual([]);
  });
});
