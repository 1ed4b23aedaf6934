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
  /** How often it runs; 0 turns it off. */
  everyMs(config: Config): number;
  /** One pass; what it returns is logged when it is more than zero. */
  run(ctx: PlannerContext): Promise<number>;
}
