// Uptime: probe targets and the probe series; incidents; the watchdog's watched pages.
export { PostgresUptimeSeries, type ProbeSample, type ProbeSummary, type ProbeTimings, type UptimeSeries } from "./uptime-series.ts";
export { UptimeRepo, type DueProbe, type ProbeRow, type TargetState, type UptimeStateName, type UptimeTargetRow } from "./uptime-repo.ts";
export { IncidentsRepo, type IncidentKind, type IncidentRow } from "./incidents-repo.ts";
export { WatchdogRepo, type NewWatchdogChange, type WatchdogChangeRow, type WatchedPageRow } from "./watchdog-repo.ts";
