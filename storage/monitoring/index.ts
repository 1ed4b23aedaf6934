// Uptime: probe targets, incidents and the probe series; the watchdog's watched pages.
export { PostgresUptimeSeries, type ProbeSample, type ProbeSummary, type ProbeTimings, type UptimeSeries } from "./uptime-series.ts";
export { UptimeRepo, type DueProbe, type IncidentRow, type ProbeRow, type ProbeSettlement, type UptimeStateName, type UptimeTargetRow } from "./uptime-repo.ts";
export { WatchdogRepo, type NewWatchdogChange, type WatchdogChangeRow, type WatchedPageRow } from "./watchdog-repo.ts";
