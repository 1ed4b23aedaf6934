import { checkSeriesPlanner } from "./check-series.ts";
import type { Planner } from "./planner.ts";
import { recheckPlanner } from "./rechecks.ts";
import { staleWorkPlanner } from "./stale-work.ts";

export type { Planner, PlannerContext } from "./planner.ts";
export { PlannerRunner, PLANNERS_LEADERSHIP } from "./runner.ts";

/** Every planner the scheduler runs (under one leadership). */
export const PLANNERS: readonly Planner[] = [staleWorkPlanner, recheckPlanner, checkSeriesPlanner];
