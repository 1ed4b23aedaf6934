import { checkSeriesPlanner } from "./check-series.ts";
import type { Planner } from "./planner.ts";
import { recheckPlanner } from "./rechecks.ts";
import { staleWorkPlanner } from "./stale-work.ts";
import { uptimePlanner } from "./uptime.ts";

export type { Planner, PlannerContext } from "./planner.ts";
export { PlannerRunner, PLANNERS_LEADERSHIP } from "./runner.ts";

/** Every planner a scheduler runs (under one leadership); a fresh set per scheduler, as some keep state. */
export function defaultPlanners(): Planner[] {
  return [staleWorkPlanner, recheckPlanner, checkSeriesPlanner, uptimePlanner()];
}
