import { randomBytes } from "node:crypto";
import type { Registry } from "prom-client";
import { PROVIDERS } from "../analyzer/index.ts";
import { ConfigError, type Clock, type Config, type Logger } from "../runtime/index.ts";
import { UTILITIES } from "../utilities/index.ts";
import type { Store } from "../storage/index.ts";
import { AdminService } from "./admin/admin-service.ts";
import type { GatewayDeps } from "./deps.ts";
import { KeyCache } from "./keys/key-cache.ts";
import { Quota } from "./pipeline/quota.ts";
import { ServiceSwitches } from "./admin/service-switches.ts";
import { UsageMeter } from "./keys/usage-meter.ts";
import type { SchedulerPort } from "./scheduler-port.ts";
import { createUtilityPool, ownThreadEntry } from "./utility-pool/utility-pool.ts";
import { SchedulerNetLane } from "./utility-pool/net-lane.ts";
import { UtilityRunner } from "./utility-pool/utility-runner.ts";
import { sweepImports } from "./operations/search-imports.ts";
import { createImportParser } from "./imports/import-parser.ts";

/**
 * Cells an import may hold per row of SVC_IMPORT_MAX_ROWS (10,000,000 at the default 500,000): the
 * exports Svc reads have far fewer columns, so the row cap binds first on real files and this one
 * only on a sheet of unrealistically wide rows or shared texts. Not a setting of its own.
 */
const CELLS_PER_ROW = 20;

export interface GatewayParts {
  readonly deps: GatewayDeps;
  readonly admin: AdminService;
  /** Starts the background parts: switch refresh, usage flush, key-change subscription. */
  start(): Promise<void>;
  /** Stops them, flushing pending usage. */
  close(): Promise<void>;
}

/** Builds what the gateway runs on from a store; the composition root (or a test) starts and closes it. */
export function createGatewayParts(options: {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Registry;
  readonly serviceVersion: string;
  readonly scheduler: SchedulerPort;
}): GatewayParts {
  const { config, store, clock } = options;
  checkOffLists(config);
  const switches = new ServiceSwitches(store.serviceState, config.maintenance);
  const usage = new UsageMeter(store.usage);
  const keys = new KeyCache(store.auth, clock, config.keyCacheMs);
  const utilityPool = createUtilityPool({ ...utilityBulkheads(config), size: config.utilities.threads, cpuMs: config.utilities.cpuMs, memoryMb: config.utilities.memoryMb, spare: true });
  // libvips allocates outside V8: the image utilities run in child processes whose resident memory is bounded.
  const imagePool = createUtilityPool({
    ...utilityBulkheads(config),
    size: config.utilities.threads,
    cpuMs: config.utilities.cpuMs,
    memoryMb: config.utilities.memoryMb,
    isolation: "process",
    rssMb: config.utilities.imageMemoryMb,
  });
  const utilities = new UtilityRunner({ pool: utilityPool, nativePool: imagePool, clock, random: randomBytes, logger: options.logger, metrics: options.metrics, off: config.utilities.off,
    // Network utilities run as `utility` jobs on the crawler nodes, through the scheduler.
    net: new SchedulerNetLane({ scheduler: options.scheduler, store, config, clock, random: randomBytes }),
    // spell_check's dictionaries are built once in a thread of its own, started on first use.
    ownThread: (u) =>
      createUtilityPool({
        size: 1,
        cpuMs: config.utilities.cpuMs,
        memoryMb: Math.max(config.utilities.memoryMb, u.memoryMb ?? 0),
        entry: ownThreadEntry(u.id),
        onLoadFailure: (why) => options.logger.warn({ utility: u.id, why }, "utility thread failed to load"),
      }),
  });
  const imports = createImportParser({ memoryMb: config.importMemoryMb, limits: { maxRows: config.importMaxRows, maxCells: CELLS_PER_ROW * config.importMaxRows } });
  const deps: GatewayDeps = {
    config,
    store,
    clock,
    logger: options.logger,
    metrics: options.metrics,
    random: randomBytes,
    switches,
    usage,
    keys,
    quota: new Quota(store.auth),
    scheduler: options.scheduler,
    utilities,
    imports,
    serviceVersion: options.serviceVersion,
  };
  const admin = new AdminService(store, config, clock, randomBytes, (change) => keys.onChange(change));
  return {
    deps,
    admin,
    async start() {
      await switches.refresh();
      switches.start(config.stateRefreshMs);
      usage.start(config.usageFlushMs);
      await keys.start();
      // Imports that stopped with their process left incomplete batches: remove them and their facts.
      const swept = await sweepImports(deps, store, true);
      if (swept > 0) options.logger.warn({ batches: swept }, "removed the incomplete import batches of imports that stopped with their process");
    },
    async close() {
      await keys.close();
      await usage.close().catch(() => undefined);
      await switches.close();
      await utilityPool.close();
      await imagePool.close();
      await utilities.close();
      await imports.close();
    },
  };
}

/**
 * What keeps one account from holding the utility pools for the others: at most threads − 1 runs
 * at once (one when there is one thread) and 4 waiting, served in turn with the other accounts'
 * runs; a run waits at most three run limits for a thread.
 */
function utilityBulkheads(config: Config) {
  return { perCaller: { running: Math.max(1, config.utilities.threads - 1), waiting: 4 }, queueMs: 3 * config.utilities.cpuMs };
}

/**
 * The administrator's off lists name what exists: a misspelt id would otherwise turn nothing off,
 * silently. Refused at start (exit code 2, as any configuration error), naming the variable.
 */
export function checkOffLists(config: Config): void {
  const problems: string[] = [];
  const check = (env: string, ids: readonly string[], known: readonly string[]) => {
    const unknown = ids.filter((id) => !known.includes(id));
    if (unknown.length > 0) problems.push(`${env}: no such id ${unknown.join(", ")} (known: ${known.join(", ")})`);
  };
  check("SVC_SEARCH_SOURCES_OFF", config.searchSourcesOff, PROVIDERS);
  check("SVC_UTILITIES_OFF", config.utilities.off, UTILITIES.map((u) => u.id));
  if (problems.length > 0) throw new ConfigError(problems);
}
