// The span sink of SVC_OTLP_ENDPOINT: the OpenTelemetry SDK's tracer with a batching OTLP/HTTP
// (JSON) exporter. Loaded only by enableOtlpTracing(), so that a process without the setting never
// loads the SDK. The SDK is used without registering anything global: the parent of each span is
// passed explicitly from Svc's own scope (runtime/tracing.ts).
import { ROOT_CONTEXT, SpanKind as OtelKind, SpanStatusCode, trace, TraceFlags } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { RecordedSpan, SpanAttributes, SpanContext, SpanKind, SpanSink } from "./tracing.ts";

const KINDS: Record<SpanKind, OtelKind> = {
  server: OtelKind.SERVER,
  client: OtelKind.CLIENT,
  producer: OtelKind.PRODUCER,
  consumer: OtelKind.CONSUMER,
  internal: OtelKind.INTERNAL,
};

export interface OtlpSinkOptions {
  /** The collector's base URL (spans go to <endpoint>/v1/traces). */
  readonly endpoint: string;
  /** service.name of this process's spans (svc-gateway, svc-scheduler, svc-crawler, svc). */
  readonly serviceName: string;
  readonly serviceVersion: string;
  /** How long spans wait in the batch before they are sent. */
  readonly flushMs?: number;
}

/** Spans are sent to <endpoint>/v1/traces, the OTLP/HTTP path, unless the endpoint names that path already. */
export function tracesUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, "");
  return base.endsWith("/v1/traces") ? base : `${base}/v1/traces`;
}

export function createOtlpSink(options: OtlpSinkOptions): SpanSink {
  const exporter = new OTLPTraceExporter({ url: tracesUrl(options.endpoint), timeoutMillis: 5000 });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName, "service.version": options.serviceVersion }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.flushMs ?? 2000, maxQueueSize: 4096, maxExportBatchSize: 512 })],
  });
  const tracer = provider.getTracer("svc", options.serviceVersion);
  return {
    start(name: string, kind: SpanKind, parent: SpanContext | null, attributes: SpanAttributes): RecordedSpan {
      const context = parent
        ? trace.setSpanContext(ROOT_CONTEXT, { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.flags & TraceFlags.SAMPLED, isRemote: true })
        : ROOT_CONTEXT;
      const span = tracer.startSpan(name, { kind: KINDS[kind], attributes }, context);
      const ctx = span.spanContext();
      return {
        spanId: ctx.spanId,
        traceId: ctx.traceId,
        flags: ctx.traceFlags,
        setAttribute: (key, value) => void span.setAttribute(key, value),
        updateName: (next) => void span.updateName(next),
        end(error?: unknown) {
          if (error !== undefined) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message.slice(0, 300) : typeof error === "string" ? error.slice(0, 300) : "failed" });
          }
          span.end();
        },
      };
    },
    async close() {
      await provider.shutdown();
    },
  };
}
