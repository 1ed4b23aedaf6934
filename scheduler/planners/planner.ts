import type { Bus, Clock, Config, Logger } from "../../runtime/index.ts";
import type { JobRow, OutboxMessage, Store } from "../../storage/index.ts";
import type { FailoverEvents } from "../failover.ts";

/** What a planner gets: the store, the settings, and how to publish the work it writes. */
export interface PlannerContext {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly bus: Bus;
  /** The bus message of a job (with this replica as its reply address). */
  readonly message: (job: JobRow) => OutboxMessage;
  /** Publishes what was just written to the outbox. */
  readonly kick: () => void;
  /** Told of every job taken back (logged and counted); absent in tests that do not look. */
  readonly failover?: FailoverEvents;
}

/**
 * Periodic work of the scheduler (re-checks today; uptime slots, webhook retries, imports,
 * retention next), run by the one scheduler that holds the planners' leadership.
 */
export interface Planner {
  readonly name: string;
  /** How often it runs; 0 turns it off. With watch, the slow safety pass behind the wake-ups. */
  everyMs(config: Config): number;
  /**
   * Optional: subscribes to what makes a pass worth running before its interval (a write in any
   * process, told through Postgres notifications); `wake` runs the planner at the leader's next
   * tick. A subscription that drops wakes it too (announcements may have been missed).
   */
  watch?(ctx: PlannerContext, wake: () => void): Promise<{ close(): Promise<void> }>;
  /** One pass; what it returns is logged when it is more than zero. */
  run(ctx: PlannerContext): Promise<number>;
}
