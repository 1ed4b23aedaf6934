import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { STREAM_KINDS, WORK_KINDS, type StreamKind, type WorkKind } from "../proto/index.ts";

/** What a job was, for the metrics' labels: its work kind (a bounded set), or unknown for a lease without a task. */
export type JobLabel = WorkKind | "unknown";

/**
 * How an attempt ended on this node: done (Complete accepted), failed (Complete with an error),
 * abandoned (the lease was lost, the worker closed, or the scheduler refused the result).
 */
export type JobOutcome = "done" | "failed" | "abandoned";

/** The crawler node's job metrics, on the process's registry; labels are the two small sets above. */
export interface WorkerMetrics {
  started(kind: JobLabel): void;
  finished(kind: JobLabel, outcome: JobOutcome, seconds: number): void;
  /** A stream batch (uptime probes) started or ended on this node. */
  streamStarted(kind: StreamKind): void;
  streamFinished(kind: StreamKind): void;
  /** A stream item this node passed on for another node to run (the confirmation of its own failure). */
  streamPassedOn(kind: StreamKind): void;
}

export function workerMetrics(registry: Registry): WorkerMetrics {
  const inFlight = new Gauge({ name: "svc_crawler_jobs_in_flight", help: "Jobs this crawler node holds a lease on and runs now.", labelNames: ["kind"], registers: [registry] });
  const completed = new Counter({
    name: "svc_crawler_jobs_completed_total",
    help: "Job attempts this crawler node finished, by outcome (done, failed, abandoned).",
    labelNames: ["kind", "outcome"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "svc_crawler_job_duration_seconds",
    help: "Time from the lease to the end of a job attempt on this node.",
    labelNames: ["kind", "outcome"],
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 1800],
    registers: [registry],
  });
  const streams = new Gauge({
    name: "svc_crawler_stream_batches_in_flight",
    help: "Stream-lane batches (uptime probes) this crawler node runs now, on its stream slots.",
    labelNames: ["kind"],
    registers: [registry],
  });
  const passedOn = new Counter({
    name: "svc_crawler_stream_passed_on_total",
    help: "Stream items this crawler node passed on for another node to run (confirmations of its own failed probes).",
    labelNames: ["kind"],
    registers: [registry],
  });
  for (const kind of WORK_KINDS) inFlight.set({ kind }, 0);
  for (const kind of STREAM_KINDS) {
    streams.set({ kind }, 0);
    passedOn.inc({ kind }, 0);
  }
  return {
    streamStarted: (kind) => streams.inc({ kind }),
    streamFinished: (kind) => streams.dec({ kind }),
    streamPassedOn: (kind) => passedOn.inc({ kind }),
    started: (kind) => inFlight.inc({ kind }),
    finished: (kind, outcome, seconds) => {
      inFlight.dec({ kind });
      completed.inc({ kind, outcome });
      duration.observe({ kind, outcome }, seconds);
    },
  };
}

/** Metrics that go nowhere (a worker built without a registry). */
export const NO_WORKER_METRICS: WorkerMetrics = { started: () => undefined, finished: () => undefined, streamStarted: () => undefined, streamFinished: () => undefined, streamPassedOn: () => undefined };
