import pg from "pg";
import type { Db, Queryable } from "./db.ts";

// int8 (count, bigint ids, unix seconds) and numeric come back as JS numbers, as they do from PGlite.
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format) as (v: string) => unknown;
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
    listen: (channel, onMessage, onLost) => listenOn(options, channel, onMessage, onLost),
    close: () => pool.end(),
  };
}

/** LISTEN on a connection of its own, reconnecting with backoff when it drops. */
async function listenOn(options: PostgresOptions, channel: string, onMessage: (payload: string) => void, onLost: () => void): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: options.url, application_name: `${options.applicationName ?? "svc"}-listen`, types });
    c.on("notification", (msg) => {
      if (msg.channel === channel) onMessage(msg.payload ?? "");
    });
    const lost = () => {
      if (client !== c || closed) return;
      client = null;
      onLost();
      retry = setTimeout(() => void connect().catch(lost), 1000);
      retry.unref();
    };
    c.on("error", lost);
    c.on("end", lost);
    client = c;
    await c.connect();
    await c.query(`LISTEN "${channel.replace(/"/g, "")}"`);
  };
  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
