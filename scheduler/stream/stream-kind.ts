import type { StreamKind, StreamResultOf } from "../../proto/index.ts";
import type { Store } from "../../storage/index.ts";
import type { KindContext } from "../kinds/index.ts";

/**
 * A stream-lane kind as the scheduler settles it: a batch's result, written in batches by the one
 * consumer of the results topic. Its planning is a planner (scheduler/planners/).
 */
export interface SchedulerStreamKind<K extends StreamKind> {
  readonly name: K;
  /** Settles a batch's result: `store` opens its units of work (a kind narrows it to the part it uses). */
  settle(ctx: KindContext, store: Store, result: StreamResultOf<K>, node: string): Promise<void>;
}
