import { Gauge, type Registry } from "prom-client";
import { unixSeconds, type Clock } from "../runtime/index.ts";
import type { IncidentRow, JobsRepo } from "../storage/index.ts";

const LIVE_STATES = ["queued", "running"] as const;
/** The incident kinds of docs/monitoring (migration 014): a fixed set, every one exported (0 when none is open). */
export const INCIDENT_KINDS: readonly IncidentRow["kind"][] = ["down", "degraded", "certificate", "noindex", "robots"];

/** What the scheduler reads, at each scrape, about monitored sites and webhook addresses. */
export interface MonitoringCounts {
  openCounts(): Promise<Map<IncidentRow["kind"], number>>;
  disabledCount(): Promise<number>;
}

/**
 * The scheduler's view of the work, read from Postgres when scraped (partial indexes keep both
 * reads small): jobs waiting and running, and the outbox not yet on the bus. The figures are the
 * cluster's, not this replica's, so with several schedulers each reports the same numbers. A
 * scrape while Postgres is away keeps the last values.
 */
export function registerSchedulerMetrics(registry: Registry, jobs: JobsRepo, clock: Clock, monitoring?: { incidents: Pick<MonitoringCounts, "openCounts">; webhooks: Pick<MonitoringCounts, "disabledCount"> }): void {
  new Gauge({
    name: "svc_scheduler_jobs",
    help: "Jobs queued (waiting for a crawler) and running (leased), in the whole cluster.",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const counts = await jobs.liveCounts().catch(() => null);
      if (!counts) return;
      for (const state of LIVE_STATES) this.set({ state }, counts[state]);
    },
  });
  new Gauge({
    name: "svc_scheduler_outbox_backlog",
    help: "Outbox messages not yet published to the bus (grows while Kafka is away).",
    registers: [registry],
    async collect() {
      const backlog = await jobs.outboxBacklog().catch(() => null);
      if (backlog) this.set(backlog.waiting);
    },
  });
  new Gauge({
    name: "svc_scheduler_outbox_oldest_seconds",
    help: "Age of the oldest outbox message not yet published to the bus (0 when none waits).",
    registers: [registry],
    async collect() {
      const backlog = await jobs.outboxBacklog().catch(() => null);
      if (backlog) this.set(backlog.oldest === null ? 0 : Math.max(0, unixSeconds(clock) - backlog.oldest));
    },
  });
  if (!monitoring) return;
  // Read from Postgres like the jobs above: every scheduler reports the cluster's figures, which
  // survive restarts (a counter bumped in the transaction that disables an address would count
  // rolled-back attempts, and each replica would hold a part of it).
  new Gauge({
    name: "svc_incidents_open",
    help: "Incidents open now on monitored sites, by kind (down, degraded, certificate, noindex, robots), in the whole cluster.",
    labelNames: ["kind"],
    registers: [registry],
    async collect() {
      const counts = await monitoring.incidents.openCounts().catch(() => null);
      if (!counts) return;
      for (const kind of INCIDENT_KINDS) this.set({ kind }, counts.get(kind) ?? 0);
    },
  });
  new Gauge({
    name: "svc_webhooks_disabled",
    help: "Webhook addresses disabled now after 15 deliveries lost in a row (a webhook.disabled event each), in the whole cluster.",
    registers: [registry],
    async collect() {
      const n = await monitoring.webhooks.disabledCount().catch(() => null);
      if (n !== null) this.set(n);
    },
  });
}
