import { pino, type Logger } from "pino";
import type { LogLevel } from "./config.ts";

export type { Logger };

/** JSON logs; request ids are bound per request by the gateway. Keys are redacted wherever they appear. */
export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: "svc" },
    redact: { paths: ["req.headers['x-api-key']", "req.headers.authorization", "key", "*.key"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
