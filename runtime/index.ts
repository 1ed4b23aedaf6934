export { loadConfig, ConfigError, CONFIG_FIELDS, type Config, type PlanNumbers, type LogLevel } from "./config.ts";
export { systemClock, unixSeconds, ManualClock, type Clock } from "./clock.ts";
export { createLogger, type Logger } from "./logger.ts";
export { createMetricsRegistry } from "./metrics.ts";
export { Lifecycle, type Closeable } from "./lifecycle.ts";
