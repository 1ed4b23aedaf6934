import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { TOPICS } from "../../proto/index.ts";
import { fanSite, pidOfWorker, serveFanSite, startCluster, type Cluster, type ServedSite } from "../harness/cluster.ts";
import { linkGraphSite, serveCrawlSite, type CrawlSiteServer } from "../harness/crawl-sites/index.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { freshDatabase } from "../harness/databases.ts";
import { startKafka, type KafkaBroker } from "../harness/kafka.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { createTestCa, type TestCa } from "../harness/fixture-web/ca.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../harness/webhook-receiver.ts";
import { http, REPO_ROOT, runSvc, spawnSvc, svcEnvFor, tempDataDir, waitFor, waitReady, type Answer } from "../harness/svc-process.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { promtool } from "../harness/promtool.ts";
import { startOtlpReceiver, type OtlpReceiver } from "../harness/otlp-receiver.ts";

// The distributed mode as deployed: one `svc gateway`, one `svc scheduler` and two `svc crawler`
// processes on the integration tier's Postgres (a database of this file's own), a ClickHouse server
// of its own (time series and crawl pages) and a real Kafka broker, against fixture sites on loopback. Faults are real: kill -9 of a crawler, a scheduler
// restart, Kafka stopped and started again.
//
// Expected duration: about 1.5 minutes on 2 quiet cores (measured 85-95 s; 130 s while other test
// runs shared the machine): Kafka and the four processes start in about 12 s, the comparison with
// `svc serve` takes 8-16 s, each fault 5-25 s, planning with two schedulers about 8 s. Short
// timings keep faults short: leases of 3 s (swept every 1.5 s), a Kafka session timeout of 6 s,
// a grace period of 4 s. CLUSTER_LOGS=1 prints every process's log at the end; a failed test
// prints them anyway.

const KEY = "svc_BxwROGl3PNRZhnpF5G09iQsn7P0rPgfM7G0spWb4";
/** Settings of every process, distributed or embedded. */
const COMMON = {
  SVC_ALLOW_PRIVATE_TARGETS: "1",
  SVC_CONFIRM_DELAY_MS: "0",
  SVC_PLAN_EVERY_S: "0",
  SVC_PAGE_SAMPLE: "10",
  SVC_CRAWL_MIN_DELAY_MS: "0",
  SVC_FETCH_TIMEOUT_MS: "5000",
  SVC_RATE_PER_HOUR: "1000000",
  SVC_PLAN_CHECKS_PER_DAY: "1000000",
  SVC_LEASE_MS: "3000",
  SVC_MAX_ATTEMPTS: "5",
  // A crawler's drain budget is then 2 s (the rest of the grace period is for closing).
  SVC_SHUTDOWN_GRACE_MS: "4000",
};
const PREFIX = "cluster-test.";
const DISTRIBUTED = { ...COMMON, SVC_KAFKA_SESSION_TIMEOUT_MS: "6000", SVC_KAFKA_PARTITIONS: "8", SVC_KAFKA_TOPIC_PREFIX: PREFIX };
const JOB_MS = 90_000;
/** The fan site of the fault tests (151 pages) and two servers of it: a crawl takes about 4 s on the slow one, 10 s on the slower. */
const FAN = fanSite({ sections: 10, leaves: 14 });
const SLOW_MS = 100;
const SLOWER_MS = 250;

let kafka: KafkaBroker;
let clickhouse: ClickHouseServer;
let series: ClickHouseClient;
let databaseUrl: string;
let db: pg.Pool;
let cluster: Cluster;
let small: SmallSite;
let graph: CrawlSiteServer;
let slow: ServedSite;
let slower: ServedSite;
const extraSites: SmallSite[] = [];
let kafkaAdmin: ReturnType<Kafka["admin"]>;
let ca: TestCa;
let receiver: WebhookReceiver;
let otlp: OtlpReceiver;

beforeAll(async () => {
  const site = linkGraphSite({ pages: 150 });
  [kafka, clickhouse, databaseUrl, small, graph, slow, slower] = await Promise.all([
    startKafka(),
    startClickHouse(),
    freshDatabase(inject("postgresUrl"), "cluster"),
    startSmallSite(),
    serveCrawlSite(site.site),
    serveFanSite(FAN, "127.0.0.1", SLOW_MS),
    serveFanSite(FAN, "127.0.0.1", SLOWER_MS),
  ]);
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  kafkaAdmin = new Kafka({ clientId: "cluster-test", brokers: kafka.brokers, logLevel: logLevel.NOTHING }).admin();
  await kafkaAdmin.connect();
  const clickhouseUrl = await clickhouse.createDatabase("cluster");
  series = createClient({ url: clickhouseUrl });
  // A webhook receiver on loopback over HTTPS; the crawlers trust the test CA by the operator's setting.
  ca = await createTestCa();
  receiver = await startWebhookReceiver(ca, () => Math.floor(Date.now() / 1000));
  // Every role exports its spans to a collector of the test's own (OTLP/HTTP on loopback).
  otlp = await startOtlpReceiver();
  cluster = await startCluster({
    postgresUrl: databaseUrl,
    brokers: kafka.brokers,
    key: KEY,
    env: { ...DISTRIBUTED, SVC_CLICKHOUSE_URL: clickhouseUrl, SVC_EXTRA_CA_FILE: ca.caFile, SVC_WEBHOOK_PLAN_MS: "250", SVC_OTLP_ENDPOINT: otlp.endpoint },
  });
});

afterAll(async () => {
  // CLUSTER_LOGS=1 prints every process's log at the end, passed or not.
  if (process.env.CLUSTER_LOGS && cluster) process.stderr.write(`\n${cluster.logs(100_000)}\n`);
  await cluster?.close();
  await kafkaAdmin?.disconnect();
  await db?.end();
  await series?.close();
  await Promise.all([kafka?.stop(), clickhouse?.stop()]);
  await Promise.all([small, graph, slow, slower, ...extraSites].map((s) => s?.close()));
  await receiver?.close();
  await otlp?.close();
  await ca?.close();
});

afterEach((ctx) => {
  if (ctx.task.result?.state === "fail" && cluster) process.stderr.write(`\n${cluster.logs()}\n`);
});

type Api = (path: string, init?: { method?: string; body?: unknown; timeoutMs?: number }) => Promise<Answer>;

interface Job {
  readonly id: number;
  readonly state: string;
  readonly progress: number;
  readonly items: { error: string | null }[];
}

async function jobOf(api: Api, id: number): Promise<Job> {
  const a = await api(`/jobs/${id}`);
  if (a.status !== 200) throw new Error(`GET /jobs/${id}: ${a.status} ${a.text}`);
  return (a.json as { job: Job }).job;
}

async function untilDone(api: Api, id: number, timeoutMs = JOB_MS): Promise<Job> {
  return waitFor(`job ${id} finished`, timeoutMs, async () => {
    const job = await jobOf(api, id);
    return job.state === "done" || job.state === "error" ? job : undefined;
  }, 200);
}

async function start(api: Api, method: "analyze" | "crawl", host: string, fresh = false): Promise<number> {
  const a =
    method === "analyze"
      ? await api("/analyze", { method: "POST", body: { host, ...(fresh ? { fresh: true } : {}) } })
      : await api(`/crawl/${host}${fresh ? "?fresh=true" : ""}`, { method: "POST" });
  if (a.status !== 202) throw new Error(`POST ${method} ${host}: ${a.status} ${a.text}`);
  return (a.json as { job: { id: number } }).job.id;
}

async function get(api: Api, path: string): Promise<unknown> {
  const a = await api(path);
  if (a.status !== 200) throw new Error(`GET ${path}: ${a.status} ${a.text}`);
  return a.json;
}

/** Every page of a crawl's GET /crawl, paged through. */
async function crawlPages(api: Api, host: string): Promise<{ url: string; status: number; depth: number | null; issues: string[] }[]> {
  const out: { url: string; status: number; depth: number | null; issues: string[] }[] = [];
  for (let offset = 0; ; ) {
    const body = (await get(api, `/crawl/${host}?limit=200&offset=${offset}`)) as { pages: (typeof out)[number][]; page: { total: number } };
    out.push(...body.pages);
    offset += body.pages.length;
    if (body.pages.length === 0 || offset >= body.page.total) return out;
  }
}

// Fields that differ between any two runs by construction: ids, times, measured durations.
const VOLATILE = /^(id|ids|run|run_id|job|job_id|self|created|updated|finished|checked_at|crawled_at|age_s|last_run|last_check|first_seen|last_seen|opened|closed|since|.*_ms|.*_at|duration.*|elapsed.*|time.*)$/;

/** Checks whose value is a measured time: their status counts, the figure does not. */
const MEASURED = new Set(["ttfb"]);

/**
 * The value with the volatile fields removed, everywhere in it. Lists of URLs' records are sorted
 * by URL: a crawl stores pages in the order its concurrent fetches finished.
 */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) {
    const byUrl = value.length > 0 && value.every((v) => typeof (v as { url?: unknown } | null)?.url === "string");
    const list = byUrl ? [...(value as { url: string }[])].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)) : value;
    return list.map(stable);
  }
  if (value !== null && typeof value === "object") {
    const measured = MEASURED.has((value as { code?: string }).code ?? "");
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !VOLATILE.test(k) && !(measured && (k === "value" || k === "detail")))
        .map(([k, v]) => [k, stable(v)]),
    );
  }
  return value;
}

/** What the analysis path's read endpoints answer about a host, without the volatile fields. */
async function reads(api: Api, host: string, crawled: boolean): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {
    report: stable(await get(api, `/report/${host}`)),
    issues: stable(await get(api, `/issues/${host}`)),
    tasks: stable(await get(api, `/tasks/${host}`)),
  };
  if (crawled) {
    out.crawl = stable(await get(api, `/crawl/${host}?limit=200`));
    out.crawlPages = stable(await crawlPages(api, host));
    out.links = stable(await get(api, `/links/${host}`));
  }
  return out;
}

/** The same work through one API: both sites monitored, each analysed, the link-graph site crawled. */
async function analyseAndCrawl(api: Api): Promise<Record<string, Record<string, unknown>>> {
  for (const host of [small.host, graph.host]) {
    const added = await api("/sites", { method: "POST", body: { host } });
    expect(added.status, added.text).toBe(201);
  }
  const jobs = [await start(api, "analyze", small.host), await start(api, "analyze", graph.host)];
  for (const id of jobs) expect(await untilDone(api, id)).toMatchObject({ state: "done", progress: 100 });
  const crawl = await start(api, "crawl", graph.host);
  expect(await untilDone(api, crawl)).toMatchObject({ state: "done", progress: 100 });
  return { small: await reads(api, small.host, false), graph: await reads(api, graph.host, true) };
}

interface Progress {
  readonly state: string;
  readonly progress: number;
  readonly worker: string | null;
  readonly attempt: number;
  readonly stored: number;
}

/** A number a ClickHouse query answers (UInt64 arrives as a string). */
async function clickhouseCount(query: string): Promise<number> {
  const [row] = await (await series.query({ query, format: "JSONEachRow" })).json<{ n: string }>();
  return Number(row?.n ?? Number.NaN);
}

async function progressOf(id: number): Promise<Progress> {
  const { rows } = await db.query<Omit<Progress, "stored">>("SELECT state, progress, worker, attempt FROM jobs WHERE id = $1", [id]);
  const stored = await clickhouseCount(`SELECT count() AS n FROM crawl_pages WHERE job_id = ${Number(id)}`);
  return { ...(rows[0] as Omit<Progress, "stored">), stored };
}

/** Waits until the crawl is past its analysis (progress > 10) and its first pages are stored, and returns who holds it. */
async function crawling(id: number): Promise<Progress & { worker: string }> {
  return waitFor(`crawl ${id} under way`, JOB_MS, async () => {
    const p = await progressOf(id);
    return p.state === "running" && p.progress > 10 && p.stored > 0 && p.worker !== null ? (p as Progress & { worker: string }) : undefined;
  }, 50);
}

/** The crawler process holding the job (its pid is in the worker's name). */
function holder(worker: string) {
  const pid = pidOfWorker(worker);
  const p = cluster.crawlers.find((c) => c.proc.pid === pid);
  if (!p) throw new Error(`no running crawler has pid ${pid} (worker ${worker})`);
  return p;
}

/** Every page of the fan site is stored once for the job, and GET /crawl lists each once. */
async function expectStoredOnce(id: number, site: ServedSite): Promise<void> {
  const expected = FAN.paths.map((path) => site.origin + path).sort();
  const listed = (await crawlPages(cluster.api, site.host)).map((p) => p.url).sort();
  expect(listed).toEqual(expected);
  // Stored exactly once: a count with FINAL equals the page count (a job's rows share a partition).
  expect(await clickhouseCount(`SELECT count() AS n FROM crawl_pages FINAL WHERE job_id = ${Number(id)}`)).toBe(expected.length);
  expect(await clickhouseCount(`SELECT uniqExact(url) AS n FROM crawl_pages WHERE job_id = ${Number(id)}`)).toBe(expected.length);
}

async function outboxBacklog(): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE published IS NULL");
  return rows[0]?.n ?? -1;
}

/** Messages on the dead-letter topic (sum of its partitions' end offsets). */
async function deadLetters(): Promise<number> {
  const offsets = await kafkaAdmin.fetchTopicOffsets(`${PREFIX}${TOPICS.deadLetters}`);
  return offsets.reduce((sum, p) => sum + Number(p.high), 0);
}

/** A metric's value from a process's /metrics (the first sample whose line starts with the prefix). */
async function metric(adminPort: number, prefix: string): Promise<number> {
  const text = (await http(`http://127.0.0.1:${adminPort}/metrics`)).text;
  const line = text.split("\n").find((l) => l.startsWith(prefix));
  if (!line) throw new Error(`no ${prefix} in /metrics`);
  return Number(line.slice(line.lastIndexOf(" ") + 1));
}

/** The value of a sample with these labels (whatever their order, others allowed) from a process's /metrics; -1 when there is none. */
async function sample(adminPort: number, name: string, labels: Record<string, string>): Promise<number> {
  const text = (await http(`http://127.0.0.1:${adminPort}/metrics`)).text;
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : -1;
}

describe("a role started without an engine it needs", () => {
  it("stops at once with exit code 2, naming every missing variable", async () => {
    const dir = await tempDataDir();
    try {
      const never = join(dir.dir, "never-created");
      const env = { SVC_DATA_DIR: never, SVC_ADMIN_PORT: "0", SVC_PORT: "0" };
      const [gateway, scheduler, crawler] = await Promise.all([
        runSvc(["gateway"], { ...env, SVC_SCHEDULER_ADDRESS: "127.0.0.1:7070" }),
        runSvc(["scheduler"], env),
        runSvc(["crawler"], { ...env, SVC_KAFKA_BROKERS: "127.0.0.1:9092" }),
      ]);
      const postgres = "SVC_POSTGRES_URL: svc %s needs a PostgreSQL server, e.g. postgres://svc:pw@db:5432/svc (the embedded store is for `svc serve` only)";
      expect(gateway).toEqual({ code: 2, signal: null, stdout: "", stderr: `svc: invalid configuration:\n  ${postgres.replace("%s", "gateway")}\n` });
      expect(scheduler).toEqual({
        code: 2,
        signal: null,
        stdout: "",
        stderr: `svc: invalid configuration:\n  ${postgres.replace("%s", "scheduler")}\n  SVC_KAFKA_BROKERS: svc scheduler needs Kafka, its bootstrap servers as host:port[,host:port], e.g. kafka:9092\n`,
      });
      expect(crawler).toEqual({
        code: 2,
        signal: null,
        stdout: "",
        stderr: "svc: invalid configuration:\n  SVC_SCHEDULER_ADDRESS: svc crawler needs the scheduler's gRPC address as host:port, e.g. svc-scheduler:7070\n",
      });
      expect(existsSync(never)).toBe(false);
    } finally {
      await dir.remove();
    }
  });
});

// Faults take their time (leases lapse, sessions time out): each test may take up to 2 minutes.
describe("the distributed mode (gateway, scheduler, two crawlers as processes; Postgres, Kafka)", { timeout: 120_000 }, () => {
  it("answers analyses and a crawl exactly as svc serve does", async () => {
    const dir = await tempDataDir();
    try {
      const { env, port, adminPort } = await svcEnvFor(dir.dir, { ...COMMON, SVC_BOOTSTRAP_KEY: KEY });
      const serve = spawnSvc(["serve"], env);
      await waitReady(serve, adminPort, 60_000);
      const embeddedApi: Api = (path, init = {}) => http(`http://127.0.0.1:${port}/api/v1${path}`, { ...init, key: KEY, timeoutMs: init.timeoutMs ?? 10_000 });
      const embedded = await analyseAndCrawl(embeddedApi);
      serve.child.kill("SIGTERM");
      expect(await serve.waitExit(15_000)).toMatchObject({ code: 0 });

      const distributed = await analyseAndCrawl(cluster.api);
      expect(distributed.small).toEqual(embedded.small);
      expect(distributed.graph).toEqual(embedded.graph);
      const pages = distributed.graph!.crawlPages as { url: string }[];
      expect((distributed.graph!.crawl as { summary: { known: number; truncated_by: unknown } }).summary).toMatchObject({ known: pages.length, truncated_by: null });
      // Each crawler process reports its own jobs; together, the three of this test.
      const done = await Promise.all(cluster.crawlers.map((c) => metric(c.adminPort, 'svc_crawler_jobs_completed_total{kind="analyze",outcome="done"').catch(() => 0)));
      const crawled = await Promise.all(cluster.crawlers.map((c) => metric(c.adminPort, 'svc_crawler_jobs_completed_total{kind="crawl",outcome="done"').catch(() => 0)));
      expect([done.reduce((a, b) => a + b, 0), crawled.reduce((a, b) => a + b, 0)]).toEqual([2, 1]);
      // And the fetches behind them: the crawl's pages (some taken from its analysis's sample) and the analyses' fetches.
      const fetched = async (source: string) => (await Promise.all(cluster.crawlers.map((c) => sample(c.adminPort, "svc_crawler_pages_fetched_total", { source })))).reduce((a, b) => a + b, 0);
      const [crawlFetches, analysisFetches] = [await fetched("crawl"), await fetched("analysis")];
      expect(crawlFetches).toBeGreaterThan(0);
      expect(crawlFetches + analysisFetches).toBeGreaterThanOrEqual(pages.length);
      // Every run's per-check results follow into ClickHouse, each check of each run once.
      const runs = (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM runs")).rows[0]?.n;
      expect(runs).toBeGreaterThanOrEqual(3);
      await waitFor("every run's checks in ClickHouse", 20_000, async () => ((await clickhouseCount("SELECT uniqExact(run_id) AS n FROM check_results")) === runs ? true : undefined), 250);
      const checks = await clickhouseCount("SELECT uniqExact(run_id, code) AS n FROM check_results");
      expect(checks).toBeGreaterThan(100 * runs!);
      expect(await clickhouseCount("SELECT count() AS n FROM check_results FINAL")).toBe(checks);
    } finally {
      await dir.remove();
    }
  });

  it("exports every metric its dashboards and alerts use, each documented, and passes promtool check metrics and check rules", async () => {
    const roles = { gateway: cluster.gateway, scheduler: cluster.schedulers[0]!, crawler: cluster.crawlers[0]! };
    const exported = new Set<string>();
    for (const [role, p] of Object.entries(roles)) {
      const text = (await http(`http://127.0.0.1:${p.adminPort}/metrics`)).text;
      expect(promtool(["check", "metrics"], text), role).toEqual({ code: 0, output: "" });
      for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        exported.add(m[1]!);
        if (m[2] === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) exported.add(`${m[1]}${suffix}`);
      }
    }
    const rulesFile = join(REPO_ROOT, "helm/svc/files/alerts.rules.yaml");
    expect(promtool(["check", "rules", rulesFile])).toMatchObject({ code: 0 });
    const used = new Set<string>();
    const dashboards = readdirSync(join(REPO_ROOT, "helm/svc/files/dashboards")).map((f) => readFileSync(join(REPO_ROOT, "helm/svc/files/dashboards", f), "utf8"));
    for (const text of [readFileSync(rulesFile, "utf8"), ...dashboards]) {
      for (const m of text.matchAll(/\b((?:svc|process|nodejs)_[a-z0-9_]+)\b/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
    // docs/metrics.md names every metric of Svc's own that a role exports.
    const docs = readFileSync(join(REPO_ROOT, "docs/metrics.md"), "utf8");
    expect([...exported].filter((name) => name.startsWith("svc_") && !/_(bucket|sum|count)$/.test(name) && !docs.includes(`\`${name}\``))).toEqual([]);
  });

  it("reports each consumer group's Kafka lag and times the store's writes: Postgres transactions, ClickHouse inserts", async () => {
    // Added here, or already by an earlier case (200 with added: false).
    const added = await cluster.api("/sites", { method: "POST", body: { host: small.host } });
    expect([200, 201], added.text).toContain(added.status);
    const id = await start(cluster.api, "analyze", small.host, true);
    expect(await untilDone(cluster.api, id)).toMatchObject({ state: "done" });
    // The gateway wrote the site and the job in transactions; the run's checks (scheduler) and the key's usage (gateway) follow into ClickHouse.
    expect(await sample(cluster.gateway.adminPort, "svc_store_write_duration_seconds_count", { engine: "postgres", target: "transaction", outcome: "ok" })).toBeGreaterThan(0);
    const stores = [cluster.gateway, ...cluster.schedulers];
    await waitFor("a ClickHouse insert timed", 40_000, async () => {
      const n = await Promise.all(stores.map((p) => sample(p.adminPort, "svc_store_write_duration_seconds_count", { engine: "clickhouse", outcome: "ok" })));
      return n.reduce((a, b) => a + b, 0) > 0 ? true : undefined;
    }, 500);
    // With the work done and committed, every crawler reports its group 0 messages behind on the
    // work topic (sampled at most every 15 s), and the scheduler its group on the results topic.
    for (const c of cluster.crawlers) {
      await waitFor("the crawlers' work lag back to 0", 40_000, async () => ((await sample(c.adminPort, "svc_kafka_consumer_lag", { topic: TOPICS.work, group: "crawler" })) === 0 ? true : undefined), 1000);
    }
    await waitFor("the scheduler's results lag back to 0", 40_000, async () => ((await sample(cluster.schedulers[0]!.adminPort, "svc_kafka_consumer_lag", { topic: TOPICS.results, group: "scheduler" })) === 0 ? true : undefined), 1000);
  });

  it("follows a crawl started with a traceparent: log lines with its trace id in the gateway, the scheduler and the crawler that ran it, and their spans as one trace", async () => {
    const trace = randomBytes(16).toString("hex");
    const caller = randomBytes(8).toString("hex");
    const answer = await fetch(`http://127.0.0.1:${cluster.gateway.env.SVC_PORT}/api/v1/crawl/${small.host}?fresh=true`, {
      method: "POST",
      headers: { "x-api-key": KEY, traceparent: `00-${trace}-${caller}-01` },
    });
    expect(answer.status).toBe(202);
    const id = ((await answer.json()) as { job: { id: number } }).job.id;
    expect(await untilDone(cluster.api, id)).toMatchObject({ state: "done" });

    const traced = (p: { proc: { stdout(): string } }) =>
      p.proc
        .stdout()
        .split("\n")
        .filter((l) => l.includes(`"trace_id":"${trace}"`))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(traced(cluster.gateway)).toContainEqual(expect.objectContaining({ msg: "request answered", method: "POST", route: "/api/v1/crawl/:host", status: 202, job_id: id }));
    const scheduler = cluster.schedulers.flatMap(traced);
    for (const rpc of ["StartCrawl", "Lease", "Complete"]) expect(scheduler, rpc).toContainEqual(expect.objectContaining({ rpc, code: 0, job_id: id }));
    // One crawler ran it (the other has no line of this trace), and every line of its work names the job.
    const byCrawler = cluster.crawlers.map(traced).filter((lines) => lines.length > 0);
    expect(byCrawler).toHaveLength(1);
    expect(byCrawler[0]).toContainEqual(expect.objectContaining({ msg: "job attempt finished", job_id: id, kind: "crawl", outcome: "done" }));
    expect(byCrawler[0]!.filter((l) => l.job_id !== id)).toEqual([]);

    // The spans of all three roles reach the collector as one trace: each one's parent is the
    // caller's span or another span of the trace.
    const spans = await waitFor("spans of the three roles", 20_000, async () => {
      const of = otlp.spans.filter((s) => s.traceId === trace);
      const services = new Set(of.map((s) => s.service));
      return ["svc-gateway", "svc-scheduler", "svc-crawler"].every((r) => services.has(r)) && of.some((s) => s.name === "grpc Complete" && s.kind === 2) ? of : undefined;
    }, 250);
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s.parentSpanId !== caller && !ids.has(s.parentSpanId))).toEqual([]);
    const names = (service: string) => new Set(spans.filter((s) => s.service === service).map((s) => s.name));
    expect([...names("svc-gateway")]).toEqual(expect.arrayContaining(["POST /api/v1/crawl/:host", "grpc StartCrawl"]));
    expect([...names("svc-scheduler")]).toEqual(expect.arrayContaining(["grpc StartCrawl", "publish svc.work.v1", "grpc Lease", "grpc Complete"]));
    expect([...names("svc-crawler")]).toEqual(expect.arrayContaining(["consume svc.work.v1", "job attempt", "grpc Lease", "grpc Complete"]));
    // Only the request's root span hangs from the caller's.
    expect(spans.filter((s) => s.parentSpanId === caller).map((s) => [s.service, s.name])).toEqual([["svc-gateway", "POST /api/v1/crawl/:host"]]);
  });

  it("finishes a crawl whose crawler is killed with SIGKILL mid-way: another resumes it, every page stored once", async () => {
    const id = await start(cluster.api, "crawl", slow.host, true);
    const before = await crawling(id);
    expect((await jobOf(cluster.api, id)).progress).toBeGreaterThan(10);
    const victim = holder(before.worker);
    expect(await cluster.kill(victim)).toEqual({ code: null, signal: "SIGKILL" });

    expect(await untilDone(cluster.api, id)).toMatchObject({ state: "done", progress: 100 });
    // The lease lapsed and a second attempt, on the other node, resumed from the stored pages.
    expect((await progressOf(id)).attempt).toBe(2);
    await expectStoredOnce(id, slow);
    await cluster.restart(victim);
  });

  it("drains a crawler on SIGTERM: it exits 0, hands its crawl back, and the crawl completes elsewhere", async () => {
    const id = await start(cluster.api, "crawl", slower.host, true);
    const before = await crawling(id);
    const victim = holder(before.worker);
    // Exit code 0 means within SVC_SHUTDOWN_GRACE_MS (after it the process exits with 1).
    expect(await cluster.stop(victim)).toEqual({ code: 0, signal: null });
    expect(victim.proc.stdout()).toContain('"msg":"draining"');

    expect(await untilDone(cluster.api, id)).toMatchObject({ state: "done", progress: 100 });
    expect((await progressOf(id)).attempt).toBe(2);
    await expectStoredOnce(id, slower);
    // The closing worker's refusals were left for another node, never dead-lettered.
    expect(await deadLetters()).toBe(0);
    await cluster.restart(victim);
  });

  it("finishes a crawl across a restart of the scheduler: the same attempt rides it out, and a POST in the gap answers 503 with Retry-After", async () => {
    const id = await start(cluster.api, "crawl", slow.host, true);
    await crawling(id);
    const [scheduler] = cluster.schedulers;
    expect(await cluster.stop(scheduler!)).toEqual({ code: 0, signal: null });
    const gap = await cluster.api("/analyze", { method: "POST", body: { host: small.host, fresh: true } });
    expect([gap.status, (gap.json as { code?: string }).code, gap.headers.get("retry-after")]).toEqual([503, "maintenance", "2"]);
    const again = await cluster.restart(scheduler!);

    expect(await untilDone(cluster.api, id)).toMatchObject({ state: "done", progress: 100 });
    // The crawler's calls waited for the scheduler (its lease granted back at the restart): no failover.
    expect((await progressOf(id)).attempt).toBe(1);
    expect(again.proc.stdout()).toContain('"msg":"running jobs\' leases extended at start"');
    await expectStoredOnce(id, slow);
    // The gateway's client found the restarted scheduler again.
    const analysis = await start(cluster.api, "analyze", small.host, true);
    expect(await untilDone(cluster.api, analysis)).toMatchObject({ state: "done" });
  });

  it("loses nothing while Kafka is away for a few seconds: work waits in the outbox and resumes", async () => {
    const crawl = await start(cluster.api, "crawl", slow.host, true);
    await crawling(crawl);
    await kafka.stopTemporarily("graceful");
    const analysis = await start(cluster.api, "analyze", small.host, true);
    const [scheduler] = cluster.schedulers;
    await waitFor("the analysis waiting in the outbox", 15_000, async () => ((await outboxBacklog()) === 1 ? true : undefined));
    expect(await metric(scheduler!.adminPort, "svc_scheduler_outbox_backlog")).toBe(1);
    expect((await http(`http://127.0.0.1:${scheduler!.adminPort}/readyz`)).status).toBe(503);
    await kafka.restart();

    expect(await untilDone(cluster.api, crawl)).toMatchObject({ state: "done", progress: 100 });
    expect(await untilDone(cluster.api, analysis)).toMatchObject({ state: "done", progress: 100 });
    expect(await outboxBacklog()).toBe(0);
    expect(await deadLetters()).toBe(0);
    await expectStoredOnce(crawl, slow);
    await waitReady(scheduler!.proc, scheduler!.adminPort, 30_000);
  });

  it("plans each due site's periodic re-check once while two schedulers plan every second", async () => {
    const [first] = cluster.schedulers;
    expect(await cluster.stop(first!)).toEqual({ code: 0, signal: null });
    await Promise.all([cluster.restart(first!, { SVC_PLAN_EVERY_S: "1" }), cluster.startScheduler({ SVC_PLAN_EVERY_S: "1" })]);
    expect(cluster.schedulers).toHaveLength(2);

    const sites = await Promise.all([startSmallSite(), startSmallSite(), startSmallSite()]);
    extraSites.push(...sites);
    for (const site of sites) expect((await cluster.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    const hosts = sites.map((s) => s.host).sort();
    const scheduled = async () =>
      (await db.query<{ host: string; state: string }>("SELECT host, state FROM jobs WHERE origin = 'schedule' ORDER BY host, id")).rows;
    await waitFor("a scheduled check of each new site done", JOB_MS, async () => {
      const rows = await scheduled();
      return hosts.every((h) => rows.some((r) => r.host === h && r.state === "done")) ? true : undefined;
    }, 200);
    // Several more planning rounds of both schedulers: nothing is due any more.
    await new Promise((r) => setTimeout(r, 3500));
    expect(await scheduled()).toEqual(hosts.map((host) => ({ host, state: "done" })));
  });

  it("probes a monitored site's uptime through the stream lane (Kafka both ways) and serves it", async () => {
    const site = await startSmallSite();
    extraSites.push(site);
    expect((await cluster.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    // An analysis resolves the home URL the probes use (http:// here).
    const analysed = await start(cluster.api, "analyze", site.host);
    expect((await untilDone(cluster.api, analysed)).state).toBe("done");
    const slotNow = async () => {
      // The planner brings the site into the targets (with its analysed URL) within a few passes;
      // its next slot is then moved to now rather than waited for (up to an interval away).
      await waitFor("the site's uptime target", 60_000, async () => ((await db.query("SELECT 1 FROM uptime_targets WHERE host = $1 AND url LIKE 'http://%'", [site.host])).rows.length > 0 ? true : undefined), 250);
      await db.query("UPDATE uptime_targets SET next_slot = extract(epoch from now())::bigint WHERE host = $1", [site.host]);
    };
    const settled = (state: string) =>
      waitFor(`the site ${state}`, 60_000, async () => {
        const u = (await get(cluster.api, `/uptime/${site.host}`)) as { up: boolean | null; state: string; last_check: number | null };
        return u.state === state ? u : undefined;
      }, 250);
    await slotNow();
    expect(await settled("up")).toMatchObject({ up: true });
    // The home page goes: 404. The failure is confirmed by a second probe before it is a down.
    site.pages.delete("/");
    await slotNow();
    expect(await settled("down")).toMatchObject({ up: false });
    // Raw probes live in ClickHouse in this mode (with hourly and daily rollups), none in Postgres.
    const probes = await (
      await series.query({ query: `SELECT confirm, ok, node FROM uptime_probes FINAL WHERE host = '${site.host}' ORDER BY at, confirm`, format: "JSONEachRow" })
    ).json<{ confirm: number; ok: number; node: string }>();
    expect(probes.map((p) => [p.confirm, p.ok])).toEqual([
      [0, 1],
      [0, 0],
      [1, 0],
    ]);
    expect(probes.every((p) => p.node.startsWith("crawler"))).toBe(true);
    // The confirmation ran on the other crawler node, as a second location would confirm.
    expect(probes[2]?.node).not.toBe(probes[1]?.node);
    expect(await clickhouseCount(`SELECT sum(probes) AS n FROM uptime_hourly WHERE host = '${site.host}'`)).toBe(3);
    expect((await db.query("SELECT 1 FROM uptime_probes WHERE host = $1", [site.host])).rows).toEqual([]);
    const uptime = (await get(cluster.api, `/uptime/${site.host}`)) as { last_timings: { total_ms: number } | null };
    expect(uptime.last_timings?.total_ms).toBeGreaterThan(0);
    const incidents = (await get(cluster.api, `/incidents?host=${site.host}`)) as { incidents: { kind: string; status: string; cause: string }[] };
    expect(incidents.incidents).toEqual([expect.objectContaining({ kind: "down", status: "open", cause: "http: http 404" })]);
    const ran = await Promise.all(cluster.crawlers.map((c) => metric(c.adminPort, 'svc_uptime_probes_total{outcome="down"').catch(() => 0)));
    expect(ran.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
  });

  it("runs a probe lost with its crawler (SIGKILL mid-probe) on another node, late, and opens no incident for the kill", async () => {
    const site = await startSmallSite();
    extraSites.push(site);
    expect((await cluster.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    const analysed = await start(cluster.api, "analyze", site.host);
    expect((await untilDone(cluster.api, analysed)).state).toBe("done");
    await waitFor("the site's uptime target", 60_000, async () => ((await db.query("SELECT 1 FROM uptime_targets WHERE host = $1 AND url LIKE 'http://%'", [site.host])).rows.length > 0 ? true : undefined), 250);
    const lastCheck = async () => Number((await db.query<{ c: string | null }>("SELECT last_check AS c FROM uptime_targets WHERE host = $1", [site.host])).rows[0]?.c ?? 0);
    const slotNow = async () => {
      const slot = (await db.query<{ s: string }>("UPDATE uptime_targets SET next_slot = extract(epoch from now())::bigint WHERE host = $1 RETURNING next_slot AS s", [site.host])).rows[0]?.s;
      return Number(slot);
    };
    await slotNow();
    await waitFor("the first probe", 60_000, async () => ((await lastCheck()) > 0 ? true : undefined), 250);

    // The next probe finds the home page slow (8 s, under the probe's 10 s timeout): it is in flight
    // on the node that owns the domain's partition when that node is killed.
    site.holdNext("/", 8000);
    const slot = await slotNow();
    const victim = await waitFor("a crawler running the probe", 30_000, async () => {
      for (const c of cluster.crawlers) if ((await metric(c.adminPort, 'svc_crawler_stream_batches_in_flight{kind="probe"').catch(() => 0)) > 0) return c;
      return undefined;
    }, 100);
    expect(await cluster.kill(victim)).toEqual({ code: null, signal: "SIGKILL" });

    // Kafka hands the unanswered batch to the other node, which probes the same slot, late.
    const rows = await waitFor("the slot's probe, from the other node", 90_000, async () => {
      const r = await (await series.query({ query: `SELECT node, ok, late_ms FROM uptime_probes FINAL WHERE host = '${site.host}' AND slot = ${slot}`, format: "JSONEachRow" })).json<{ node: string; ok: number; late_ms: number }>();
      return r.length > 0 ? r : undefined;
    }, 500);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ok: 1 });
    expect(pidOfWorker(rows[0]?.node ?? "")).not.toBe(victim.proc.pid);
    const uptime = (await get(cluster.api, `/uptime/${site.host}`)) as { state: string; up: boolean; incidents: unknown[] };
    expect(uptime).toMatchObject({ state: "up", up: true, incidents: [] });
    await cluster.restart(victim);
  });

  it("delivers a subscribed event once, signed, through a crawler, while two schedulers plan", async () => {
    expect(cluster.schedulers).toHaveLength(2);
    const created = await cluster.api("/webhooks", { method: "POST", body: { url: `${receiver.origin}/cluster`, events: ["events"], hosts: [small.host] } });
    expect(created.status, created.text).toBe(201);
    const hook = created.json as { id: number; secret: string };
    receiver.secrets.add(hook.secret);
    const id = await start(cluster.api, "analyze", small.host, true);
    await untilDone(cluster.api, id);
    // The analysis's own event (task or rank events of the run may come besides).
    const ofJob = (r: { body: Record<string, unknown> }) => (r.body.events as { type: string; data: { job?: number } }[])[0]?.data.job === id;
    const got = await waitFor("the analysis's event at the receiver", 30_000, async () => receiver.on("/cluster").find(ofJob), 100);
    expect(got.verifiedWith).toBe(hook.secret);
    expect(got.headers["x-svc-event"]).toBe("events");
    expect(got.body).toMatchObject({ type: "events", host: small.host, event: "events" });
    // More planning rounds of both schedulers: no attempt is sent twice.
    await new Promise((r) => setTimeout(r, 2500));
    const received = receiver.on("/cluster");
    expect(received.every((r) => r.verifiedWith === hook.secret)).toBe(true);
    const ids = received.map((r) => Number(r.headers["x-svc-delivery"]));
    expect(new Set(ids).size).toBe(ids.length);
    const log = (await get(cluster.api, `/webhooks/${hook.id}/deliveries`)) as { deliveries: { id: number; status: string; attempts: number; code: number }[] };
    expect(log.deliveries.map((d) => d.id).sort()).toEqual([...ids].sort());
    expect(log.deliveries.every((d) => d.status === "delivered" && d.attempts === 1 && d.code === 200)).toBe(true);
  });

  it("runs a network utility on a crawler node through the sync lane and keeps neither its input nor its output", async () => {
    const probe = "<!DOCTYPE html><title>Utility probe</title>";
    small.pages.set("/utility-probe-5d1c", probe);
    const res = await cluster.api("/utilities/http_headers", { method: "POST", body: { input: { url: `${small.url}/utility-probe-5d1c`, ua: "yandexbot" } }, timeoutMs: 30_000 });
    expect(res.status, res.text).toBe(200);
    const body = res.json as { result: { headers: { name: string; value: string }[] } };
    expect(body).toMatchObject({ result: { url: `${small.url}/utility-probe-5d1c`, reachable: true, status: 200, http_version: "1.1", ip: "127.0.0.1", bytes: Buffer.byteLength(probe) } });
    expect(body.result.headers.find((h) => h.name === "content-type")?.value).toBe("text/html; charset=utf-8");
    // One of the crawler processes ran it as a utility job.
    const ran = await Promise.all(cluster.crawlers.map((c) => metric(c.adminPort, 'svc_crawler_jobs_completed_total{kind="utility",outcome="done"').catch(() => 0)));
    expect(ran.reduce((a, b) => a + b, 0)).toBe(1);
    const jobs = (await db.query<{ host: string; target: string | null; task: Uint8Array | null; result: unknown }>("SELECT host, target, task, result FROM jobs WHERE kind = 'utility'")).rows;
    expect(jobs).toEqual([{ host: "utilities.invalid", target: null, task: null, result: null }]);
  });

  it("diagnoses the analysed site on the Postgres server and shows it in /today", async () => {
    const report = (await get(cluster.api, `/report/${small.host}`)) as { checked_at: number; rank: { value: number } };
    const { diagnosis } = (await get(cluster.api, `/diagnosis/${small.host}`)) as {
      diagnosis: { host: string; checked_at: number; level: string; health: number; dynamics: { rank: { value: number } }; completeness: { sources: { source: string; present: boolean }[] } };
    };
    expect(diagnosis).toMatchObject({ host: small.host, checked_at: report.checked_at, dynamics: { rank: { value: report.rank.value } } });
    expect(diagnosis.completeness.sources[0]).toEqual({ source: "report", present: true });
    const today = (await get(cluster.api, "/today")) as { sites: { host: string; level: string; health: number; rank: number }[] };
    expect(today.sites.find((s) => s.host === small.host)).toMatchObject({ level: diagnosis.level, health: diagnosis.health, rank: report.rank.value });
  });

  it("re-checks a task of the analysed site through the distributed path, then answers the next from the fresh report", async () => {
    const tasks = (await get(cluster.api, `/tasks/${small.host}`)) as { tasks: { id: number; code: string; status: string }[] };
    const task = tasks.tasks.find((t) => t.code === "description_present");
    expect(task?.status).toBe("open");
    const recheck = async () => {
      const res = await cluster.api(`/tasks/${task!.id}/recheck`, { method: "POST", timeoutMs: 60_000 });
      expect(res.status, res.text).toBe(200);
      return res.json as { task: { id: number; status: string }; outcome: string; reused_fresh_report: boolean; rank_from: number; rank_to: number };
    };
    // The site is unchanged: still failing, whether its report was fresh enough or a run answered.
    const first = await recheck();
    expect(first).toMatchObject({ task: { id: task!.id, status: "open" }, outcome: "still" });
    const second = await recheck();
    expect(second).toMatchObject({ outcome: "still", reused_fresh_report: true, rank_to: first.rank_to });
  });

  it("re-checks a robots.txt task with the recheck kind's look on a crawler node: no analysis, no report", async () => {
    const site = await startSmallSite();
    extraSites.push(site);
    site.pages.set("/robots.txt", "User-agent: *\nAllow: /\n");
    expect((await cluster.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    expect(await untilDone(cluster.api, await start(cluster.api, "analyze", site.host, true))).toMatchObject({ state: "done" });
    const task = ((await get(cluster.api, `/tasks/${site.host}`)) as { tasks: { id: number; code: string }[] }).tasks.find((t) => t.code === "sitemap_in_robots");
    // The report is made older than the two minutes a re-check reuses it for (this site's run only).
    await db.query("UPDATE runs SET checked_at = checked_at - 600 WHERE host = $1", [site.host]);
    site.pages.set("/robots.txt", `User-agent: *\nAllow: /\nSitemap: ${site.url}/sitemap.xml\n`);
    const res = await cluster.api(`/tasks/${task!.id}/recheck`, { method: "POST", timeoutMs: 60_000 });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ task: { id: task!.id, status: "done" }, outcome: "fixed", reused_fresh_report: false, ran: "robots" });
    const jobs = (await db.query<{ kind: string; state: string }>("SELECT kind, state FROM jobs WHERE host = $1 ORDER BY id", [site.host])).rows;
    expect(jobs).toEqual([
      { kind: "analyze", state: "done" },
      { kind: "recheck", state: "done" },
    ]);
    expect((await db.query("SELECT count(*)::int AS n FROM runs WHERE host = $1", [site.host])).rows[0].n).toBe(1);
  });

  it("imports SERP snapshots, rank checks, daily facts, indexing and market reports into ClickHouse and serves them from there", async () => {
    const site = await startSmallSite();
    extraSites.push(site);
    expect((await cluster.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    const list = (day: string, domains: string[]) => Object.fromEntries(domains.map((d, i) => [`${day}:${i + 1}:1`, { url: `https://${d}/`, domain: d }]));
    const snap = { result: { keywords: [{ name: "диван", snapshotsData: { ...list("2026-11-01", ["127.0.0.1", "rival.ru"]), ...list("2026-11-08", ["rival.ru", "127.0.0.1"]) } }] } };
    const imported = await cluster.api(`/imports/${site.host}`, { method: "POST", body: { file: Buffer.from(JSON.stringify(snap)).toString("base64"), file_name: "snapshots.json" } });
    expect(imported.status).toBe(201);
    const id = (imported.json as { import: { id: number } }).import.id;
    expect(await clickhouseCount(`SELECT count() AS n FROM serp_snapshots WHERE import_id = ${id}`)).toBe(4);
    expect((await db.query("SELECT count(*)::int AS n FROM serp_snapshots")).rows[0].n).toBe(0);
    // 11-01: 127.0.0.1 at 1 = 100 %, rival.ru at 2 = 15.7/28.5 = 55.09 %; 11-08 the other way round.
    expect(await get(cluster.api, `/competitors/${site.host}/history?points=2`)).toMatchObject({
      valid_points: 2,
      checked_queries: 1,
      my_share: { domain: "127.0.0.1", shares: [100, 55.09] },
      movers: [{ domain: "rival.ru", first: 55.09, last: 100, change: 44.91 }],
    });
    // Rank checks and a GSC chart go to ClickHouse too: /positions and /traffic read them there.
    const tv = { result: { keywords: [{ name: "диван", positionsData: { "2026-11-01:9:1": { position: "5" }, "2026-11-08:9:1": { position: "12" } } }] } };
    const chart = `Date,Clicks,Impressions,CTR,Position\n2026-11-01,40,400,10%,3\n2026-11-02,60,600,10%,5\n`;
    for (const [file, name] of [[JSON.stringify(tv), "positions.json"], [chart, "Chart.csv"]] as const) {
      expect((await cluster.api(`/imports/${site.host}`, { method: "POST", body: { file: Buffer.from(file).toString("base64"), file_name: name } })).status).toBe(201);
    }
    expect(await clickhouseCount(`SELECT count() AS n FROM rank_checks WHERE host = '${site.host}'`)).toBe(2);
    expect(await clickhouseCount(`SELECT sum(clicks) AS n FROM search_daily WHERE host = '${site.host}'`)).toBe(100);
    expect((await db.query("SELECT (SELECT count(*) FROM rank_checks) + (SELECT count(*) FROM search_daily) AS n")).rows[0].n).toBe("0");
    expect(((await get(cluster.api, `/positions/${site.host}`)) as { keywords: unknown[] }).keywords).toMatchObject([{ query: "диван", position: 12, week_ago: 5, change_week: -7, trend: "down" }]);
    expect(await get(cluster.api, `/traffic/${site.host}`)).toMatchObject({ source: "gsc", days: 2 });
    // Indexing (Yandex pages in search) and market reports (Keys.so) go to ClickHouse too, none to Postgres.
    const pages = `updateDate,url,httpCode,status,target,lastAccess,title,event\n2026-11-10,https://${site.host}/a,200,SEARCHABLE,,2026-11-09,A,\n2026-11-10,https://${site.host}/b,404,HTTP_ERROR,,2026-11-09,,DELETE\n`;
    const keys = JSON.stringify({ base: "msk", data: [{ word: "диван", pos: 3, wsk: 1000, ws: 3000, url: "https://rival.ru/d" }, { word: "кресло", pos: 7, wsk: 500, ws: 1500, url: "https://rival.ru/k" }] });
    for (const [file, name] of [[pages, "pages.csv"], [keys, "rival.json"]] as const) {
      expect((await cluster.api(`/imports/${site.host}`, { method: "POST", body: { file: Buffer.from(file).toString("base64"), file_name: name } })).status).toBe(201);
    }
    expect(await clickhouseCount(`SELECT count() AS n FROM index_urls WHERE host = '${site.host}'`)).toBe(2);
    expect(await clickhouseCount(`SELECT count() AS n FROM market_keywords WHERE host = '${site.host}'`)).toBe(2);
    expect((await db.query("SELECT (SELECT count(*) FROM index_urls WHERE host = $1) + (SELECT count(*) FROM market_keywords WHERE host = $1) AS n", [site.host])).rows[0].n).toBe("0");
    expect(await get(cluster.api, `/indexing/${site.host}`)).toMatchObject({ yandex: { searchable: 1, excluded: 1 } });
    expect(await get(cluster.api, `/keyword-gap/${site.host}?kind=missing`)).toMatchObject({ data_state: "fresh", total: 2 });
    expect((await cluster.api(`/imports/batches/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(await get(cluster.api, `/competitors/${site.host}/history`)).toMatchObject({ data_state: "missing", rivals: [] });
  });

  it("imports a 6 MB file (above SVC_IMPORT_SYNC_MAX_MB) as a job held by the gateway, alongside the scheduler's stale-job sweeps; 200,000 backlinks go to ClickHouse too", async () => {
    const site = await startSmallSite();
    extraSites.push(site);
    expect((await cluster.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    // 200,000 queries, about 6 MB: above the 5 MB default, so a 202 and a job of kind import.
    const rows = Array.from({ length: 200_000 }, (_, i) => `query number ${i},${i === 0 ? 500 : 1},${i === 0 ? 1000 : 10},1%,2`);
    const csv = `Top queries,Clicks,Impressions,CTR,Position\n${rows.join("\n")}\n`;
    expect(Buffer.byteLength(csv)).toBeGreaterThan(5 * 1024 * 1024);
    const posted = await cluster.api(`/imports/${site.host}`, { method: "POST", body: { file: Buffer.from(csv).toString("base64"), file_name: "Queries.csv" }, timeoutMs: 60_000 });
    expect(posted.status).toBe(202);
    const jobId = (posted.json as { job: { id: number; kind: string } }).job.id;
    expect((posted.json as { job: { kind: string } }).job.kind).toBe("import");
    // The scheduler sweeps stale jobs every lease (3 s here); an import job never reaches the bus.
    const job = await waitFor("the import job to finish", 90_000, async () => {
      const j = ((await get(cluster.api, `/jobs/${jobId}`)) as { job: { state: string; result: { import: number } | null; error: unknown } }).job;
      return j.state === "done" || j.state === "error" ? j : undefined;
    }, 500);
    expect(job).toMatchObject({ state: "done", error: null });
    // One attempt, held by the gateway all along (queued again, it would have lost its gateway and never finished).
    expect((await db.query("SELECT attempt, kind FROM jobs WHERE id = $1", [jobId])).rows[0]).toEqual({ attempt: 1, kind: "import" });
    const batches = ((await get(cluster.api, `/imports/${site.host}`)) as { imports: { id: number; rows: number }[] }).imports;
    expect(batches).toMatchObject([{ id: job.result!.import, rows: 200_000 }]);
    expect(await get(cluster.api, `/queries/${site.host}?limit=1`)).toMatchObject({ queries: [{ query: "query number 0", clicks: 500, impressions: 1000, ctr: 50, position: 2 }], page: { total: 200_000 } });
    // The period sums went to ClickHouse (SearchPeriodSeries), none to the Postgres table.
    expect(await clickhouseCount(`SELECT count() AS n FROM search_period WHERE import_id = ${job.result!.import}`)).toBe(200_000);
    expect((await db.query("SELECT count(*)::int AS n FROM search_period WHERE import_id = $1", [job.result!.import])).rows[0].n).toBe(0);
    // GET /jobs lists the gateway-held import job as GET /jobs/{id} shows it.
    const listed = ((await get(cluster.api, "/jobs?limit=100")) as { jobs: { id: number; kind: string; state: string }[] }).jobs.find((j) => j.id === jobId);
    expect(listed).toMatchObject({ kind: "import", state: "done", result: { import: job.result!.import, created: true } });
    // 200,000 backlinks (Semrush CSV, about 9 MB: a job too) go to ClickHouse (BacklinkSeries), none to Postgres.
    const links = Array.from({ length: 200_000 }, (_, i) => `${i === 7 ? 99 : i % 50},https://s${i}.example/p,https://${site.host}/,a${i},${i % 4 === 0 ? "true" : "false"}`);
    const linkCsv = `Page ascore,Source url,Target url,Anchor,Lost link,Last seen\n${links.map((l) => `${l},2026-11-01`).join("\n")}\n`;
    const linkPost = await cluster.api(`/imports/${site.host}`, { method: "POST", body: { file: Buffer.from(linkCsv).toString("base64"), file_name: "backlinks.csv" }, timeoutMs: 60_000 });
    expect(linkPost.status).toBe(202);
    const linkJobId = (linkPost.json as { job: { id: number } }).job.id;
    const linkJob = await waitFor("the backlinks import job to finish", 90_000, async () => {
      const j = ((await get(cluster.api, `/jobs/${linkJobId}`)) as { job: { state: string; result: { import: number } | null; error: unknown } }).job;
      return j.state === "done" || j.state === "error" ? j : undefined;
    }, 500);
    expect(linkJob).toMatchObject({ state: "done", error: null });
    const linkBatch = linkJob.result!.import;
    // Every fourth link is lost: 150,000 live, 50,000 lost; the best rated live link first.
    expect(await get(cluster.api, `/backlinks/${site.host}?limit=1`)).toMatchObject({ links: [{ source: "https://s7.example/p", source_rating: 99, provider: "semrush" }], page: { total: 150_000 } });
    expect(await get(cluster.api, `/backlinks/${site.host}?state=lost&limit=1`)).toMatchObject({ page: { total: 50_000 } });
    expect(await clickhouseCount(`SELECT count() AS n FROM backlinks WHERE host = '${site.host}' AND import_id = ${linkBatch}`)).toBe(200_000);
    expect((await db.query("SELECT count(*)::int AS n FROM backlinks WHERE host = $1", [site.host])).rows[0].n).toBe(0);
    // Deleting the batch takes its links from the answer at once (ClickHouse's mutation follows).
    expect((await cluster.api(`/imports/batches/${linkBatch}`, { method: "DELETE" })).status).toBe(200);
    expect(await get(cluster.api, `/backlinks/${site.host}`)).toMatchObject({ data_state: "missing", links: [], page: { total: 0 } });
  });

  it("keeps a crawl's page facts in a file on its crawler only while it crawls: a SIGKILLed crawler's file is swept when it starts again, and the resumed crawl's results match the site", async () => {
    // A fan site of this test's own: other cases crawl the shared ones.
    const site = await serveFanSite(FAN, "127.0.0.1", SLOW_MS);
    try {
      // The crawlers' folder of facts files (crawler/crawl/facts-file.ts): svc-crawl-facts in their
      // temp dir, /tmp (spawnSvc passes no TMPDIR), each file named by its process's pid, job and attempt.
      const folder = join("/tmp", "svc-crawl-facts");
      const filesOf = (pid: number) => readdirSync(folder).filter((name) => name.startsWith(`svc-crawl-facts-${pid}-${id}-`));
      const id = await start(cluster.api, "crawl", site.host, true);
      const victim = holder((await crawling(id)).worker);
      const [file] = filesOf(victim.proc.pid);
      expect(file).toMatch(new RegExp(`^svc-crawl-facts-${victim.proc.pid}-${id}-1-[0-9a-f]+$`));
      expect(await cluster.kill(victim)).toEqual({ code: null, signal: "SIGKILL" });
      // Nobody removed it: the process that would have is gone.
      expect(existsSync(join(folder, file!))).toBe(true);
      const again = await cluster.restart(victim);
      // Swept by the restarted node before it took work (its pid is not the one in the name).
      expect(existsSync(join(folder, file!))).toBe(false);
      expect(await untilDone(cluster.api, id)).toMatchObject({ state: "done", progress: 100 });
      expect((await progressOf(id)).attempt).toBe(2);
      // The attempt that finished removed its own file too: no crawler holds one of this job.
      for (const c of [...cluster.crawlers, again]) expect(filesOf(c.proc.pid)).toEqual([]);
      // Its results are the site's, read back from the file: every page once, each known URL counted.
      await expectStoredOnce(id, site);
      const { summary } = (await get(cluster.api, `/crawl/${site.host}?limit=1`)) as { summary: { known: number; urls: number; truncated_by: unknown } };
      expect(summary).toMatchObject({ known: FAN.paths.length, urls: FAN.paths.length, truncated_by: null });
    } finally {
      await site.close();
    }
  });

  // Keep this test last: it leaves both crawlers measuring in the browser (restarting them again
  // would double its time).
  it("measures a site in the browser on a crawler node, serves it, and keeps its metrics in ClickHouse's series", async () => {
    // Both crawlers with the browser on: whichever takes the job measures.
    const browserEnv = { SVC_BROWSER: "auto", SVC_BROWSER_PATH: chromiumPath(), SVC_BROWSER_PAGES: "1", SVC_BROWSER_PROFILES: "mobile" };
    const crawlers = [...cluster.crawlers];
    await Promise.all(crawlers.map((c) => cluster.stop(c)));
    const measuring = await Promise.all(crawlers.map((c) => cluster.restart(c, browserEnv)));
    const id = await start(cluster.api, "analyze", small.host, true);
    expect(await untilDone(cluster.api, id)).toMatchObject({ state: "done" });
    const perf = (await get(cluster.api, `/performance/${small.host}`)) as { browser_state: string; browser: { device: string; url: string; error: string; fcp_ms: number }[] };
    expect(perf.browser_state).toBe("measured");
    expect(perf.browser.map((b) => [b.device, b.url, b.error])).toEqual([["mobile", `${small.url}/`, ""]]);
    expect(perf.browser[0]!.fcp_ms).toBeGreaterThan(0);
    // The crawler that ran the analysis measured its page; by now the schedulers' periodic
    // re-checks of the cluster's other sites may have been measured too (the count is per node).
    const measured = await Promise.all(measuring.map((c) => metric(c.adminPort, 'svc_browser_pages_total{outcome="measured"').catch(() => 0)));
    expect(measured.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const code = "browser:mobile:fcp_ms:/";
    await waitFor("the browser's series in ClickHouse", 20_000, async () => ((await clickhouseCount(`SELECT count() AS n FROM check_results FINAL WHERE host = '${small.host}' AND code = '${code}'`)) === 1 ? true : undefined), 250);
  });
});
