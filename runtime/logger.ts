import { pino, type Logger } from "pino";
import type { LogLevel } from "./config.ts";
import { traceLogFields } from "./tracing.ts";

export type { Logger };

/**
 * JSON logs; request ids are bound per request by the gateway. Keys are redacted wherever they appear.
 * A line written inside traced work carries its trace_id, span_id and job_id (runtime/tracing.ts).
 */
export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: "svc" },
    mixin: traceLogFields,
    redact: { paths: ["req.headers['x-api-key']", "req.headers.authorization", "key", "*.key"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
