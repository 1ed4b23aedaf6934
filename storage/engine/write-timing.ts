import type { ClickHouse } from "./open-clickhouse.ts";
import type { Db, Queryable } from "./db.ts";

/**
 * Where a timed write went: `engine` is the database kind ("postgres", "pglite", "clickhouse"),
 * `target` what was written: "transaction" for the account database (every write of the store that
 * must land whole runs in one), the table for a ClickHouse insert. Both come from code, never from
 * input: a bounded set.
 */
export type WriteObserver = (engine: "postgres" | "pglite" | "clickhouse", target: string, seconds: number, ok: boolean) => void;

/** A monotonic timer in seconds (process.hrtime): a write's duration, not a date. */
export type Stopwatch = () => number;

const hrSeconds: Stopwatch = () => Number(process.hrtime.bigint()) / 1e9;

/** The database with each transaction timed, from its start to its commit or rollback. */
export function timedDb(db: Db, observe: WriteObserver, now: Stopwatch = hrSeconds): Db {
  return {
    kind: db.kind,
    query: <R,>(sql: string, params?: readonly unknown[]) => db.query<R>(sql, params),
    exec: (sql) => db.exec(sql),
    listen: (channel, onMessage, onLost) => db.listen(channel, onMessage, onLost),
    close: () => db.close(),
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const started = now();
      let ok = false;
      try {
        const result = await db.tx(fn);
        ok = true;
        return result;
      } finally {
        observe(db.kind, "transaction", now() - started, ok);
      }
    },
  };
}

/** ClickHouse with each insert() timed (all of its batches), by table. */
export function timedClickHouse(ch: ClickHouse, observe: WriteObserver, now: Stopwatch = hrSeconds): ClickHouse {
  return {
    version: ch.version,
    features: ch.features,
    query: <R,>(q: Parameters<ClickHouse["query"]>[0]) => ch.query<R>(q),
    command: (q) => ch.command(q),
    close: () => ch.close(),
    async insert(table, columns, rows) {
      const started = now();
      let ok = false;
      try {
        await ch.insert(table, columns, rows);
        ok = true;
      } finally {
        observe("clickhouse", table, now() - started, ok);
      }
    },
  };
}
