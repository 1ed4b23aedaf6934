import type { ClickHouse } from "./open-clickhouse.ts";
import { sql as clickhouseSql } from "./clickhouse-sql.ts";
import type { Db, Queryable } from "./db.ts";

/** The database servers behind the store in the distributed mode. */
export type StoreEngine = "postgres" | "clickhouse";

/**
 * A store call that failed because its engine did not answer (refused, reset, restarting, shutting
 * down), not because of the call: the same call succeeds once the engine is back. Callers answer it
 * as "unavailable, try again" (gRPC UNAVAILABLE, HTTP 503 with Retry-After), never as a fault.
 */
export class EngineUnavailableError extends Error {
  constructor(
    readonly engine: StoreEngine,
    cause: unknown,
  ) {
    super(`${engine === "postgres" ? "Postgres" : "ClickHouse"} is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = "EngineUnavailableError";
  }
}

/** The engine an error says is unavailable (looking through causes), or null. */
export function unavailableEngine(err: unknown): StoreEngine | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof EngineUnavailableError) return e.engine;
  }
  return null;
}

// Socket-level failures (Node's and undici's codes) and Postgres's SQLSTATEs of a server that is
// going away or not there yet: connection exceptions (class 08), admin/crash shutdown and "cannot
// connect now" (57P01-57P03), too many connections (53300).
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_CLOSED"]);
const PG_STATES = /^(08...|57P0[123]|53300)$/;
// What pg and the ClickHouse client say when they have no code to give.
const MESSAGES = /connection terminated|terminating connection|connection error|not queryable|timeout exceeded when trying to connect|socket hang up|other side closed|the database system is (starting up|shutting down|in recovery mode)|^timeout error/i;

/** Whether err (or what caused it) says the engine did not answer, rather than that the call was wrong. */
export function isConnectionFailure(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const o = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof o.code === "string" && (SOCKET_CODES.has(o.code) || PG_STATES.test(o.code))) return true;
    if (typeof o.message === "string" && MESSAGES.test(o.message)) return true;
    // A refused connection to a name with several addresses (localhost: ::1 and 127.0.0.1).
    if (Array.isArray(o.errors) && o.errors.some((x) => isConnectionFailure(x))) return true;
  }
  return false;
}

export interface EngineWatcher {
  /** The engine failed to answer for the first time since it last answered (once per outage). */
  down(engine: StoreEngine, err: unknown): void;
  /** The engine answered again after an outage that lasted downMs. */
  up(engine: StoreEngine, downMs: number): void;
}

/**
 * Each engine's state as this process's calls find it: down at the first call that finds it
 * unreachable, up at the next call it answers. The watcher hears each change once, so an outage is
 * one log line and one gauge change however many calls meet it.
 */
export class EngineStates {
  private readonly downSince = new Map<StoreEngine, number>();

  constructor(
    private readonly watcher: EngineWatcher,
    private readonly nowMs: () => number = Date.now,
  ) {}

  state(engine: StoreEngine): "ok" | "down" {
    return this.downSince.has(engine) ? "down" : "ok";
  }

  /** Runs a call of the engine: a connection failure marks it down and is thrown as EngineUnavailableError. */
  async guard<T>(engine: StoreEngine, call: () => Promise<T>, callers?: WeakSet<object>): Promise<T> {
    let out: T;
    try {
      out = await call();
    } catch (err) {
      // Thrown by the caller's own code inside the call (a transaction's body): not the engine's to judge.
      if (callers && typeof err === "object" && err !== null && callers.has(err)) throw err;
      if (err instanceof EngineUnavailableError || !isConnectionFailure(err)) {
        // The engine answered (with an error of the call's own): it is up.
        if (!(err instanceof EngineUnavailableError)) this.answered(engine);
        throw err;
      }
      if (!this.downSince.has(engine)) {
        this.downSince.set(engine, this.nowMs());
        this.watcher.down(engine, err);
      }
      throw new EngineUnavailableError(engine, err);
    }
    this.answered(engine);
    return out;
  }

  private answered(engine: StoreEngine): void {
    const since = this.downSince.get(engine);
    if (since === undefined) return;
    this.downSince.delete(engine);
    this.watcher.up(engine, this.nowMs() - since);
  }
}

/**
 * The account database with every call guarded: Postgres unreachable is EngineUnavailableError.
 * Inside a transaction only the database's own calls are judged: what the caller's code throws
 * there (a Kafka publish refused, a decision) passes through as it is, never taken for Postgres.
 */
export function guardedDb(db: Db, states: EngineStates): Db {
  if (db.kind !== "postgres") return db;
  const guard = <T,>(call: () => Promise<T>) => states.guard("postgres", call);
  const inner = (q: Queryable): Queryable => ({
    query: <R,>(sql: string, params?: readonly unknown[]) => guard(() => q.query<R>(sql, params)),
    exec: (sql) => guard(() => q.exec(sql)),
  });
  return {
    kind: db.kind,
    query: <R,>(sql: string, params?: readonly unknown[]) => guard(() => db.query<R>(sql, params)),
    exec: (sql) => guard(() => db.exec(sql)),
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const callers = new WeakSet<object>();
      return states.guard(
        "postgres",
        () =>
          db.tx(async (q) => {
            try {
              return await fn(inner(q));
            } catch (err) {
              // The body's own calls were judged where they failed (inner); the rest is the caller's.
              if (typeof err === "object" && err !== null && !(err instanceof EngineUnavailableError)) callers.add(err);
              throw err;
            }
          }),
        callers,
      );
    },
    listen: (channel, onMessage, onLost) => db.listen(channel, onMessage, onLost),
    close: () => db.close(),
  };
}

/** ClickHouse with every call guarded: the server unreachable is EngineUnavailableError. */
export function guardedClickHouse(ch: ClickHouse, states: EngineStates): ClickHouse {
  const guard = <T,>(call: () => Promise<T>) => states.guard("clickhouse", call);
  return {
    version: ch.version,
    features: ch.features,
    query: <R,>(q: Parameters<ClickHouse["query"]>[0]) => guard(() => ch.query<R>(q)),
    command: (q) => guard(() => ch.command(q)),
    insert: (table, columns, rows) => guard(() => ch.insert(table, columns, rows)),
    close: () => ch.close(),
  };
}

/** Answers when ClickHouse does (a readiness detail). */
export async function pingClickHouse(ch: ClickHouse): Promise<void> {
  await ch.query(clickhouseSql`SELECT 1`);
}
