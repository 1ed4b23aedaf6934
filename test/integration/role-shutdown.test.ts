import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { startCluster, type Cluster, type RoleProcess } from "../harness/cluster.ts";
import { freshDatabase } from "../harness/databases.ts";
import { startKafka, type KafkaBroker } from "../harness/kafka.ts";
import { http, waitFor } from "../harness/svc-process.ts";

// SIGTERM to the gateway and the scheduler while a request is in flight through both: a POST
// /analyze whose job insert waits on a lock this test holds on the jobs table (a slow database, for
// real). Let go once both roles drain, the request is answered as usual; held past the scheduler's
// drain budget, the call is cancelled and the client told to retry; held past the gateway's, the
// request's connection is closed. Either way each role exits 0
// (inside SVC_SHUTDOWN_GRACE_MS: past it a role exits 1) with "stopped" as its last line.
// One scheduler, one gateway, no crawler: about 60 s, most of it Kafka's start and two restarts.

const KEY = "svc_BxwROGl3PNRZhnpF5G09iQsn7P0rPgfM7G0spWb4";
const GRACE_MS = 6000;

let kafka: KafkaBroker;
let databaseUrl: string;
let cluster: Cluster;
/** The running gateway (a restart starts another process on the same ports). */
let gateway: RoleProcess;

beforeAll(async () => {
  [kafka, databaseUrl] = await Promise.all([startKafka(), freshDatabase(inject("postgresUrl"), "shutdown")]);
  cluster = await startCluster({
    postgresUrl: databaseUrl,
    brokers: kafka.brokers,
    key: KEY,
    crawlers: 0,
    env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PLAN_EVERY_S: "0", SVC_SHUTDOWN_GRACE_MS: String(GRACE_MS), SVC_KAFKA_TOPIC_PREFIX: "shutdown-test.", SVC_KAFKA_SESSION_TIMEOUT_MS: "6000" },
  });
  gateway = cluster.gateway;
});

afterAll(async () => {
  await cluster?.close();
  await kafka?.stop();
});

afterEach((ctx) => {
  if (ctx.task.result?.state === "fail" && cluster) process.stderr.write(`\n${cluster.logs()}\n`);
});

/** A role's JSON log lines. */
function lines(p: RoleProcess): { msg: string; ms?: number }[] {
  return p.proc
    .stdout()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { msg: string; ms?: number });
}

/** Holds a SHARE lock on the jobs table (inserts wait) until released; resolves once a query waits on it. */
async function lockJobs(): Promise<{ waiting(): Promise<void>; release(): Promise<void> }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query("BEGIN");
  await db.query("LOCK TABLE jobs IN SHARE MODE");
  return {
    waiting: async () => {
      await waitFor("a query waiting on the lock", 4000, async () => {
        const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        return rows[0]!.n > 0 || undefined;
      }, 20);
    },
    release: async () => {
      await db.query("COMMIT");
      await db.end();
    },
  };
}

const analyse = () => cluster.api("/analyze", { method: "POST", body: { host: "127.0.0.1:9" }, timeoutMs: 30_000 });

describe("svc gateway and svc scheduler on SIGTERM", { timeout: 120_000 }, () => {
  it("the gateway closes a request still running past its drain budget and closes within its grace: exit 0, \"stopped\"", async () => {
    const lock = await lockJobs();
    try {
      const answer = analyse().then(
        (a) => `answered ${a.status}`,
        (err: Error) => `${err.name}: ${err.message}`,
      );
      await lock.waiting();
      const exit = await cluster.stop(gateway, GRACE_MS + 5000);
      const log = lines(gateway);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(log.map((l) => l.msg).slice(-2)).toEqual(["drain budget spent: connections with requests still running are closed", "stopped"]);
      process.stderr.write(`gateway stopped after ${log.at(-1)!.ms} ms, its request past the budget (grace ${GRACE_MS} ms)\n`);
      // The client sees its connection closed without an answer.
      expect(await answer).toBe("TypeError: fetch failed");
    } finally {
      await lock.release();
    }
    gateway = await cluster.restart(gateway);
  });

  it("the scheduler cancels a call still running past its drain budget and closes within its grace: exit 0, \"stopped\"", async () => {
    const scheduler = cluster.schedulers[0]!;
    const lock = await lockJobs();
    try {
      const answer = analyse();
      await lock.waiting();
      const exit = await cluster.stop(scheduler, GRACE_MS + 5000);
      const log = lines(scheduler);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(log.map((l) => l.msg).slice(-2)).toEqual(["database connections still busy; left to the exit", "stopped"]);
      expect(log.some((l) => l.msg === "drain budget spent: calls still running were cancelled")).toBe(true);
      process.stderr.write(`scheduler stopped after ${log.at(-1)!.ms} ms, its call past the budget (grace ${GRACE_MS} ms)\n`);
      const a = await answer;
      expect([a.status, a.headers.get("retry-after")]).toEqual([503, "2"]);
    } finally {
      await lock.release();
    }
    await cluster.restart(scheduler);
    // The gateway's channel to it is up again.
    await waitFor("the gateway sees the scheduler", 20_000, async () => ((await http(`http://127.0.0.1:${gateway.adminPort}/readyz`)).json as { scheduler?: string }).scheduler === "ok" || undefined, 200);
  });

  it("finish the request in flight, then close within their grace: exit 0, the last line \"stopped\" with the time it took", async () => {
    const lock = await lockJobs();
    let released = false;
    try {
      const answer = analyse();
      await lock.waiting().catch(async (err) => {
        const a = await answer;
        throw new Error(`${err.message}; answered ${a.status} ${a.text}`);
      });
      const scheduler = cluster.schedulers[0]!;
      const exits = [cluster.stop(gateway, GRACE_MS + 5000), cluster.stop(scheduler, GRACE_MS + 5000)];
      await waitFor("both draining", 10_000, async () => [gateway, scheduler].every((p) => lines(p).some((l) => l.msg === "draining")) || undefined, 20);
      await lock.release();
      released = true;

      const a = await answer;
      expect(a.status).toBe(202);
      expect((a.json as { job: { state: string } }).job.state).toBe("queued");
      expect(await Promise.all(exits)).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
      for (const p of [gateway, scheduler]) {
        const last = lines(p).at(-1)!;
        expect(last.msg).toBe("stopped");
        expect(typeof last.ms).toBe("number");
        process.stderr.write(`${p.label} stopped after ${last.ms} ms (grace ${GRACE_MS} ms)\n`);
      }
    } finally {
      if (!released) await lock.release();
    }
  });
});
