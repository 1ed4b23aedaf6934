import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import type { Db, Queryable } from "./db.ts";

const numberParsers = { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) };

export interface PgliteSettings {
  /**
   * Postgres's shared_buffers inside the WASM heap, in MB (`svc serve` gives 16). PGlite's
   * default of 128 MB is most of an idle `svc serve`'s memory; the data files are real files, so the
   * operating system's page cache serves what does not fit.
   */
  readonly sharedBuffersMb?: number;
}

/**
 * Creates a new data directory (initdb) in a child process: initdb grows the WASM heap to about
 * 600 MB, which a WebAssembly memory never gives back, so the serving process would keep it all
 * its life. The child exits and the memory with it; the serving process then opens the directory.
 */
async function initDataDir(dataDir: string, postgresqlconf: string): Promise<void> {
  // Resolved here, so that the child finds the package wherever the process was started from.
  const module = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const code = `const { PGlite } = await import(${JSON.stringify(module)}); const db = await PGlite.create(${JSON.stringify(dataDir)}, { postgresqlconf: ${JSON.stringify(postgresqlconf)} }); await db.close();`;
  await promisify(execFile)(process.execPath, ["--input-type=module", "-e", code], { timeout: 300_000 });
}

/**
 * The embedded store: Postgres compiled to WASM, file-backed under dataDir, or in memory
 * (dataDir null), optionally loaded from a dumped data directory (the tests' template).
 */
export async function openPglite(dataDir: string | null, template?: Blob, settings: PgliteSettings = {}): Promise<Db & { dump(): Promise<Blob>; wasmHeapBytes(): number }> {
  const postgresqlconf = settings.sharedBuffersMb ? `shared_buffers = ${settings.sharedBuffersMb}MB` : undefined;
  const options = { parsers: numberParsers, ...(template ? { loadDataDir: template } : {}), ...(postgresqlconf ? { postgresqlconf } : {}) };
  if (dataDir !== null && !template && postgresqlconf && !existsSync(join(dataDir, "PG_VERSION"))) await initDataDir(dataDir, postgresqlconf);
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
    // The WASM heap's size: it grows and never shrinks (WebAssembly memories cannot), so it is
    // memory the process keeps for good. Read from PGlite's Emscripten module (not a typed API).
    wasmHeapBytes() {
      const mod = (db as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod;
      return mod?.HEAPU8?.byteLength ?? 0;
    },
    close: () => db.close(),
  };
}
