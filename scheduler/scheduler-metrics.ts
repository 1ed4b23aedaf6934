import { Gauge, type Registry } from "prom-client";
import { unixSeconds, type Clock } from "../runtime/index.ts";
import type { JobsRepo } from "../storage/index.ts";

const LIVE_STATES = ["queued", "running"] as const;

/**
 * The scheduler's view of the work, read from Postgres when scraped (partial indexes keep both
 * reads small): jobs waiting and running, and the outbox not yet on the bus. The figures are the
 * cluster's, not this replica's, so with several schedulers each reports the same numbers. A
 * scrape while Postgres is away keeps the last values.
 */
export function registerSchedulerMetrics(registry: Registry, jobs: JobsRepo, clock: Clock): void {
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
}
