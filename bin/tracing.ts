import { closeTracing, enableOtlpTracing, type Config, type Lifecycle, type Logger } from "../runtime/index.ts";
import { PACKAGE_VERSION } from "./version.ts";

/**
 * Exports spans over OTLP/HTTP when SVC_OTLP_ENDPOINT is set (the OpenTelemetry SDK is loaded then,
 * and only then). Call it first: closed last, the spans of the drain are flushed before exit.
 */
export async function startTracing(config: Config, life: Lifecycle, serviceName: string, logger: Logger): Promise<void> {
  if (!config.otlpEndpoint) return;
  await enableOtlpTracing({ endpoint: config.otlpEndpoint, serviceName, serviceVersion: PACKAGE_VERSION });
  life.add("tracing", { close: closeTracing });
  logger.info({ collector: new URL(config.otlpEndpoint).origin, service: serviceName }, "exporting spans over OTLP/HTTP");
}
