export { buildScheduler, busTopics, type SchedulerDeps, type SchedulerHandle } from "./build-scheduler.ts";
export { registerSchedulerMetrics } from "./scheduler-metrics.ts";
export { domainKey } from "./messages.ts";
export { completeJob, failJob, nextAttempt } from "./job-settlement.ts";
export { SCHEDULER_KINDS, CRAWL_COST, DELIVERY_TIMEOUT_MS, encodeTask, reposOf, type SchedulerKind, type KindContext, type Lane } from "./kinds/index.ts";
export { syncCheckSeries } from "./series-sync.ts";
export { defaultPlanners, digestEvent, digestPlanner, PlannerRunner, PLANNERS_LEADERSHIP, routeEvent, webhooksPlanner, WEBHOOK_EVENTS_CURSOR, type Planner, type PlannerContext } from "./planners/index.ts";
export { SCHEDULER_STREAM_KINDS, type SchedulerStreamKind } from "./stream/index.ts";
export { afterFailure, isFinal4xx, DISABLE_AFTER_LOST, MAX_FAILURES, MAX_FAILURES_4XX, RETRY_DELAYS_S, type AttemptOutcome } from "./webhook-outcome.ts";
