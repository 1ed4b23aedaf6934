import type { Registry } from "prom-client";
import type { Clock, Config, Logger } from "../runtime/index.ts";
import type { Store } from "../storage/index.ts";
import type { RandomBytes } from "./keys/api-key.ts";
import type { ServiceSwitches } from "./admin/service-switches.ts";
import type { UsageMeter } from "./keys/usage-meter.ts";
import type { KeyCache } from "./keys/key-cache.ts";
import type { Quota } from "./pipeline/quota.ts";
import type { SchedulerPort } from "./scheduler-port.ts";
import type { UtilityRunner } from "./utility-pool/utility-runner.ts";
import type { ImportParser } from "./imports/import-parser.ts";

/** What the gateway's operations and pipeline are built from; the composition root supplies it. */
export interface GatewayDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Registry;
  readonly random: RandomBytes;
  readonly switches: ServiceSwitches;
  readonly usage: UsageMeter;
  /** Keys by hash, dropped on change notifications. */
  readonly keys: KeyCache;
  /** The hourly windows of keys and addresses. */
  readonly quota: Quota;
  /** The scheduler, over gRPC: every operation that runs work goes through it. */
  readonly scheduler: SchedulerPort;
  /** Runs the utilities: offline ones in the gateway's bounded thread pool. */
  readonly utilities: UtilityRunner;
  /** Parses uploaded exports off the serving thread (POST /imports/{host}). */
  readonly imports: ImportParser;
  /** The package version, reported as x-service-version. */
  readonly serviceVersion: string;
}
