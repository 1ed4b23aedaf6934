import type { Db } from "../engine/db.ts";
import { enqueueOutbox, type JobRow, type OutboxMessage, type OutboxRow } from "./jobs-repo.ts";

/**
 * Bus messages written with the state that causes them: in a unit of work (`store.tx`) a message
 * commits with it, and the relay publishes it after.
 */
export class OutboxRepo {
  constructor(private readonly db: Db) {}

  /**
   * Writes a message to the outbox (published after notBefore, when given). A job's message (`of`)
   * carries the trace context of the call that created the job; others, the work under way's.
   */
  async enqueue(m: OutboxMessage, now: number, notBefore: number | null = null, of?: JobRow): Promise<void> {
    await enqueueOutbox(this.db, m, now, notBefore, of);
  }

  /** Whether a message is due to be published: one read, which the relay's idle poll asks before it opens a unit of work. */
  async due(now: number): Promise<boolean> {
    const [row] = await this.db.query<{ due: boolean }>("SELECT EXISTS (SELECT 1 FROM outbox WHERE published IS NULL AND coalesce(not_before, 0) <= $1) AS due", [now]);
    return row?.due === true;
  }

  /**
   * Up to limit messages due and not yet published, oldest first, locked until the caller's unit of
   * work ends (rows another relay holds are skipped): the relay publishes them, then marks them.
   */
  async lockDue(limit: number, now: number): Promise<OutboxRow[]> {
    return this.db.query<OutboxRow>(
      "SELECT id, topic, key, payload, traceparent, tracestate FROM outbox WHERE published IS NULL AND coalesce(not_before, 0) <= $2 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED",
      [limit, now],
    );
  }

  /** Messages on the bus: the relay marks them after the bus took them. */
  async markPublished(ids: readonly number[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query("UPDATE outbox SET published = $2 WHERE id = ANY ($1::bigint[])", [ids, now]);
  }
}
