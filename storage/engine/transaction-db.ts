import type { Db, Queryable } from "./db.ts";

/**
 * One open transaction seen as a Db, so that the same repositories run bound to it (the unit of
 * work, `store.tx`). Statements go to the transaction; a repository's own transaction inside it
 * becomes a savepoint, so a repository that must write several statements whole still does, and
 * its failure rolls back only its own part when the caller catches it. Savepoints nest one at a
 * time: a unit of work's statements run one after another on one connection anyway.
 */
export function transactionDb(q: Queryable, outer: Db): Db {
  let savepoints = 0;
  return {
    kind: outer.kind,
    query: <R,>(sql: string, params?: readonly unknown[]) => q.query<R>(sql, params),
    exec: (sql) => q.exec(sql),
    async tx<T>(fn: (inner: Queryable) => Promise<T>): Promise<T> {
      savepoints += 1;
      const name = `unit_${savepoints}`;
      await q.query(`SAVEPOINT ${name}`);
      try {
        const out = await fn(q);
        await q.query(`RELEASE SAVEPOINT ${name}`);
        return out;
      } catch (err) {
        await q.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
        throw err;
      }
    },
    listen: (channel, onMessage, onLost) => outer.listen(channel, onMessage, onLost),
    // The transaction ends with its commit or rollback; its repositories never close the database.
    close: () => Promise.reject(new Error("a unit of work's repositories cannot close the database")),
  };
}
