import { checkSeriesPlanner } from "./check-series.ts";
import { digestPlanner } from "./digest.ts";
import type { Planner } from "./planner.ts";
import { recheckPlanner } from "./rechecks.ts";
import { staleWorkPlanner } from "./stale-work.ts";
import { uptimePlanner } from "./uptime.ts";
import { webhooksPlanner } from "./webhooks.ts";

export type { Planner, PlannerContext } from "./planner.ts";
export { PlannerRunner, PLANNERS_LEADERSHIP } from "./runner.ts";
export { digestEvent, digestPlanner } from "./digest.ts";
export { routeEvent, webhooksPlanner, WEBHOOK_EVENTS_CURSOR } from "./webhooks.ts";

/** Every planner a scheduler runs (under one leadership); a fresh set per scheduler, as some keep state. */
export function defaultPlanners(): Planner[] {
  return [staleWorkPlanner, recheckPlanner, checkSeriesPlanner, digestPlanner(), webhooksPlanner, uptimePlanner()];
}
