export { buildScheduler, busTopics, type SchedulerDeps, type SchedulerHandle } from "./build-scheduler.ts";
export { registerSchedulerMetrics } from "./scheduler-metrics.ts";
export { domainKey } from "./messages.ts";
export { SCHEDULER_KINDS, CRAWL_COST, type SchedulerKind, type KindContext, type Lane } from "./kinds/index.ts";
export { syncCheckSeries } from "./series-sync.ts";
export { defaultPlanners, PlannerRunner, PLANNERS_LEADERSHIP, type Planner, type PlannerContext } from "./planners/index.ts";
export { SCHEDULER_STREAM_KINDS, type SchedulerStreamKind } from "./stream/index.ts";
