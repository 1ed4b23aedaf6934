import pg from "pg";
import type { Db, Queryable } from "./db.ts";

// int8 (count, bigint ids, unix seconds) and numeric come back as JS numbers, as they do from PGlite.
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresOptions {
  readonly url: string;
  readonly poolSize: number;
  readonly applicationName?: string;
}

/** A pooled connection to a Postgres server (SVC_POSTGRES_URL). */
export function openPostgres(options: PostgresOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    application_name: options.applicationName ?? "svc",
    types,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  return {
    kind: "postgres",
    async query<R>(sql: string, params?: readonly unknown[]) {
      const res = await pool.query(sql, params as unknown[] | undefined);
      return res.rows as R[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const q: Queryable = {
          async query<R>(sql: string, params?: readonly unknown[]) {
            const res = await client.query(sql, params as unknown[] | undefined);
            return res.rows as R[];
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        };
        const out = await fn(q);
        await client.query("COMMIT");
        return out;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
