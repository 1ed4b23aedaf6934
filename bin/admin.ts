import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { GrpcHealthProbe, KafkaProbe, Lifecycle, loadConfig, systemClock, type Config } from "../runtime/index.ts";
import { dataDirOwner, ping, pingClickHouse, type ClickHouse, type Db } from "../storage/index.ts";
import { ADMIN_USAGE, AdminCommandError, AdminService, executeAdmin, parseAdminArgs, sendAdminCommand } from "../gateway/index.ts";
import { openStore } from "./compose.ts";
import { probe } from "./role.ts";

/**
 * `svc admin …`: with a Postgres server, acts on it directly; with the embedded store, talks to the
 * running service over its admin socket, or opens the store itself when no process holds it.
 */
export async function admin(args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown> | string> {
  const cmd = parseAdminArgs(args);
  if (cmd.op === "help") return ADMIN_USAGE;
  const config = loadConfig(env, "admin");
  const socket = join(config.dataDir, "admin.sock");
  if (!config.postgresUrl && dataDirOwner(config.dataDir) !== null) {
    // A starting service holds the lock before its socket exists (migrations): wait for it.
    for (let waited = 0; !existsSync(socket) && waited < 30_000 && dataDirOwner(config.dataDir) !== null; waited += 200) await sleep(200);
    // The channel answers a refused command with its message only: it is shown as such, not as a crash.
    if (existsSync(socket)) {
      return sendAdminCommand(socket, cmd).catch((err: unknown) => {
        throw new AdminCommandError((err as Error).message);
      });
    }
  }
  // Nothing runs and no store is here: without SVC_DATA_DIR this is the default ./data of wherever
  // the command was typed, most likely not the service's. Opening it would create an empty store
  // and answer from it as if the service had no accounts.
  if (!config.postgresUrl && env.SVC_DATA_DIR === undefined && !existsSync(join(config.dataDir, "pg", "PG_VERSION"))) {
    throw new AdminCommandError(
      `no Svc store at ${resolve(config.dataDir)} and no service running there: set SVC_DATA_DIR to the service's data directory (or SVC_POSTGRES_URL for a Postgres server)`,
    );
  }
  const life = new Lifecycle();
  try {
    const { store, db, ch } = await openStore(config, systemClock, life);
    const out = await executeAdmin(new AdminService(store, config, systemClock, randomBytes), cmd);
    return cmd.op === "status" ? { ...out, engines: await enginesOf(config, db, ch) } : out;
  } finally {
    await life.close();
  }
}

/** Each engine the configuration names, as this command finds it: "ok" or why not (each bounded to about 2 s). */
async function enginesOf(config: Config, db: Db, ch: ClickHouse | undefined): Promise<Record<string, string>> {
  const checks: Record<string, Promise<string>> = { [db.kind]: probe(() => ping(db)) };
  if (ch) checks.clickhouse = probe(() => pingClickHouse(ch));
  if (config.kafkaBrokers) {
    const kafka = new KafkaProbe(config.kafkaBrokers, "svc-admin-probe");
    checks.kafka = probe(() => kafka.brokers());
  }
  if (config.schedulerAddress) {
    const health = new GrpcHealthProbe(config.schedulerAddress);
    checks.scheduler = health.status().then((s) => (s === "SERVING" ? "ok" : s)).finally(() => void health.close());
  }
  const names = Object.keys(checks);
  const values = await Promise.all(Object.values(checks));
  return Object.fromEntries(names.map((n, i) => [n, values[i] as string]));
}
