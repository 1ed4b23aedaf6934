import { join } from "node:path";
import { buildOpsServer, createLogger, createMetricsRegistry, Lifecycle, loadConfig, systemClock } from "../runtime/index.ts";
import { bootstrapOwner, planSeedDrift, startAdminChannel } from "../gateway/index.ts";
import { ping, pingClickHouse } from "../storage/index.ts";
import { composeEmbeddedWork, composeGateway, openStore, startLegacyFactsMove } from "./compose.ts";
import { startTracing } from "./tracing.ts";
import { listenOrExplain } from "./listen.ts";
import { logConfigNotes, probe, shutdownSignal } from "./role.ts";

/**
 * `svc serve` (npm start): the whole service in one process on the embedded store, or on a Postgres
 * server when SVC_POSTGRES_URL is set. Returns when the process should exit.
 */
export async function serve(env: NodeJS.ProcessEnv): Promise<number> {
  const config = loadConfig(env, "serve");
  const logger = createLogger(config.logLevel);
  logConfigNotes(env, "serve", logger);
  const life = new Lifecycle();
  const clock = systemClock;
  try {
    await startTracing(config, life, "svc", logger);
    const metrics = createMetricsRegistry("serve");
    const opened = await openStore(config, clock, life, metrics, logger);
    const { store, db: storeDb } = opened;
    // With SVC_CLICKHOUSE_URL: search facts older versions kept in the account database, moved once.
    void startLegacyFactsMove(opened, clock, logger);
    // On the embedded store a crawl's page facts wait under the data directory (beside the store, not in
    // a temp dir that may be memory), unless SVC_CRAWL_FACTS_DIR says where.
    const factsDir = config.crawl.crawlFactsDir || (config.postgresUrl ? "" : join(config.dataDir, "crawl-facts"));
    const scheduler = await composeEmbeddedWork({ ...config, crawl: { ...config.crawl, crawlFactsDir: factsDir } }, store, life, logger, clock, metrics);
    const { app, admin, deps } = await composeGateway(config, store, life, logger, metrics, scheduler, clock);

    const boot = await bootstrapOwner(admin, store, config);
    if (boot?.generated) {
      // Printed once, on the console only (never in the JSON log): it is not stored anywhere readable.
      process.stdout.write(`\nSvc created the owner account ${config.bootstrapEmail}. Its API key (shown only now):\n\n  ${boot.key}\n\n`);
    }
    const plan = await store.accounts.planByName("default");
    if (plan) for (const line of planSeedDrift(plan, config, Object.keys(env))) logger.warn(line);

    if (!config.postgresUrl) life.add("admin channel", await startAdminChannel(join(config.dataDir, "admin.sock"), admin));
    let draining = false;
    let listening = false;
    // Both ports are bound before anything answers, each in the lifecycle as soon as it is open,
    // so that a port in use ends the process at once (rather than leaving the other one serving).
    const ops = buildOpsServer({
      requestTimeoutMs: config.requestTimeoutMs,
      metrics,
      ready: async () => {
        await ping(storeDb);
        const ch = opened.ch;
        return { ok: listening && !draining, detail: { store: storeDb.kind, draining, ...(ch ? { clickhouse: await probe(() => pingClickHouse(ch)) } : {}) } };
      },
    });
    await listenOrExplain(`${config.adminHost}:${config.adminPort}`, "SVC_ADMIN_PORT", () => ops.listen({ host: config.adminHost, port: config.adminPort }));
    life.add("ops server", ops);
    await listenOrExplain(`${config.host}:${config.port}`, "SVC_PORT", () => app.listen({ host: config.host, port: config.port }));
    life.add("gateway", app);
    listening = true;
    const addr = app.server.address();
    const port = typeof addr === "object" && addr ? addr.port : config.port;
    logger.info({ port, store: storeDb.kind, adminPort: config.adminPort }, `svc serving on http://${config.host}:${port}/api/v1`);

    const signal = await shutdownSignal();
    const stopping = Date.now();
    draining = true;
    deps.switches.draining = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, "draining");
    // Keep-alive connections that were busy when closing began would idle until their timeout:
    // close each as soon as it is idle (answers now carry Connection: close).
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    sweep.unref();
    const grace = setTimeout(() => {
      logger.error({ graceMs: config.shutdownGraceMs }, "grace period over; exiting with work in flight");
      process.exit(1);
    }, config.shutdownGraceMs);
    grace.unref();
    await life.close();
    clearInterval(sweep);
    clearTimeout(grace);
    // The last line, as the roles' (runUntilSignal): how long the drain and the closing took.
    logger.info({ ms: Date.now() - stopping }, "stopped");
    return 0;
  } catch (err) {
    await life.close().catch(() => undefined);
    throw err;
  }
}
