export { buildScheduler, type SchedulerDeps, type SchedulerHandle } from "./build-scheduler.ts";
export { domainKey } from "./messages.ts";
export { REPORT_VERSION, type StoredReport } from "./settle.ts";
export { syncCheckSeries } from "./series-sync.ts";
