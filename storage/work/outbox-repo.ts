import type { Db } from "../engine/db.ts";
import { enqueueOutbox, type OutboxMessage } from "./jobs-repo.ts";

/**
 * Bus messages written with the state that causes them: in a unit of work (`store.tx`) a message
 * commits with it, and the relay publishes it after.
 */
export class OutboxRepo {
  constructor(private readonly db: Db) {}

  /** Writes a message to the outbox (published after notBefore, when given). */
  async enqueue(m: OutboxMessage, now: number, notBefore: number | null = null): Promise<void> {
    await enqueueOutbox(this.db, m, now, notBefore);
  }
}
