export { buildScheduler, busTopics, type SchedulerDeps, type SchedulerHandle } from "./build-scheduler.ts";
export { registerSchedulerMetrics } from "./scheduler-metrics.ts";
export { domainKey } from "./messages.ts";
export { REPORT_VERSION, type StoredReport } from "./settle.ts";
export { syncCheckSeries } from "./series-sync.ts";
