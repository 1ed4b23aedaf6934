import { Server, ServerCredentials } from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import type { Registry } from "prom-client";
import { randomUUID } from "node:crypto";
import { SchedulerServiceService, TOPICS } from "../proto/index.ts";
import { GRPC_MESSAGE_OPTIONS, tracedHandlers, type Bus, type Clock, type Config, type Logger, type TopicSpec } from "../runtime/index.ts";
import type { Store } from "../storage/index.ts";
import { FailoverEvents } from "./failover.ts";
import { workMessage } from "./messages.ts";
import { defaultPlanners, PlannerRunner, type Planner } from "./planners/index.ts";
import { ResultsConsumer, SCHEDULER_STREAM_KINDS } from "./stream/index.ts";
import { OutboxRelay } from "./relay.ts";
import { schedulerHandlers } from "./scheduler-service.ts";

export interface SchedulerDeps {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly bus: Bus;
  /** The periodic work (defaultPlanners() unless given). */
  readonly planners?: readonly Planner[];
  /** The process's registry, for the failover counters (svc_scheduler_jobs_republished_total, …); none: logged only. */
  readonly metrics?: Registry;
}

export interface SchedulerHandle {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  /** Stops planning, relaying and serving side by side; calls still running drainMs (default 5 s) after the start are cancelled. */
  close(drainMs?: number): Promise<void>;
}

const SERVICE_NAME = "svc.v1.SchedulerService";
/** Calls that create, lease or settle a job: one info line each (the others at debug). */
const JOB_CALLS: ReadonlySet<string> = new Set(["StartAnalysis", "StartCrawl", "RunCheck", "Lease", "Complete"]);

/**
 * The bus topics of the distributed mode, which `svc scheduler` creates at start: work, the
 * synchronous lane, the stream lane, webhook deliveries, the stream's results and the dead letters of them all, each with the configured partitions
 * and retention (names before SVC_KAFKA_TOPIC_PREFIX).
 */
export function busTopics(config: Config): TopicSpec[] {
  const retentionMs = config.kafkaRetentionHours * 3_600_000;
  return [TOPICS.work, TOPICS.sync, TOPICS.stream, TOPICS.webhooks, TOPICS.results, TOPICS.deadLetters].map((topic) => ({ topic, partitions: config.kafkaPartitions, retentionMs }));
}

/**
 * The scheduler: the gRPC control plane over Postgres, the outbox relay to the bus, and the
 * planners of periodic work (stale work published again, re-checks, the check series) under one
 * leader among the scheduler processes.
 */
export async function buildScheduler(deps: SchedulerDeps, listen: string): Promise<SchedulerHandle> {
  const replica = `scheduler-${randomUUID().slice(0, 8)}`;
  const relay = new OutboxRelay(deps.store, deps.bus, deps.clock);
  const failover = new FailoverEvents(deps.logger, deps.metrics);
  const server = new Server({ "grpc.max_connection_age_ms": 300_000, "grpc.keepalive_permit_without_calls": 1, ...GRPC_MESSAGE_OPTIONS });
  server.addService(SchedulerServiceService, tracedHandlers(schedulerHandlers({ ...deps, relay, replica, failover }), { logger: deps.logger, logAtInfo: JOB_CALLS }));
  const health = new HealthImplementation({ "": "SERVING", [SERVICE_NAME]: "SERVING" });
  health.addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(listen, ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const host = listen.slice(0, listen.lastIndexOf(":"));

  // After a restart, running jobs keep their workers: no scheduler could renew their leases while
  // none answered, so each gets one lease length from now to reconnect (the workers retry their
  // calls meanwhile). Work nobody holds otherwise is published again at once (by every scheduler:
  // the rows are locked as they are taken), then by the planners' leader regularly.
  const extended = await deps.store.jobs.extendRunningLeases(deps.clock.nowMs(), deps.config.leaseMs).catch(() => 0);
  failover.leasesExtended(extended, deps.config.leaseMs);
  await deps.store.jobs.republishStale(deps.clock.nowMs(), 0, (job) => workMessage(job, replica), failover.stale).catch(() => 0);
  relay.start(1000);
  const planners = new PlannerRunner(
    deps.planners ?? defaultPlanners(),
    { store: deps.store, config: deps.config, clock: deps.clock, logger: deps.logger, bus: deps.bus, message: (job) => workMessage(job, replica), kick: () => relay.kick(), failover },
    replica,
  );
  planners.start();
  // Stream results (uptime probes) are written by whichever scheduler the bus hands them to.
  await new ResultsConsumer(SCHEDULER_STREAM_KINDS, { config: deps.config, clock: deps.clock, logger: deps.logger, now: () => Math.floor(deps.clock.nowMs() / 1000) }, deps.store).start(deps.bus);

  return {
    address: `${host}:${port}`,
    async close(drainMs = 5000) {
      // Clients' health checks see the drain before the server stops answering.
      health.setStatus("", "NOT_SERVING");
      health.setStatus(SERVICE_NAME, "NOT_SERVING");
      // Planning and the outbox stop (their pass in progress ends) while the calls in flight finish,
      // side by side and all within drainMs from here, so that the bus and the store close in time.
      // At drainMs the calls still running are cancelled, and a pass still running is left to fail
      // on the closed store: the next scheduler plans and relays it again from Postgres.
      let overdue = false;
      const drained = Promise.allSettled([planners.close(), relay.close(), new Promise<void>((resolve) => server.tryShutdown(() => resolve()))]);
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          overdue = true;
          server.forceShutdown();
          resolve();
        }, drainMs);
        force.unref();
        void drained.then(() => {
          clearTimeout(force);
          resolve();
        });
      });
      if (overdue) deps.logger.warn({ drainMs }, "drain budget spent: calls still running were cancelled");
    },
  };
}
