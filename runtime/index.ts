export { loadConfig, configNotes, fieldsOf, ConfigError, type Config, type ConfigNotes, type PlanNumbers, type LogLevel, type CrawlSettings, type CrawlOverride } from "./config.ts";
export { CONFIG_FIELDS, CLIENT_ENV, REMOVED_SETTINGS, type Field } from "./config-fields.ts";
export { CONFIG_ROLES, type ConfigRole } from "./config-roles.ts";
export { systemClock, unixSeconds, ManualClock, type Clock } from "./clock.ts";
export { createLogger, type Logger } from "./logger.ts";
export { createMetricsRegistry } from "./metrics.ts";
export { closedWithin, Lifecycle, type AddOptions, type Closeable } from "./lifecycle.ts";
export { processAlive } from "./process-alive.ts";
export { InProcessBus, withTraceHeaders, deliverTraced, type Bus, type BusMessage, type BusHandler, type SubscribeOptions } from "./bus.ts";
export { KafkaBus, type KafkaBusOptions, type TopicSpec } from "./kafka-bus.ts";
export { CONSUMER_LAG_SAMPLE_MS, registerConsumerLag, type ConsumerLagSource } from "./kafka-lag-metrics.ts";
export { storeEngineMetric, storeWasmHeapMetric, storeWriteMetrics, type StoreWriteObserver } from "./store-write-metrics.ts";
export { callUnary, catalogueCode, channelReady, GRPC_CHANNEL_OPTIONS, GRPC_MESSAGE_OPTIONS, grpcStatus, Metadata, type CallPolicy } from "./grpc-client.ts";
export { buildOpsServer, type OpsServerOptions } from "./ops-server.ts";
export { GrpcHealthProbe, KafkaProbe, within } from "./engine-probes.ts";
export { classifyAddress, refusedRange, nameRefused, isMetadataName, type AddressTier, type AddressVerdict, type TargetPolicy } from "./target-address.ts";
export { tracedHandlers, type TracedServiceOptions } from "./grpc-server.ts";
export {
  TRACEPARENT,
  TRACESTATE,
  parseTraceparent,
  formatTraceparent,
  headersOf,
  contextOfHeaders,
  currentTrace,
  currentTraceHeaders,
  setTraceJob,
  traceLogFields,
  startSpan,
  withSpan,
  runInTrace,
  setSpanSink,
  tracingEnabled,
  enableOtlpTracing,
  closeTracing,
  type SpanContext,
  type TraceScope,
  type SpanSink,
  type RecordedSpan,
  type ActiveSpan,
  type SpanOptions,
} from "./tracing.ts";
export { threadBoot, threadEntry } from "./thread-boot.ts";
