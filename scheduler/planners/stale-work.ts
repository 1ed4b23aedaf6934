import type { Planner } from "./planner.ts";

/** Work nobody holds any more (an expired lease, a message lost with a restart) is published again. */
export const staleWorkPlanner: Planner = {
  name: "stale work",
  everyMs: (config) => Math.max(250, Math.floor(config.leaseMs / 2)),
  async run(ctx) {
    const n = await ctx.store.jobs.republishStale(ctx.clock.nowMs(), ctx.config.staleJobSeconds, ctx.message, ctx.failover?.stale);
    if (n > 0) ctx.kick();
    return n;
  },
};
