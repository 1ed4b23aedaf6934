import { inject } from "vitest";
import { openPglite, openPostgres, type Db } from "../../storage/index.ts";
import { freshDatabase } from "../harness/databases.ts";
import { storageContract, type StorageTarget } from "../harness/storage-contract.ts";

// One repository contract, run unchanged on the embedded store and on a Postgres server.

async function postgresDb(url: string): Promise<Db> {
  const db = openPostgres({ url, poolSize: 4 });
  await db.query("SELECT 1"); // connected before anything races
  return db;
}

const targets: StorageTarget[] = [
  {
    name: "PGlite in memory",
    open: () => openPglite(null),
  },
  {
    name: "Postgres server (pool of 4)",
    open: async () => openPostgres({ url: await freshDatabase(inject("postgresUrl")), poolSize: 4 }),
    openPair: async () => {
      const url = await freshDatabase(inject("postgresUrl"));
      return Promise.all([postgresDb(url), postgresDb(url)]);
    },
  },
];

storageContract(targets);
