import type { Metadata, ServerUnaryCall, sendUnaryData, ServiceError } from "@grpc/grpc-js";
import type { Logger } from "./logger.ts";
import { contextOfHeaders, startSpan } from "./tracing.ts";

type UnaryHandler = (call: ServerUnaryCall<unknown, unknown>, cb: sendUnaryData<unknown>) => void;

/** The job a request or an answer names (`jobId`), if any. */
function jobIdOf(message: unknown): number | undefined {
  const id = (message as { jobId?: unknown } | null)?.jobId;
  return typeof id === "number" && id > 0 ? id : undefined;
}

function headersOfMetadata(metadata: Metadata | undefined): Record<string, unknown> {
  return metadata ? metadata.getMap() : {};
}

export interface TracedServiceOptions {
  readonly logger: Logger;
  /**
   * Methods whose every answer is logged at info (calls that create, lease or settle a job); the
   * others at debug.
   */
  readonly logAtInfo: ReadonlySet<string>;
}

/**
 * A gRPC service's unary handlers, each run in the trace its caller's metadata carries (a server
 * span, child of the caller's traceparent) and with the job it names, so that the work it does —
 * its log lines, the job and outbox rows it writes, the calls it makes — belongs to that trace.
 * A call without traceparent runs as it is. Each answered call writes one log line (method, gRPC
 * status, milliseconds).
 */
export function tracedHandlers<H extends object>(handlers: H, options: TracedServiceOptions): H {
  const out: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers) as [string, unknown][]) {
    // Unary handlers take (call, callback); anything else (a streaming handler) is left as it is.
    if (typeof handler !== "function" || handler.length !== 2) {
      out[name] = handler;
      continue;
    }
    const unary = handler as UnaryHandler;
    const method = name.charAt(0).toUpperCase() + name.slice(1);
    const info = options.logAtInfo.has(method);
    out[name] = (call: ServerUnaryCall<unknown, unknown>, cb: sendUnaryData<unknown>) => {
      const parent = contextOfHeaders(headersOfMetadata(call.metadata));
      if (!parent) {
        unary(call, cb);
        return;
      }
      const started = Date.now();
      const jobId = jobIdOf(call.request);
      const span = startSpan(`grpc ${method}`, { kind: "server", parent, attributes: { "rpc.system": "grpc", "rpc.method": method }, ...(jobId ? { jobId } : {}) });
      span.run(() =>
        unary(call, (err: Partial<ServiceError> | ServiceError | null, value?: unknown, ...rest: unknown[]) => {
          const answered = jobIdOf(value);
          if (answered !== undefined && span.scope.jobId === undefined) span.scope.jobId = answered;
          const code = err ? (err.code ?? 2) : 0;
          const fields = { rpc: method, code, ms: Date.now() - started };
          span.run(() => (info ? options.logger.info(fields, "grpc call answered") : options.logger.debug(fields, "grpc call answered")));
          span.setAttribute("rpc.grpc.status_code", code);
          span.end(err ?? undefined);
          (cb as (...args: unknown[]) => void)(err, value, ...rest);
        }),
      );
    };
  }
  return out as H;
}
