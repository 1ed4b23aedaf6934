import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Db } from "./db.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../migrations/", import.meta.url));
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

/** An applied migration whose file has changed since: the database and the code disagree. */
export class MigrationChangedError extends Error {
  constructor(
    readonly version: number,
    readonly file: string,
  ) {
    super(
      `migration ${file} was changed after it was applied to this database (its SHA-256 differs from the one recorded); ` +
        "restore the file as it was and put the change in a new migration",
    );
    this.name = "MigrationChangedError";
  }
}

/** The SHA-256 of a migration's text, recorded when it is applied. */
export function migrationChecksum(sql: string): string {
  return createHash("sha256").update(sql, "utf8").digest("hex");
}

/**
 * Applies every migration not yet applied, each in its own transaction, under an advisory lock so
 * that several processes starting together migrate once. Refuses (MigrationChangedError) when a
 * migration applied earlier has been edited since. Returns the versions applied now.
 */
export async function migrate(db: Db, nowSeconds: number, migrations = listMigrations()): Promise<number[]> {
  // Under the lock too: two CREATE TABLE IF NOT EXISTS racing on an empty database can collide.
  await db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await q.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied bigint NOT NULL)");
    await q.exec("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text");
    // Applied before checksums were kept: recorded as the files are now, then held to that.
    const recorded = await q.query<{ version: number; checksum: string | null }>("SELECT version, checksum FROM schema_migrations");
    for (const row of recorded) {
      const m = migrations.find((x) => x.version === row.version);
      if (!m) continue;
      const sum = migrationChecksum(m.sql);
      if (row.checksum === null) await q.query("UPDATE schema_migrations SET checksum = $2 WHERE version = $1", [m.version, sum]);
      else if (row.checksum !== sum) throw new MigrationChangedError(m.version, `${String(m.version).padStart(3, "0")}_${m.name}.sql`);
    }
  });
  const applied: number[] = [];
  for (const m of migrations) {
    const done = await db.tx(async (q) => {
      await q.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const seen = await q.query("SELECT 1 FROM schema_migrations WHERE version = $1", [m.version]);
      if (seen.length > 0) return false;
      await q.exec(m.sql);
      await q.query("INSERT INTO schema_migrations (version, name, applied, checksum) VALUES ($1, $2, $3, $4)", [m.version, m.name, nowSeconds, migrationChecksum(m.sql)]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
