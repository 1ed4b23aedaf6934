import { syncCheckSeries } from "../series-sync.ts";
import type { Planner } from "./planner.ts";

/**
 * The slow safety pass of the check-series sync. The sync is woken by each stored run (a Postgres
 * notification, from whichever scheduler stored it); it used to poll every 2 s, two statements a
 * pass, the largest share of an idle scheduler's queries (docs/benchmarks.md).
 */
export const CHECK_SERIES_SAFETY_MS = 60_000;

/** Finished runs follow into the per-check time series (ClickHouse in the distributed mode). */
export const checkSeriesPlanner: Planner = {
  name: "check series",
  everyMs: () => CHECK_SERIES_SAFETY_MS,
  watch: (ctx, wake) => ctx.store.runs.onNewRuns(wake, wake),
  run: (ctx) => syncCheckSeries(ctx.store),
};
