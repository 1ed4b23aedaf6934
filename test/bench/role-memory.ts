/**
 * Idle memory of each role of the distributed mode, as deployed: a Postgres server and a Kafka
 * broker of the test harness on loopback, then `svc scheduler`, `svc gateway` and two
 * `svc crawler` processes (test/harness/cluster.ts), ready and left idle; prints each process's
 * resident memory (ps) after IDLE_S seconds. Not a test: figures only (docs/operations.md, Memory).
 *
 *   node --import tsx test/bench/role-memory.ts        (runs dist/ when it is up to date: npm run build first)
 */
import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { startCluster } from "../harness/cluster.ts";
import { freshDatabase } from "../harness/databases.ts";
import { startKafka } from "../harness/kafka.ts";
import { startPostgres } from "../harness/postgres.ts";

const IDLE_S = Number(process.env.IDLE_S ?? 30);
const rssMb = (pid: number) => Math.round(Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) / 1024);

const [pg, kafka] = await Promise.all([startPostgres(), startKafka()]);
try {
  const cluster = await startCluster({ postgresUrl: await freshDatabase(pg.url, "memory"), brokers: kafka.brokers, key: "svc_BxwROGl3PNRZhnpF5G09iQsn7P0rPgfM7G0spWb4", env: { SVC_LOG_LEVEL: "warn" } });
  try {
    await sleep(IDLE_S * 1000);
    for (const p of [cluster.gateway, ...cluster.schedulers, ...cluster.crawlers]) process.stdout.write(`${p.label}: ${rssMb(p.proc.pid)} MB resident after ${IDLE_S} s idle\n`);
  } finally {
    await cluster.close();
  }
} finally {
  await kafka.stop();
  pg.stop();
}
