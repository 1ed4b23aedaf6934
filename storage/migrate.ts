import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Db } from "./db.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
// Any fixed number: every process that migrates takes the same transaction-level lock.
const MIGRATION_LOCK = 7_316_001;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The versioned SQL files, in order: NNN_name.sql. */
export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql: readFileSync(dir + f, "utf8") }));
}

/**
 * Applies every migration not yet applied, each in its own transaction, under an advisory lock so
 * that several processes starting together migrate once. Returns the versions applied now.
 */
export async function migrate(db: Db, nowSeconds: number, migrations = listMigrations()): Promise<number[]> {
  // Under the lock too: two CREATE TABLE IF NOT EXISTS racing on an empty database can collide.
  await db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await q.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied bigint NOT NULL)");
  });
  const applied: number[] = [];
  for (const m of migrations) {
    const done = await db.tx(async (q) => {
      await q.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const seen = await q.query("SELECT 1 FROM schema_migrations WHERE version = $1", [m.version]);
      if (seen.length > 0) return false;
      await q.exec(m.sql);
      await q.query("INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)", [m.version, m.name, nowSeconds]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
