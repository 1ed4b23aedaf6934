import { Registry, collectDefaultMetrics } from "prom-client";

/** One registry per process; collectors register on it and it is injected wherever metrics are made. */
export function createMetricsRegistry(role: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry });
  return registry;
}
