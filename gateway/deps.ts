import type { Registry } from "prom-client";
import type { Clock, Config, Logger } from "../runtime/index.ts";
import type { Store } from "../storage/index.ts";
import type { RandomBytes } from "./keys.ts";
import type { ServiceSwitches } from "./service-switches.ts";
import type { UsageMeter } from "./usage-meter.ts";

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
  /** The package version, reported as x-service-version. */
  readonly serviceVersion: string;
}
