import { describe, expect, it } from "vitest";
import { listMigrations, migrate, migrationChecksum, MigrationChangedError, openPglite } from "../../storage/index.ts";

// On PGlite in memory: the real migrations, then one of them edited as a developer might.

describe("migration checksums", () => {
  it("records each applied migration's SHA-256 and refuses to start once an applied file changed", async () => {
    const db = await openPglite(null);
    try {
      const migrations = listMigrations();
      await migrate(db, 1_000, migrations);
      const rows = await db.query<{ version: number; checksum: string }>("SELECT version, checksum FROM schema_migrations ORDER BY version");
      expect(rows).toEqual(migrations.map((m) => ({ version: m.version, checksum: migrationChecksum(m.sql) })));
      // Unchanged: a restart migrates nothing and passes.
      expect(await migrate(db, 2_000, migrations)).toEqual([]);

      const edited = migrations.map((m) => (m.version === 5 ? { ...m, sql: `${m.sql}\n-- an afterthought\n` } : m));
      const err = await migrate(db, 3_000, edited).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationChangedError);
      expect((err as Error).message).toBe(
        "migration 005_profiles.sql was changed after it was applied to this database (its SHA-256 differs from the one recorded); " +
          "restore the file as it was and put the change in a new migration",
      );
    } finally {
      await db.close();
    }
  });

  it("adopts the files as they are for migrations applied before checksums were kept", async () => {
    const db = await openPglite(null);
    try {
      const migrations = listMigrations();
      await migrate(db, 1_000, migrations);
      await db.exec("UPDATE schema_migrations SET checksum = NULL");
      expect(await migrate(db, 2_000, migrations)).toEqual([]);
      const [row] = await db.query<{ checksum: string }>("SELECT checksum FROM schema_migrations WHERE version = 1");
      expect(row?.checksum).toBe(migrationChecksum(migrations[0]!.sql));
    } finally {
      await db.close();
    }
  });
});
