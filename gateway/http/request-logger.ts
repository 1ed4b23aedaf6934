import type { FastifyBaseLogger } from "fastify";
import type { Logger } from "../../runtime/index.ts";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
type LogArgs = [obj: unknown, msg?: string, ...rest: unknown[]];

/**
 * A request's logger that becomes a pino child (with the request id bound) only when a line is
 * written at an enabled level. Fastify builds one child per request; pino's child copies the
 * bindings, the serializers and the redaction setup, work that a request which logs nothing (nearly
 * every one) does not need.
 */
class LazyRequestLogger {
  private real: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Record<string, unknown>,
    private readonly childOptions: Record<string, unknown>,
  ) {}

  private materialise(): Logger {
    this.real ??= this.parent.child(this.childBindings, this.childOptions);
    return this.real;
  }

  private write(level: Level, args: LogArgs): void {
    if (this.real === null && !this.parent.isLevelEnabled(level)) return;
    (this.materialise()[level])(...args);
  }

  get level(): string {
    return (this.real ?? this.parent).level;
  }

  set level(value: string) {
    this.materialise().level = value;
  }

  isLevelEnabled(level: string): boolean {
    return (this.real ?? this.parent).isLevelEnabled(level);
  }

  fatal(...args: LogArgs): void {
    this.write("fatal", args);
  }
  error(...args: LogArgs): void {
    this.write("error", args);
  }
  warn(...args: LogArgs): void {
    this.write("warn", args);
  }
  info(...args: LogArgs): void {
    this.write("info", args);
  }
  debug(...args: LogArgs): void {
    this.write("debug", args);
  }
  trace(...args: LogArgs): void {
    this.write("trace", args);
  }
  silent(): void {}

  bindings(): Record<string, unknown> {
    return this.materialise().bindings();
  }

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger {
    return this.materialise().child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: the per-request logger, built lazily. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: object, options: object): FastifyBaseLogger {
  // The gateway's logger is the process's pino logger (buildApp hands it to Fastify).
  return new LazyRequestLogger(logger as unknown as Logger, bindings as Record<string, unknown>, options as Record<string, unknown>);
}
