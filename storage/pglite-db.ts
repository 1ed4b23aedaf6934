import { PGlite } from "@electric-sql/pglite";
import type { Db, Queryable } from "./db.ts";

const numberParsers = { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) };

/**
 * The embedded store: Postgres compiled to WASM, file-backed under dataDir, or in memory
 * (dataDir null), optionally loaded from a dumped data directory (the tests' template).
 */
export async function openPglite(dataDir: string | null, template?: Blob): Promise<Db & { dump(): Promise<Blob> }> {
  const options = { parsers: numberParsers, ...(template ? { loadDataDir: template } : {}) };
  const db = dataDir === null ? await PGlite.create(options) : await PGlite.create(dataDir, options);
  // PGlite is one connection: transactions are serialised here rather than interleaved.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };
  return {
    kind: "pglite",
    query<R>(sql: string, params?: readonly unknown[]) {
      return serial(async () => (await db.query<R>(sql, params as unknown[] | undefined)).rows);
    },
    exec(sql: string) {
      return serial(async () => {
        await db.exec(sql);
      });
    },
    tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      return serial(() =>
        db.transaction(async (t) => {
          const q: Queryable = {
            async query<R>(sql: string, params?: readonly unknown[]) {
              return (await t.query<R>(sql, params as unknown[] | undefined)).rows;
            },
            async exec(sql: string) {
              await t.exec(sql);
            },
          };
          return fn(q);
        }),
      );
    },
    async listen(channel: string, onMessage: (payload: string) => void) {
      // One in-process database: notifications cannot be lost, so onLost is never called.
      const unsubscribe = await db.listen(channel, onMessage);
      return { close: () => unsubscribe() };
    },
    async dump() {
      return (await db.dumpDataDir("none"));
    },
    close: () => db.close(),
  };
}
