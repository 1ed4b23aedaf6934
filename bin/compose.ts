import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { closedWithin, ConfigError, createLogger, createMetricsRegistry, GRPC_MESSAGE_OPTIONS, storeEngineMetric, storeWasmHeapMetric, storeWriteMetrics, InProcessBus, Lifecycle, systemClock, unixSeconds, type Clock, type Config, type Logger } from "../runtime/index.ts";
import {
  ClickHouseCheckSeries,
  ClickHouseCrawlPages,
  ClickHouseUptimeSeries,
  ClickHouseSerpSeries,
  ClickHouseSearchDailySeries,
  ClickHouseSearchPeriodSeries,
  ClickHouseBacklinkSeries,
  ClickHouseIndexSeries,
  ClickHouseMarketSeries,
  ClickHouseRankSeries,
  ClickHouseUsageSeries,
  checkSeriesLocation,
  createStore,
  dropExpiredPartitions,
  EngineStates,
  guardedClickHouse,
  guardedDb,
  ensureClickHouseSchema,
  lockDataDir,
  migrate,
  moveLegacySearchFacts,
  openClickHouse,
  openPglite,
  openPostgres,
  SeriesLocationError,
  seriesLocationOf,
  timedClickHouse,
  timedDb,
  type ClickHouse,
  type Db,
  type Store,
} from "../storage/index.ts";
import { credentials } from "@grpc/grpc-js";
import { buildApp, buildOperations, createGatewayParts, grpcSchedulerPort, type AdminService, type GatewayDeps, type SchedulerPort } from "../gateway/index.ts";
import { buildScheduler } from "../scheduler/index.ts";
import { CRAWLER_KINDS, CrawlerWorker, crawlerStreamKinds, createCrawlerNode } from "../crawler/index.ts";
import { SchedulerServiceClient } from "../proto/index.ts";
import { PACKAGE_VERSION } from "./version.ts";

export { PACKAGE_VERSION };

export interface Opened {
  readonly db: Db;
  readonly store: Store;
  readonly life: Lifecycle;
  /** The distributed mode's ClickHouse (timed and guarded as the store's), when configured. */
  readonly ch?: ClickHouse;
  /** Each engine's state as this process's calls find it (the distributed mode's engines). */
  readonly engines?: EngineStates;
}

/** The side-by-side group of a role's connections (Lifecycle): stores, clients, the bus. */
export const CONNECTIONS = "connections";

/** How long closing waits for the Postgres pool's last queries (the roles' close budgets hold it). */
export const POSTGRES_CLOSE_MS = 1000;

/**
 * Opens the account store the configuration names: a Postgres server, or PGlite under the data dir
 * (locked). With a metrics registry, its writes are timed (svc_store_write_duration_seconds:
 * account-database transactions, ClickHouse inserts).
 */
export async function openStore(config: Config, clock: Clock, life: Lifecycle, metrics?: Registry, logger?: Logger): Promise<Opened> {
  let db: Db;
  if (config.postgresUrl) {
    db = openPostgres({ url: config.postgresUrl, poolSize: config.postgresPoolSize });
  } else {
    const lock = lockDataDir(config.dataDir);
    life.add("data-dir lock", { close: async () => lock.release() });
    const pglite = await openPglite(join(config.dataDir, "pg"), undefined, { sharedBuffersMb: 16 });
    if (metrics) storeWasmHeapMetric(metrics, () => pglite.wasmHeapBytes());
    db = pglite;
  }
  // The stores close side by side with the role's other connections (its scheduler client, its
  // Kafka producer), once everything that uses them has closed. A Postgres pool whose query still
  // waits (on a lock, a slow server) would hold the close past the grace period: it is given
  // POSTGRES_CLOSE_MS, then left to the exit (the server rolls the transaction back).
  const pool = db;
  life.add("database", config.postgresUrl ? closedWithin(pool, POSTGRES_CLOSE_MS, () => logger?.warn({ ms: POSTGRES_CLOSE_MS }, "database connections still busy; left to the exit")) : pool, { sideBySide: CONNECTIONS });
  await migrate(db, unixSeconds(clock));
  // Where the time series live is fixed when the store is first set up; a role configured otherwise stops here.
  await checkSeriesLocation(db, seriesLocationOf(config.clickhouseUrl), unixSeconds(clock)).catch((err: unknown) => {
    throw err instanceof SeriesLocationError ? new ConfigError([err.message]) : err;
  });
  const observe = metrics ? storeWriteMetrics(metrics) : null;
  // Migrations are not the store's writes: timed from here on.
  if (observe) db = timedDb(db, observe);
  const engines = engineStates(config, clock, metrics, logger);
  // A call that meets an engine restarting says so (EngineUnavailableError): answered as "try again", not as a fault.
  db = guardedDb(db, engines);
  if (!config.clickhouseUrl) return { db, store: createStore(db), life, engines };
  // The distributed mode's time series on ClickHouse: usage, per-check results and crawl pages
  // (whose leases stay on the account database, checked by the scheduler).
  const opened = await openClickHouse({ url: config.clickhouseUrl });
  life.add("clickhouse", opened, { sideBySide: CONNECTIONS });
  const ch = guardedClickHouse(observe ? timedClickHouse(opened, observe) : opened, engines);
  await ensureClickHouseSchema(ch);
  const retention = async () => dropExpiredPartitions(ch, config.clickhouseRetentionMonths, unixSeconds(clock));
  await retention();
  const daily = setInterval(() => void retention().catch(() => undefined), 86_400_000);
  daily.unref();
  life.add("clickhouse retention", { close: async () => clearInterval(daily) }, { sideBySide: CONNECTIONS });
  const series = { usage: new ClickHouseUsageSeries(ch), checks: new ClickHouseCheckSeries(ch), crawlPages: new ClickHouseCrawlPages(ch, clock), uptime: new ClickHouseUptimeSeries(ch), serp: new ClickHouseSerpSeries(ch), searchDaily: new ClickHouseSearchDailySeries(ch), searchPeriod: new ClickHouseSearchPeriodSeries(ch), ranks: new ClickHouseRankSeries(ch), backlinks: new ClickHouseBacklinkSeries(ch), index: new ClickHouseIndexSeries(ch), market: new ClickHouseMarketSeries(ch) };
  return { db, store: createStore(db, series), life, ch, engines };
}

/**
 * The engines' states of a process holding the store: one log line when an engine stops answering
 * and one when it answers again (not one per call that met the outage), and svc_store_engine_up.
 */
function engineStates(config: Config, clock: Clock, metrics?: Registry, logger?: Logger): EngineStates {
  const names = config.postgresUrl ? ["postgres", ...(config.clickhouseUrl ? ["clickhouse"] : [])] : [];
  const set = metrics && names.length > 0 ? storeEngineMetric(metrics, names) : null;
  const label = (engine: string) => (engine === "postgres" ? "Postgres" : "ClickHouse");
  return new EngineStates(
    {
      down(engine, err) {
        set?.(engine, false);
        logger?.warn({ engine, err: (err as Error)?.message ?? String(err) }, `${label(engine)} is unavailable: calls that need it answer "try again" until it is back`);
      },
      up(engine, downMs) {
        set?.(engine, true);
        logger?.info({ engine, downMs }, `${label(engine)} is available again`);
      },
    },
    () => clock.nowMs(),
  );
}

/** The leadership under which one process moves older versions' search facts to ClickHouse. */
export const LEGACY_FACTS_LEADERSHIP = "legacy search facts";

/**
 * In the distributed mode, moves the search facts older versions left in the account database
 * (period sums, backlinks, indexing, market) into ClickHouse, once, in the background: one process
 * of all those starting holds the leadership (renewed before each batch) and does it; the others
 * skip it. Logged with the batches and rows moved. Answers the run (for tests), or null.
 */
export function startLegacyFactsMove(opened: Opened, clock: Clock, logger: Logger): Promise<void> | null {
  const ch = opened.ch;
  if (!ch) return null;
  const holder = `move-${randomUUID().slice(0, 8)}`;
  const ttlMs = 600_000;
  const run = (async () => {
    if (!(await opened.store.leaders.acquire(LEGACY_FACTS_LEADERSHIP, holder, clock.nowMs(), ttlMs))) return;
    try {
      const moved = await moveLegacySearchFacts(opened.db, ch, { keepGoing: () => opened.store.leaders.acquire(LEGACY_FACTS_LEADERSHIP, holder, clock.nowMs(), ttlMs) });
      if (moved.batches > 0 || moved.orphans > 0) logger.info({ batches: moved.batches, rows: moved.rows, tables: moved.tables, orphans: moved.orphans }, "search facts of older versions moved to ClickHouse");
    } finally {
      await opened.store.leaders.release(LEGACY_FACTS_LEADERSHIP, holder).catch(() => undefined);
    }
  })().catch((err: unknown) => logger.warn({ err }, "moving older versions' search facts to ClickHouse failed; the next start tries again"));
  opened.life.add("legacy search facts move", { close: () => run });
  return run;
}

export interface GatewayHandle {
  readonly app: FastifyInstance;
  readonly deps: GatewayDeps;
  readonly admin: AdminService;
}

/**
 * The work path of one process: the scheduler's gRPC server on loopback, the bus (in process), a
 * crawler worker talking to the scheduler over gRPC, and the gateway's client of it.
 */
export async function composeEmbeddedWork(config: Config, store: Store, life: Lifecycle, logger: Logger, clock: Clock = systemClock, metrics?: Registry): Promise<SchedulerPort> {
  const bus = life.add("bus", new InProcessBus());
  const scheduler = life.add("scheduler", await buildScheduler({ store, config, clock, logger, bus, metrics }, "127.0.0.1:0"));
  const extraCa = config.crawl.extraCaFile ? readFileSync(config.crawl.extraCaFile, "utf8") : null;
  const node = life.add("crawler node", createCrawlerNode({ ...config.crawl, allowPrivateTargets: config.allowPrivateTargets, allowLinkLocal: config.allowLinkLocalTargets, extraCa }, clock, metrics));
  // Work is taken once the parse threads have loaded, not paid for inside the first crawl.
  await node.ready();
  const workerClient = new SchedulerServiceClient(scheduler.address, credentials.createInsecure(), GRPC_MESSAGE_OPTIONS);
  life.add("worker's scheduler client", { close: async () => workerClient.close() });
  const worker = new CrawlerWorker({
    bus,
    scheduler: workerClient,
    kinds: CRAWLER_KINDS,
    node,
    logger,
    leaseMs: config.leaseMs,
    concurrency: config.workerConcurrency,
    syncConcurrency: config.workerSyncConcurrency,
    streamConcurrency: config.workerStreamConcurrency,
    webhookConcurrency: config.workerWebhookConcurrency,
    streams: crawlerStreamKinds(),
  });
  await worker.start();
  life.add("crawler worker", worker);
  const gatewayClient = new SchedulerServiceClient(scheduler.address, credentials.createInsecure(), GRPC_MESSAGE_OPTIONS);
  life.add("gateway's scheduler client", { close: async () => gatewayClient.close() });
  return grpcSchedulerPort(gatewayClient);
}

/** The gateway and its background parts (switch refresh, usage flush, key changes, purges), registered for closing. */
export async function composeGateway(
  config: Config,
  store: Store,
  life: Lifecycle,
  logger: Logger,
  metrics: Registry,
  scheduler: SchedulerPort,
  clock: Clock = systemClock,
): Promise<GatewayHandle> {
  const parts = createGatewayParts({ config, store, clock, logger, metrics, serviceVersion: PACKAGE_VERSION, scheduler });
  await parts.start();
  life.add("gateway background", parts);
  const app = await buildApp({ deps: parts.deps, operations: buildOperations() });
  const purge = setInterval(() => {
    const now = unixSeconds(clock);
    void store.idempotency.purgeExpired(now).catch(() => undefined);
    void store.auth.purgeCounters(Math.floor(now / 3600) - 1).catch(() => undefined);
  }, 600_000);
  purge.unref();
  life.add("purge timer", { close: async () => clearInterval(purge) });
  return { app, deps: parts.deps, admin: parts.admin };
}

export { createLogger, createMetricsRegistry };
