import { setTimeout as sleep } from "node:timers/promises";
import { credentials } from "@grpc/grpc-js";
import type { FastifyInstance } from "fastify";
import { SchedulerServiceClient } from "../proto/index.ts";
import { createLogger, createMetricsRegistry, GRPC_CHANNEL_OPTIONS, GrpcHealthProbe, Lifecycle, loadConfig, systemClock, type Logger } from "../runtime/index.ts";
import { isUniqueViolation, ping, pingClickHouse, type ClickHouse, type Db } from "../storage/index.ts";
import { bootstrapOwner, grpcSchedulerPort, planSeedDrift } from "../gateway/index.ts";
import { composeGateway, CONNECTIONS, openStore } from "./compose.ts";
import { startTracing } from "./tracing.ts";
import { drainBudgetMs, logConfigNotes, probe, replicaName, requireEngines, runUntilSignal, startOps, type RoleState } from "./role.ts";
import { listenOrExplain } from "./listen.ts";

/**
 * What closing takes once the requests are done, measured with a request in flight on a loaded
 * machine (test/integration/role-shutdown.test.ts): the usage flush, then the scheduler client and
 * the stores side by side, and the log; the rest of SVC_SHUTDOWN_GRACE_MS is the requests' budget.
 */
const CLOSE_MS = 2000;

/**
 * Stops taking requests and waits for those in flight, for drainMs at most: then their
 * connections are closed (their clients see the connection reset) and closing goes on.
 */
async function closeWithin(app: FastifyInstance, drainMs: number, logger: Logger): Promise<void> {
  const closing = app.close();
  const timer = new AbortController();
  const late = await Promise.race([closing.then(() => false), sleep(drainMs, true, { signal: timer.signal }).catch(() => false)]);
  timer.abort();
  if (!late) return;
  logger.warn({ drainMs }, "drain budget spent: connections with requests still running are closed");
  app.server.closeAllConnections();
  await closing;
}

/**
 * `svc gateway`: the REST API (and its background parts) on a Postgres server, asking the
 * scheduler over gRPC for everything that runs work. Any number may run behind a load balancer.
 * Needs SVC_POSTGRES_URL and SVC_SCHEDULER_ADDRESS.
 */
export async function gateway(env: NodeJS.ProcessEnv): Promise<number> {
  const config = loadConfig(env, "gateway");
  requireEngines("gateway", config);
  const logger = createLogger(config.logLevel).child({ role: "gateway", replica: replicaName("gateway") });
  logConfigNotes(env, "gateway", logger);
  const clock = systemClock;
  const schedulerAddress = config.schedulerAddress as string;
  const life = new Lifecycle();
  const state: RoleState = { started: false, draining: false };
  try {
    await startTracing(config, life, "svc-gateway", logger);
    const metrics = createMetricsRegistry("gateway");
    const health = life.add("scheduler health probe", new GrpcHealthProbe(schedulerAddress));
    let db: Db | null = null;
    let ch: ClickHouse | null = null;
    // Ready when Postgres answers: reads are the hot path and never touch the scheduler, so a
    // scheduler restart must not take every gateway out of its load balancer. The scheduler's
    // health and ClickHouse's are reported beside it: while either is away the calls that need
    // it answer 503 with Retry-After, and the others are served.
    await startOps(
      config,
      life,
      metrics,
      "gateway",
      state,
      async () => ({ postgres: await probe(async () => (db ? ping(db) : undefined)) }),
      async () => {
        const [s, c] = await Promise.all([health.status(), ch ? probe(() => pingClickHouse(ch as ClickHouse)) : Promise.resolve(null)]);
        return { scheduler: s === "SERVING" ? "ok" : s, ...(c === null ? {} : { clickhouse: c }) };
      },
    );

    const { store, db: storeDb, ch: storeCh } = await openStore(config, clock, life, metrics, logger);
    db = storeDb;
    ch = storeCh ?? null;
    const client = new SchedulerServiceClient(schedulerAddress, credentials.createInsecure(), GRPC_CHANNEL_OPTIONS);
    // Closed side by side with the stores, once the requests and the background parts are done.
    life.add("scheduler client", { close: async () => client.close() }, { sideBySide: CONNECTIONS });
    const { app, admin, deps } = await composeGateway(config, store, life, logger, metrics, grpcSchedulerPort(client), clock);

    // Gateways starting together race to create the owner: one wins, the others find it made.
    const boot = await bootstrapOwner(admin, store, config).catch((err: unknown) => {
      if (isUniqueViolation(err)) return null;
      throw err;
    });
    if (boot?.generated) {
      // Printed once, on the console only (never in the JSON log): it is not stored anywhere readable.
      process.stdout.write(`\nSvc created the owner account ${config.bootstrapEmail}. Its API key (shown only now):\n\n  ${boot.key}\n\n`);
    }
    const plan = await store.accounts.planByName("default");
    if (plan) for (const line of planSeedDrift(plan, config, Object.keys(env))) logger.warn(line);

    await listenOrExplain(`${config.host}:${config.port}`, "SVC_PORT", () => app.listen({ host: config.host, port: config.port }));
    // Closed first on SIGTERM (after readiness turned 503): the requests in flight finish within
    // the drain budget; then the background parts (the usage flush), then the scheduler client and
    // the stores side by side.
    const drainMs = drainBudgetMs(config, CLOSE_MS);
    life.add("gateway", { close: () => closeWithin(app, drainMs, logger) });
    state.started = true;
    const addr = app.server.address();
    const port = typeof addr === "object" && addr ? addr.port : config.port;
    logger.info({ port, scheduler: schedulerAddress, adminPort: config.adminPort }, `svc gateway serving on http://${config.host}:${port}/api/v1`);
    return await runUntilSignal(config, logger, life, state, () => {
      deps.switches.draining = true;
      // Keep-alive connections that were busy when closing began would idle until their timeout:
      // close each as soon as it is idle (answers now carry Connection: close).
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      sweep.unref();
      return () => clearInterval(sweep);
    });
  } catch (err) {
    await life.close().catch(() => undefined);
    throw err;
  }
}
