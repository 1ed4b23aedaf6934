import { Registry, collectDefaultMetrics } from "prom-client";

/**
 * prom-client's default gauges named like counters (`promtool check metrics`: "non-counter metrics
 * should not have _total suffix"). Each is the sum of a series kept beside it, by type
 * (nodejs_active_handles{type}, …), so nothing is lost by leaving them out.
 */
const GAUGES_NAMED_TOTAL = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"];

/**
 * One registry per process; collectors register on it and it is injected wherever metrics are
 * made. The event-loop delay is sampled every 100 ms: each sample is a timer that wakes the process,
 * the largest idle cost of a role at prom-client's 10 ms (docs/benchmarks.md, bench:distribution).
 */
export function createMetricsRegistry(role: string, eventLoopSampleMs = 100): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: eventLoopSampleMs });
  for (const name of GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name);
  return registry;
}
