import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { admin } from "../../bin/admin.ts";
import { AdminCommandError } from "../../gateway/index.ts";

// `svc admin` typed where no service runs and no store is, without SVC_DATA_DIR: it says what to
// set instead of creating an empty store in ./data and answering from it.

const home = process.cwd();
afterEach(() => process.chdir(home));

describe("svc admin without a store", () => {
  it("refuses, names the directory and what to set, and creates nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-admin-"));
    try {
      process.chdir(dir);
      const err = await admin(["plan", "list"], { PATH: process.env.PATH ?? "" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AdminCommandError);
      expect((err as Error).message).toBe(
        `no Svc store at ${join(dir, "data")} and no service running there: set SVC_DATA_DIR to the service's data directory (or SVC_POSTGRES_URL for a Postgres server)`,
      );
      expect(existsSync(join(dir, "data"))).toBe(false);
    } finally {
      process.chdir(home);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
