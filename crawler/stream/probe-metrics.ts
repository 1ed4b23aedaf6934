import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { Clock } from "../../runtime/index.ts";
import type { ProbeHealth } from "./probe-health.ts";

/** The uptime probes' metrics of a crawler node: lateness after the slot, outcomes, and whether the node suspects itself. */
export function probeMetrics(registry: Registry, health: ProbeHealth, clock: Clock): { observe: (latenessSeconds: number, ok: boolean) => void } {
  const lateness = new Histogram({
    name: "svc_uptime_probe_lateness_seconds",
    help: "How long after its slot each uptime probe started on this node.",
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const probes = new Counter({ name: "svc_uptime_probes_total", help: "Uptime probes this node ran, by outcome (up, down).", labelNames: ["outcome"], registers: [registry] });
  new Gauge({
    name: "svc_uptime_node_suspect",
    help: "1 while this node suspects itself: most of its recent probes failed at once across many domains, so its failures are held, not turned into incidents.",
    registers: [registry],
    collect() {
      this.set(health.suspect(clock.nowMs()) ? 1 : 0);
    },
  });
  for (const outcome of ["up", "down"]) probes.inc({ outcome }, 0);
  return {
    observe: (latenessSeconds, ok) => {
      lateness.observe(latenessSeconds);
      probes.inc({ outcome: ok ? "up" : "down" });
    },
  };
}
