import { syncCheckSeries } from "../series-sync.ts";
import type { Planner } from "./planner.ts";

/** Finished runs follow into the per-check time series (ClickHouse in the distributed mode). */
export const checkSeriesPlanner: Planner = {
  name: "check series",
  everyMs: () => 2000,
  run: (ctx) => syncCheckSeries(ctx.store),
};
