export { loadConfig, ConfigError, CONFIG_FIELDS, type Config, type PlanNumbers, type LogLevel, type CrawlSettings, type CrawlOverride } from "./config.ts";
export { systemClock, unixSeconds, ManualClock, type Clock } from "./clock.ts";
export { createLogger, type Logger } from "./logger.ts";
export { createMetricsRegistry } from "./metrics.ts";
export { Lifecycle, type Closeable } from "./lifecycle.ts";
export { InProcessBus, type Bus, type BusMessage, type BusHandler } from "./bus.ts";
export { KafkaBus, type KafkaBusOptions, type TopicSpec } from "./kafka-bus.ts";
export { callUnary, catalogueCode, GRPC_MESSAGE_OPTIONS, grpcStatus, Metadata, type CallPolicy } from "./grpc-client.ts";
