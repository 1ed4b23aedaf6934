import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fanSite, pidOfWorker, serveFanSite, startCluster, type Cluster, type RoleProcess, type ServedSite } from "../harness/cluster.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { startKafka, type KafkaBroker } from "../harness/kafka.ts";
import { startPostgres, type PostgresServer } from "../harness/postgres.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { http, waitFor, type Answer } from "../harness/svc-process.ts";

// Engine outages as an operator meets them (issue 35 §1, §2): the distributed mode (gateway,
// scheduler, one crawler as processes) on a Postgres server, a ClickHouse server and a Kafka broker
// of this file's own, so that each can really be stopped and started again: pg_ctl stop -m fast and
// start (1 s without Postgres), ClickHouse SIGTERMed for 20 s, the broker stopped for 30 s, the
// scheduler restarted, the crawler stopped with SIGTERM (Chromium running, a crawl in flight) and
// with SIGKILL. Each fault lands in the middle of a crawl of a 151-page site (about 10 s); what each
// cost (attempts, seconds beyond the same crawl without a fault) is printed as "[outage] …" lines.
//
// Expected duration: about 4 minutes (the faults' own 1 + 20 + 30 s, the engines' and processes'
// starts, the crawls).

const KEY = "svc_BxwROGl3PNRZhnpF5G09iQsn7P0rPgfM7G0spWb4";
const GRACE_MS = 6000;
const LEASE_MS = 10_000;
const ENV = {
  SVC_ALLOW_PRIVATE_TARGETS: "1",
  SVC_CONFIRM_DELAY_MS: "0",
  SVC_PLAN_EVERY_S: "0",
  SVC_PAGE_SAMPLE: "5",
  SVC_CRAWL_MIN_DELAY_MS: "0",
  SVC_FETCH_TIMEOUT_MS: "5000",
  SVC_RATE_PER_HOUR: "1000000",
  SVC_PLAN_CHECKS_PER_DAY: "1000000",
  SVC_LEASE_MS: String(LEASE_MS),
  SVC_MAX_ATTEMPTS: "5",
  SVC_SHUTDOWN_GRACE_MS: String(GRACE_MS),
  SVC_KAFKA_SESSION_TIMEOUT_MS: "6000",
  SVC_KAFKA_PARTITIONS: "4",
  SVC_KAFKA_TOPIC_PREFIX: "outage-test.",
};
const JOB_MS = 240_000;
const FAN = fanSite({ sections: 10, leaves: 14 });

let postgres: PostgresServer;
let clickhouse: ClickHouseServer;
let kafka: KafkaBroker;
let series: ClickHouseClient;
let db: pg.Pool;
let cluster: Cluster;
let site: ServedSite;
/** Seconds of the same crawl without a fault. */
let baselineS = 0;

beforeAll(async () => {
  const browser = chromiumPath();
  [postgres, clickhouse, kafka, site] = await Promise.all([startPostgres(), startClickHouse(), startKafka(), serveFanSite(FAN, "127.0.0.1", 250)]);
  const databaseUrl = await postgres.createDatabase("outages");
  const clickhouseUrl = await clickhouse.createDatabase("outages");
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  db.on("error", () => undefined);
  series = createClient({ url: clickhouseUrl });
  cluster = await startCluster({
    postgresUrl: databaseUrl,
    brokers: kafka.brokers,
    key: KEY,
    crawlers: 1,
    // The machine may be loaded (a crawler loads its parse threads before it is ready).
    readyTimeoutMs: 180_000,
    env: { ...ENV, SVC_CLICKHOUSE_URL: clickhouseUrl, SVC_BROWSER: "auto", SVC_BROWSER_PATH: browser },
  });
}, 420_000);

afterAll(async () => {
  if (process.env.CLUSTER_LOGS && cluster) process.stderr.write(`\n${cluster.logs(100_000)}\n`);
  await cluster?.close();
  await db?.end();
  await series?.close();
  await Promise.all([kafka?.stop(), clickhouse?.stop()]);
  postgres?.stop();
  await site?.close();
});

afterEach((ctx) => {
  if (ctx.task.result?.state === "fail" && cluster) process.stderr.write(`\n${cluster.logs()}\n`);
});

function figure(fault: string, values: Record<string, unknown>): void {
  process.stderr.write(`[outage] ${fault}: ${JSON.stringify(values)}\n`);
}

async function startCrawl(): Promise<{ id: number; at: number }> {
  const a = await cluster.api(`/crawl/${site.host}?fresh=true`, { method: "POST" });
  if (a.status !== 202) throw new Error(`POST /crawl: ${a.status} ${a.text}`);
  return { id: (a.json as { job: { id: number } }).job.id, at: Date.now() };
}

interface Progress {
  readonly state: string;
  readonly progress: number;
  readonly worker: string | null;
  readonly attempt: number;
}

async function progressOf(id: number): Promise<Progress> {
  const { rows } = await db.query<Progress>("SELECT state, progress, worker, attempt FROM jobs WHERE id = $1", [id]);
  return rows[0] as Progress;
}

async function count(query: string): Promise<number> {
  const [row] = await (await series.query({ query, format: "JSONEachRow" })).json<{ n: string }>();
  return Number(row?.n ?? Number.NaN);
}

/** Until the crawl is past its analysis and has stored pages. */
async function crawling(id: number): Promise<Progress & { worker: string }> {
  return waitFor(`crawl ${id} under way`, JOB_MS, async () => {
    const p = await progressOf(id).catch(() => undefined);
    if (!p || p.state !== "running" || p.progress <= 10 || p.worker === null) return undefined;
    return (await count(`SELECT count() AS n FROM crawl_pages WHERE job_id = ${id}`)) > 0 ? (p as Progress & { worker: string }) : undefined;
  }, 100);
}

async function untilDone(id: number): Promise<Progress> {
  return waitFor(`job ${id} finished`, JOB_MS, async () => {
    const p = await progressOf(id).catch(() => undefined);
    return p && (p.state === "done" || p.state === "error") ? p : undefined;
  }, 200);
}

/** Every page of the site stored once for the job. */
async function expectStoredOnce(id: number): Promise<void> {
  expect(await count(`SELECT count() AS n FROM crawl_pages FINAL WHERE job_id = ${id}`)).toBe(FAN.paths.length);
  expect(await count(`SELECT uniqExact(url) AS n FROM crawl_pages WHERE job_id = ${id}`)).toBe(FAN.paths.length);
}

function lines(p: RoleProcess, from = 0): { level: number; msg: string; [k: string]: unknown }[] {
  return p.proc
    .stdout()
    .slice(from)
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: number; msg: string });
}

/** The command lines of a process's children (empty when it has none). */
function childCommands(pid: number): string {
  try {
    return execFileSync("ps", ["-o", "args=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    return "";
  }
}

async function readyz(p: RoleProcess): Promise<Answer> {
  return http(`http://127.0.0.1:${p.adminPort}/readyz`, { timeoutMs: 5000 });
}

async function metric(p: RoleProcess, line: string): Promise<number> {
  const text = (await http(`http://127.0.0.1:${p.adminPort}/metrics`)).text;
  const found = text.split("\n").find((l) => l.startsWith(line));
  return found ? Number(found.slice(found.lastIndexOf(" ") + 1)) : Number.NaN;
}

describe("engine outages in the distributed mode (real faults)", { timeout: 400_000 }, () => {
  it("measures the crawl without a fault (the baseline of the seconds lost)", async () => {
    const { id, at } = await startCrawl();
    expect(await untilDone(id)).toMatchObject({ state: "done", progress: 100, attempt: 1 });
    baselineS = (Date.now() - at) / 1000;
    figure("none (baseline)", { seconds: baselineS });
  });

  it("rides out a 1-second Postgres restart mid-crawl: the same attempt finishes, every page stored once", async () => {
    const { id, at } = await startCrawl();
    await crawling(id);
    await postgres.restart(1000);
    const job = await untilDone(id);
    expect(job).toMatchObject({ state: "done", progress: 100, attempt: 1 });
    await expectStoredOnce(id);
    // The scheduler answered the calls that met Postgres away as UNAVAILABLE (retried), never INTERNAL.
    expect(lines(cluster.crawlers[0]!).filter((l) => l.msg === "storing crawled pages failed; attempt abandoned")).toEqual([]);
    figure("Postgres stopped 1 s", { attempts: job.attempt, seconds: (Date.now() - at) / 1000, lostS: (Date.now() - at) / 1000 - baselineS });
  });

  it("rides out ClickHouse stopped for 20 s: reads that need it answer 503 maintenance with Retry-After, one log line, /readyz names it, the crawl finishes in its first attempt", async () => {
    const { gateway } = cluster;
    const [scheduler] = cluster.schedulers;
    const from = gateway.proc.stdout().length;
    const { id, at } = await startCrawl();
    await crawling(id);
    await clickhouse.stopTemporarily();
    const stopped = Date.now();
    try {
      for (let i = 0; i < 5; i++) {
        const read = await cluster.api(`/crawl/${site.host}?limit=5`);
        expect([read.status, (read.json as { code?: string }).code, read.headers.get("retry-after")]).toEqual([503, "maintenance", "5"]);
      }
      // Reads that need only Postgres go on.
      expect((await cluster.api("/sites")).status).toBe(200);
      for (const p of [gateway, scheduler!]) {
        const r = await readyz(p);
        expect(r.status).toBe(200);
        expect((r.json as { postgres: string; clickhouse: string }).postgres).toBe("ok");
        expect((r.json as { clickhouse: string }).clickhouse).not.toBe("ok");
      }
      expect(await metric(gateway, 'svc_store_engine_up{engine="clickhouse"')).toBe(0);
      await sleep(Math.max(0, 20_000 - (Date.now() - stopped)));
    } finally {
      // Whatever failed, the next tests get their ClickHouse back.
      await clickhouse.restart();
    }

    const job = await untilDone(id);
    expect(job).toMatchObject({ state: "done", progress: 100, attempt: 1 });
    await expectStoredOnce(id);
    const gatewayLines = lines(gateway, from);
    expect(gatewayLines.filter((l) => l.msg.startsWith("ClickHouse is unavailable"))).toHaveLength(1);
    expect(gatewayLines.filter((l) => l.msg === "request failed")).toEqual([]);
    await waitFor("the gateway finding ClickHouse again", 30_000, async () => ((await readyz(gateway)).json as { clickhouse?: string }).clickhouse === "ok" || undefined);
    expect(await metric(gateway, 'svc_store_engine_up{engine="clickhouse"')).toBe(1);
    figure("ClickHouse stopped 20 s", { attempts: job.attempt, seconds: (Date.now() - at) / 1000, lostS: (Date.now() - at) / 1000 - baselineS });
  });

  it("resumes work after Kafka is stopped for 30 s, writing a bounded number of log lines per crawler", async () => {
    const [crawler] = cluster.crawlers;
    const from = crawler!.proc.stdout().length;
    await kafka.stopTemporarily("graceful");
    const stopped = Date.now();
    // Posted while the broker is away: the job waits in the outbox.
    const { id } = await startCrawl();
    await sleep(Math.max(0, 30_000 - (Date.now() - stopped)));
    await kafka.restart();
    const back = Date.now();
    const taken = await waitFor(`crawl ${id} taken after the broker's return`, JOB_MS, async () => ((await progressOf(id)).state !== "queued" ? Date.now() : undefined), 100);
    const job = await untilDone(id);
    expect(job).toMatchObject({ state: "done", progress: 100, attempt: 1 });
    await expectStoredOnce(id);
    const outage = lines(crawler!, from);
    const loud = outage.filter((l) => l.level >= 40);
    // One warning when the brokers went away, none per retry, crash or restart (it was ~250).
    expect(loud.length, JSON.stringify(loud.map((l) => l.msg))).toBeLessThanOrEqual(5);
    expect(outage.some((l) => l.msg === "Kafka reachable again")).toBe(true);
    // "consumer group joined" names its group and topic once each (no duplicate JSON keys).
    const joined = crawler!.proc.stdout().split("\n").filter((l) => l.includes('"msg":"consumer group joined"'));
    expect(joined.length).toBeGreaterThan(0);
    for (const l of joined) expect([(l.match(/"group":/g) ?? []).length, (l.match(/"topic":/g) ?? []).length]).toEqual([1, 1]);
    figure("Kafka stopped 30 s", { attempts: job.attempt, resumedAfterReturnS: (taken - back) / 1000, crawlerLinesAtWarnOrAbove: loud.length, crawlerLines: outage.length });
  });

  it("rides out a scheduler restart mid-crawl in the same attempt", async () => {
    const { id, at } = await startCrawl();
    await crawling(id);
    const [scheduler] = cluster.schedulers;
    expect(await cluster.stop(scheduler!)).toEqual({ code: 0, signal: null });
    await cluster.restart(scheduler!);
    const job = await untilDone(id);
    expect(job).toMatchObject({ state: "done", progress: 100, attempt: 1 });
    await expectStoredOnce(id);
    figure("scheduler restart", { attempts: job.attempt, seconds: (Date.now() - at) / 1000, lostS: (Date.now() - at) / 1000 - baselineS });
  });

  it("closes a crawler within its grace period on SIGTERM with Chromium running and a crawl in flight, and hands the crawl back at once", async () => {
    const { id, at } = await startCrawl();
    const before = await crawling(id);
    const victim = cluster.crawlers.find((c) => c.proc.pid === pidOfWorker(before.worker))!;
    // The crawl's analysis rendered pages: the browser runs in the crawler's process tree.
    expect(childCommands(victim.proc.pid)).toMatch(/chrom/i);
    const from = victim.proc.stdout().length;
    const t = Date.now();
    expect(await cluster.stop(victim, GRACE_MS + 5000)).toEqual({ code: 0, signal: null });
    const tookMs = Date.now() - t;
    const last = lines(victim, from).at(-1)!;
    expect(last.msg).toBe("stopped");
    expect(last.ms as number).toBeLessThan(GRACE_MS);
    // Handed back: the job is queued again at once, not after the lease lapses.
    const queued = await progressOf(id);
    expect(queued).toMatchObject({ state: "queued", worker: null });
    await cluster.restart(victim);
    const job = await untilDone(id);
    expect(job).toMatchObject({ state: "done", progress: 100, attempt: 2 });
    await expectStoredOnce(id);
    figure("crawler SIGTERM (Chromium running)", { attempts: job.attempt, exitMs: tookMs, stoppedLineMs: last.ms, graceMs: GRACE_MS, seconds: (Date.now() - at) / 1000, lostS: (Date.now() - at) / 1000 - baselineS });
  });

  it("finishes a crawl whose crawler is killed with SIGKILL: the lease lapses and the next attempt resumes", async () => {
    const { id, at } = await startCrawl();
    const before = await crawling(id);
    const victim = cluster.crawlers.find((c) => c.proc.pid === pidOfWorker(before.worker))!;
    expect(await cluster.kill(victim)).toEqual({ code: null, signal: "SIGKILL" });
    await cluster.restart(victim);
    const job = await untilDone(id);
    expect(job).toMatchObject({ state: "done", progress: 100, attempt: 2 });
    await expectStoredOnce(id);
    figure("crawler SIGKILL", { attempts: job.attempt, seconds: (Date.now() - at) / 1000, lostS: (Date.now() - at) / 1000 - baselineS });
  });
});
