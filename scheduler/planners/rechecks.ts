import { unixSeconds } from "../../runtime/index.ts";
import type { Planner } from "./planner.ts";

/** Periodic re-checks: an analysis of every monitored host whose last run is older than its interval. */
export const recheckPlanner: Planner = {
  name: "rechecks",
  everyMs: (config) => config.planEverySeconds * 1000,
  async run(ctx) {
    const planned = await ctx.store.jobs.planDue(unixSeconds(ctx.clock), ctx.config.maxAttempts, 50, ctx.message);
    if (planned && planned.length > 0) ctx.kick();
    return planned?.length ?? 0;
  },
};
