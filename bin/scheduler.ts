import { createLogger, createMetricsRegistry, registerConsumerLag, KafkaProbe, Lifecycle, loadConfig, systemClock } from "../runtime/index.ts";
import { buildScheduler, busTopics, registerSchedulerMetrics } from "../scheduler/index.ts";
import { ping, pingClickHouse, type ClickHouse, type Db } from "../storage/index.ts";
import { openStore, startLegacyFactsMove } from "./compose.ts";
import { startTracing } from "./tracing.ts";
import { drainBudgetMs, kafkaBus, logConfigNotes, probe, replicaName, requireEngines, runUntilSignal, startOps, type RoleState } from "./role.ts";
import { listenOrExplain } from "./listen.ts";

/**
 * `svc scheduler`: the gRPC control plane (SchedulerService and grpc.health.v1 on SVC_GRPC_LISTEN)
 * over Postgres, the outbox relay to Kafka, the sweeper, and the planner of periodic re-checks.
 * Creates the bus topics at start. Several may run: Postgres decides (leases, SKIP LOCKED outbox
 * rows, the planner's advisory lock). Needs SVC_POSTGRES_URL and SVC_KAFKA_BROKERS.
 */
export async function scheduler(env: NodeJS.ProcessEnv): Promise<number> {
  const config = loadConfig(env, "scheduler");
  requireEngines("scheduler", config);
  const logger = createLogger(config.logLevel).child({ role: "scheduler", replica: replicaName("scheduler") });
  logConfigNotes(env, "scheduler", logger);
  const clock = systemClock;
  const life = new Lifecycle();
  const state: RoleState = { started: false, draining: false };
  try {
    await startTracing(config, life, "svc-scheduler", logger);
    const metrics = createMetricsRegistry("scheduler");
    const kafka = new KafkaProbe(config.kafkaBrokers ?? [], "svc-scheduler-probe");
    let db: Db | null = null;
    let ch: ClickHouse | null = null;
    // Ready with Postgres and Kafka; ClickHouse is a detail: while it is away, the calls that store
    // pages and results answer UNAVAILABLE and crawlers retry them, the rest goes on.
    await startOps(
      config,
      life,
      metrics,
      "scheduler",
      state,
      async () => {
        const [postgres, k] = await Promise.all([probe(async () => (db ? ping(db) : undefined)), probe(() => kafka.brokers())]);
        return { postgres, kafka: k };
      },
      async () => (ch ? { clickhouse: await probe(() => pingClickHouse(ch as ClickHouse)) } : {}),
    );

    const opened = await openStore(config, clock, life, metrics, logger);
    const { store, db: storeDb } = opened;
    db = storeDb;
    ch = opened.ch ?? null;
    // Search facts older versions kept in the account database, moved to ClickHouse once.
    void startLegacyFactsMove(opened, clock, logger);
    registerSchedulerMetrics(metrics, store.jobs, clock, { incidents: store.incidents, webhooks: store.webhooks });
    const bus = life.add("bus", kafkaBus(config, logger, "scheduler"));
    registerConsumerLag(metrics, bus, clock);
    const created = await bus.ensureTopics(busTopics(config));
    if (created.length > 0) logger.info({ topics: created.map((t) => bus.brokerTopic(t)), partitions: config.kafkaPartitions, retentionHours: config.kafkaRetentionHours }, "bus topics created");
    // Closed before the bus and the database: the gRPC server (health NOT_SERVING first), the
    // relay's pass in progress, the timers.
    // Calls in flight get the drain share of SVC_SHUTDOWN_GRACE_MS; the rest is for the bus and the database.
    const handle = await listenOrExplain(config.grpcListen, "SVC_GRPC_LISTEN", () => buildScheduler({ store, config, clock, logger, bus, metrics }, config.grpcListen));
    life.add("scheduler", { close: () => handle.close(drainBudgetMs(config)) });
    state.started = true;
    logger.info({ grpc: handle.address, brokers: config.kafkaBrokers, adminPort: config.adminPort, planEverySeconds: config.planEverySeconds }, "svc scheduler serving");
    return await runUntilSignal(config, logger, life, state);
  } catch (err) {
    await life.close().catch(() => undefined);
    throw err;
  }
}
