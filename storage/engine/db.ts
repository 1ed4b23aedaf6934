/** The one database port: the same SQL runs on PGlite (embedded) and on a Postgres server. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Subscribes to a notification channel (LISTEN). onLost is called when the subscription breaks
   * (notifications may have been missed); the implementation then resubscribes by itself.
   */
  listen(channel: string, onMessage: (payload: string) => void, onLost: () => void): Promise<{ close(): Promise<void> }>;
  /** "pglite" or "postgres": for logs and /readyz, never for branching SQL. */
  readonly kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/** True when err is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}

/** Answers when the database does (a readiness probe). */
export async function ping(db: Queryable): Promise<void> {
  await db.query("SELECT 1");
}
