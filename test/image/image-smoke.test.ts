import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../harness/cluster.ts";
import { startClickHouse, type ClickHouseServer } from "../harness/clickhouse.ts";
import { freshDatabase } from "../harness/databases.ts";
import { startKafka, type KafkaBroker } from "../harness/kafka.ts";
import { startPostgres, type PostgresServer } from "../harness/postgres.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { waitFor, type SvcLauncher } from "../harness/svc-process.ts";

// The image as deployed: gateway, scheduler and two crawlers each in a container of the image
// .ci/image-smoke.sh built (SVC_IMAGE), on the host's network, against Postgres, ClickHouse and
// Kafka started on loopback as the integration tier starts them. One site is analysed and crawled,
// every role's /readyz answers 200, and a crawler container given SIGTERM drains and exits 0.

const IMAGE = process.env.SVC_IMAGE ?? "localhost/svc:0.1.0";
const KEY = "svc_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8dKLzd";
let count = 0;

/** `podman run` of the image for one role: attached (signals reach the container), host network, env passed by name. */
const containerLauncher: SvcLauncher = (args, svcEnv) => {
  const name = `svc-smoke-${process.pid}-${++count}`;
  const argv = ["--runtime", "runc", "run", "--rm", "--name", name, "--network", "host", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"];
  // The data directory is the image's /data volume; the host's temporary one does not exist inside.
  for (const [k, v] of Object.entries(svcEnv)) if (k !== "SVC_DATA_DIR") argv.push("--env", `${k}=${v}`);
  argv.push(IMAGE, ...args);
  return { command: "podman", argv, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root" } };
};

let pg: PostgresServer;
let kafka: KafkaBroker;
let clickhouse: ClickHouseServer;
let site: SmallSite;
let cluster: Cluster;

beforeAll(async () => {
  [pg, kafka, clickhouse, site] = await Promise.all([startPostgres(), startKafka(), startClickHouse(), startSmallSite()]);
  const started = Date.now();
  cluster = await startCluster({
    postgresUrl: await freshDatabase(pg.url, "image"),
    brokers: kafka.brokers,
    key: KEY,
    launcher: containerLauncher,
    readyTimeoutMs: 180_000,
    env: {
      SVC_CLICKHOUSE_URL: await clickhouse.createDatabase("image"),
      SVC_ALLOW_PRIVATE_TARGETS: "1",
      SVC_CONFIRM_DELAY_MS: "0",
      SVC_PAGE_SAMPLE: "5",
      SVC_CRAWL_MIN_DELAY_MS: "0",
      SVC_KAFKA_SESSION_TIMEOUT_MS: "6000",
      SVC_KAFKA_PARTITIONS: "4",
      SVC_SHUTDOWN_GRACE_MS: "10000",
    },
  });
  process.stderr.write(`[image] four role containers ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

afterAll(async () => {
  if (process.env.IMAGE_LOGS && cluster) process.stderr.write(`\n${cluster.logs(200)}\n`);
  await cluster?.close();
  await site?.close();
  await Promise.all([kafka?.stop(), clickhouse?.stop()]);
  pg?.stop();
});

async function job(path: string, body?: unknown): Promise<{ state: string; progress: number }> {
  const started = await cluster.api(path, { method: "POST", ...(body !== undefined ? { body } : {}) });
  expect(started.status, started.text).toBe(202);
  const id = (started.json as { job: { id: number } }).job.id;
  return waitFor(`job ${id} of ${path}`, 120_000, async () => {
    const j = ((await cluster.api(`/jobs/${id}`)).json as { job: { state: string; progress: number } }).job;
    return j.state === "done" || j.state === "error" ? j : undefined;
  }, 500);
}

describe("the container image, four roles", () => {
  it("every role is ready, and a site is analysed and crawled", async () => {
    for (const p of [cluster.gateway, ...cluster.schedulers, ...cluster.crawlers]) {
      const ready = await fetch(`http://127.0.0.1:${p.adminPort}/readyz`);
      expect(ready.status, p.label).toBe(200);
    }
    expect((await cluster.api("/sites", { method: "POST", body: { host: site.host } })).status).toBe(201);
    expect(await job("/analyze", { host: site.host })).toMatchObject({ state: "done", progress: 100 });
    const report = (await cluster.api(`/report/${site.host}`)).json as { rank: { value: number } };
    expect(report.rank.value).toBeGreaterThanOrEqual(1);
    expect(await job(`/crawl/${site.host}`)).toMatchObject({ state: "done", progress: 100 });
    const crawl = (await cluster.api(`/crawl/${site.host}`)).json as { pages: { url: string; status: number }[] };
    expect(crawl.pages.length).toBeGreaterThan(0);
    expect(crawl.pages.find((p) => p.url === `http://${site.host}/`)?.status).toBe(200);
  });

  it("a crawler container given SIGTERM drains and exits 0 within its grace", async () => {
    const crawler = cluster.crawlers[0]!;
    const started = Date.now();
    const exit = await cluster.stop(crawler, 30_000);
    const tookMs = Date.now() - started;
    process.stderr.write(`[image] crawler container stopped in ${tookMs} ms\n`);
    expect(exit).toMatchObject({ code: 0 });
    expect(crawler.proc.stdout() + crawler.proc.stderr()).toMatch(/stopped/);
  });
});
