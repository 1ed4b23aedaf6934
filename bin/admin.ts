import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Lifecycle, loadConfig, systemClock } from "../runtime/index.ts";
import { dataDirOwner } from "../storage/index.ts";
import { AdminService, executeAdmin, parseAdminArgs, sendAdminCommand } from "../gateway/index.ts";
import { openStore } from "./compose.ts";

/**
 * `svc admin …`: with a Postgres server, acts on it directly; with the embedded store, talks to the
 * running service over its admin socket, or opens the store itself when no process holds it.
 */
export async function admin(args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const cmd = parseAdminArgs(args);
  const config = loadConfig(env);
  const socket = join(config.dataDir, "admin.sock");
  if (!config.postgresUrl && dataDirOwner(config.dataDir) !== null) {
    // A starting service holds the lock before its socket exists (migrations): wait for it.
    for (let waited = 0; !existsSync(socket) && waited < 30_000 && dataDirOwner(config.dataDir) !== null; waited += 200) await sleep(200);
    if (existsSync(socket)) return sendAdminCommand(socket, cmd);
  }
  const life = new Lifecycle();
  try {
    const { store } = await openStore(config, systemClock, life);
    return await executeAdmin(new AdminService(store, config, systemClock, randomBytes), cmd);
  } finally {
    await life.close();
  }
}
