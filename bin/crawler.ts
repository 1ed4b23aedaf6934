import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { credentials } from "@grpc/grpc-js";
import { SchedulerServiceClient, TOPICS } from "../proto/index.ts";
import { createLogger, createMetricsRegistry, registerConsumerLag, GRPC_CHANNEL_OPTIONS, GrpcHealthProbe, KafkaProbe, Lifecycle, loadConfig, systemClock } from "../runtime/index.ts";
import { BROWSER_CLOSE_MS, CRAWLER_KINDS, CrawlerWorker, HAND_BACK_WAIT_MS, crawlerStreamKinds, createCrawlerNode, isRetryableWorkError, ProbeHealth, probeMetrics, workerMetrics } from "../crawler/index.ts";
import { drainBudgetMs, kafkaBus, kafkaHeartbeatMs, logConfigNotes, probe, replicaName, requireEngines, runUntilSignal, startOps, type RoleState } from "./role.ts";
import { startTracing } from "./tracing.ts";

/**
 * `svc crawler`: one crawler node. Takes work from Kafka (consumer groups crawler.svc.work.v1 and
 * crawler.svc.sync.v1), leases each job from the scheduler over gRPC and hands results back the same
 * way; it holds no database credentials. Needs SVC_KAFKA_BROKERS and SVC_SCHEDULER_ADDRESS.
 */
export async function crawler(env: NodeJS.ProcessEnv): Promise<number> {
  const config = loadConfig(env, "crawler");
  requireEngines("crawler", config);
  const name = replicaName("crawler");
  const logger = createLogger(config.logLevel).child({ role: "crawler", replica: name });
  logConfigNotes(env, "crawler", logger);
  if (env.SVC_POSTGRES_URL) logger.warn("SVC_POSTGRES_URL is set but svc crawler never opens the database (crawler nodes hold no database credentials): remove it from its environment");
  const schedulerAddress = config.schedulerAddress as string;
  const life = new Lifecycle();
  const state: RoleState = { started: false, draining: false };
  try {
    await startTracing(config, life, "svc-crawler", logger);
    const metrics = createMetricsRegistry("crawler");
    // The node's view of its own probes: /metrics and /readyz say when it suspects itself.
    const probeHealth = new ProbeHealth();
    const probeMetricsOf = probeMetrics(metrics, probeHealth, systemClock);
    const kafka = new KafkaProbe(config.kafkaBrokers ?? [], "svc-crawler-probe");
    const health = life.add("scheduler health probe", new GrpcHealthProbe(schedulerAddress));
    await startOps(config, life, metrics, "crawler", state, async () => {
      const [k, s] = await Promise.all([probe(() => kafka.brokers()), health.status()]);
      return { kafka: k, scheduler: s === "SERVING" ? "ok" : s };
    }, async () => ({ probes: probeHealth.suspect(systemClock.nowMs()) ? "node_suspect" : "ok" }));

    // What closing takes once the drain is over, its steps run side by side: the consumers' last
    // fetch (a disconnect waits for it: the Kafka heartbeat interval), the abandoned attempts'
    // leases handed back, the browser's close (bounded), plus a second for commits and the log on
    // a loaded machine (measured: test/integration/engine-outages.test.ts, "closes within its grace").
    const closeMs = Math.max(kafkaHeartbeatMs(config), HAND_BACK_WAIT_MS, BROWSER_CLOSE_MS) + 1000;
    const drainMs = drainBudgetMs(config, closeMs);
    // Handlers are whole jobs; a bounded number of them per subscription (fetching pauses when
    // full), a few more than the worker runs at once so that a slow domain does not idle the node.
    const bus = kafkaBus(config, logger, "crawler", {
      maxInFlight: 4 * Math.max(config.workerConcurrency, config.workerSyncConcurrency),
      isRetryable: isRetryableWorkError,
      // The scheduler away (a restart) is not the message's fault: about half a minute of attempts
      // before a dead letter, and a dead-lettered job is still published again from Postgres.
      maxAttempts: 8,
      retryInitialMs: 500,
      retryMaxMs: 10_000,
      drainTimeoutMs: drainMs,
    });
    registerConsumerLag(metrics, bus, systemClock);
    const topics = [TOPICS.work, TOPICS.sync, TOPICS.stream, TOPICS.webhooks].map((t) => bus.brokerTopic(t));
    for (let logged = false; ; ) {
      const missing = await kafka.missingTopics(topics).catch((err: Error) => [`(Kafka: ${err.message})`]);
      if (missing.length === 0) break;
      if (!logged) logger.warn({ missing }, "waiting for the bus topics (svc scheduler creates them)");
      logged = true;
      await sleep(1000);
    }

    const client = new SchedulerServiceClient(schedulerAddress, credentials.createInsecure(), GRPC_CHANNEL_OPTIONS);
    life.add("scheduler client", { close: async () => client.close() });
    const extraCa = config.crawl.extraCaFile ? readFileSync(config.crawl.extraCaFile, "utf8") : null;
    const node = createCrawlerNode({ ...config.crawl, allowPrivateTargets: config.allowPrivateTargets, allowLinkLocal: config.allowLinkLocalTargets, extraCa }, systemClock, metrics);
    // Closed once, with the bus (below); the lifecycle's own close of it then finds it closed.
    let nodeClosing: Promise<void> | null = null;
    const closeNode = () => (nodeClosing ??= node.close());
    life.add("crawler node, if not closed yet", { close: closeNode });
    // Work is taken once the parse threads have loaded, not paid for inside the first crawl.
    await node.ready();
    const worker = new CrawlerWorker({
      bus,
      scheduler: client,
      kinds: CRAWLER_KINDS,
      node,
      logger,
      leaseMs: config.leaseMs,
      concurrency: config.workerConcurrency,
      syncConcurrency: config.workerSyncConcurrency,
      streamConcurrency: config.workerStreamConcurrency,
      webhookConcurrency: config.workerWebhookConcurrency,
      streams: crawlerStreamKinds(probeHealth, probeMetricsOf.observe),
      worker: name,
      metrics: workerMetrics(metrics),
    });
    // One closeable for both, in this order: the bus stops fetching first, so that a message the
    // closing worker refuses is left for another node rather than retried into the dead letters;
    // running jobs get the drain budget, then the worker abandons them (their leases lapse and
    // another node resumes them from their checkpoints) and the bus commits what finished.
    // Then the bus (consumers, producer) and the node (browser, parse threads, egress) close side
    // by side: the sum of their closes would not fit the grace period on a loaded machine.
    life.add("bus, worker and node", {
      close: async () => {
        const closingBus = bus.close();
        await worker.close(drainMs);
        await Promise.all([closingBus, closeNode()]);
      },
    });
    await worker.start();
    state.started = true;
    logger.info({ scheduler: schedulerAddress, brokers: config.kafkaBrokers, concurrency: config.workerConcurrency, adminPort: config.adminPort }, "svc crawler taking work");
    return await runUntilSignal(config, logger, life, state);
  } catch (err) {
    await life.close().catch(() => undefined);
    throw err;
  }
}
