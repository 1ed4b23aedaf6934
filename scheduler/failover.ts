import { Counter, type Registry } from "prom-client";
import type { Logger } from "../runtime/index.ts";
import type { JobRow, StaleWhy } from "../storage/index.ts";

/**
 * What a failover looks like from the scheduler: a lease that lapsed (its worker died or lost the
 * scheduler for longer than the lease), a job published again, an attempt that resumes an earlier
 * one, the leases granted back when a scheduler starts. Each is one log line and one counter, so
 * that an operator sees failovers happen rather than inferring them from attempt counts.
 */
export class FailoverEvents {
  private readonly republished: Counter<"reason"> | null;
  private readonly resumedJobs: Counter<"kind"> | null;
  private readonly extended: Counter | null;

  constructor(
    private readonly logger: Logger,
    registry?: Registry,
  ) {
    this.republished = registry
      ? new Counter({
          name: "svc_scheduler_jobs_republished_total",
          help: "Jobs taken back from nobody and published again, by reason: lease_lapsed (a worker stopped renewing), message_lost (queued, its message never taken); exhausted ended them in error instead.",
          labelNames: ["reason"],
          registers: [registry],
        })
      : null;
    this.resumedJobs = registry
      ? new Counter({
          name: "svc_scheduler_jobs_resumed_total",
          help: "Leases granted for a job's second or later attempt (a failover's resumption), by work kind.",
          labelNames: ["kind"],
          registers: [registry],
        })
      : null;
    this.extended = registry
      ? new Counter({
          name: "svc_scheduler_leases_extended_total",
          help: "Running jobs' leases extended by one lease length when this scheduler started (no scheduler could renew them meanwhile).",
          registers: [registry],
        })
      : null;
    for (const reason of ["lease_lapsed", "message_lost", "exhausted"] as const) this.republished?.inc({ reason }, 0);
  }

  /** republishStale's `seen`: one line and one count per job taken back. */
  readonly stale = (job: JobRow, why: StaleWhy): void => {
    this.republished?.inc({ reason: why });
    const fields = { job: job.id, kind: job.kind, host: job.host, attempt: job.attempt, maxAttempts: job.max_attempts, worker: job.worker, reason: why };
    if (why === "lease_lapsed") this.logger.warn(fields, "lease lapsed; job published again");
    else if (why === "exhausted") this.logger.warn(fields, "lease lapsed on the last attempt; job ended in error");
    else this.logger.info(fields, "queued job's message lost; job published again");
  };

  /** A lease granted: a later attempt is a resumption. */
  granted(job: JobRow): void {
    if (job.attempt <= 1) return;
    this.resumedJobs?.inc({ kind: job.kind });
    this.logger.info({ job: job.id, kind: job.kind, host: job.host, attempt: job.attempt, worker: job.worker }, "job resumed by another attempt");
  }

  /** Leases extended at this scheduler's start. */
  leasesExtended(n: number, leaseMs: number): void {
    if (n === 0) return;
    this.extended?.inc(n);
    this.logger.info({ jobs: n, leaseMs }, "running jobs' leases extended at start");
  }
}
