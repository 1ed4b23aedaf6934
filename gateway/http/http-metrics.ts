import { Counter, Histogram, type Registry } from "prom-client";

/** Request counts and latency by route template and status class: bounded labels, never a raw URL. */
export function createHttpMetrics(registry: Registry) {
  const requests = new Counter({
    name: "svc_http_requests_total",
    help: "REST requests answered, by method, route template and status code",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "svc_http_request_duration_seconds",
    help: "REST request latency, by method, route template and status code",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // The label children, looked up once per (method, route, status): prom-client would otherwise
  // validate and hash the label object twice on every request. The set is bounded as the labels are.
  const children = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
  return {
    observe(method: string, route: string, status: number, seconds: number): void {
      const id = `${method} ${status} ${route}`;
      let child = children.get(id);
      if (!child) {
        const labels = { method, route, status: String(status) };
        child = { count: requests.labels(labels), time: duration.labels(labels) };
        children.set(id, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
  };
}
