// W3C trace context (https://www.w3.org/TR/trace-context/) carried through every hop of a piece of
// work: the gateway's request, its gRPC calls, the job and outbox rows it writes, the bus message,
// the crawler's attempt and its calls back. The context of the work under way lives in an
// AsyncLocalStorage scope; the logger reads it into every line (trace_id, span_id, job_id). Spans
// are recorded only when a sink is installed (bin/ installs the OTLP exporter when SVC_OTLP_ENDPOINT
// is set, loading the OpenTelemetry SDK then and only then); without one, a span costs two random
// ids and a scope.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";

/** The W3C header names, as carried in HTTP headers, gRPC metadata and bus message headers. */
export const TRACEPARENT = "traceparent";
export const TRACESTATE = "tracestate";

/** A position in a trace: the trace, the span under way, its flags (bit 0: sampled), the vendors' state. */
export interface SpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly flags: number;
  readonly state?: string;
}

/** What the work under way carries: its span and, once known, the job it belongs to. */
export interface TraceScope extends SpanContext {
  jobId?: number;
}

export type SpanKind = "server" | "client" | "producer" | "consumer" | "internal";
export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** One recorded span: end it once, with the error that ended it if any. */
export interface RecordedSpan {
  readonly spanId: string;
  /** The trace id of the span (a new one when it has no parent). */
  readonly traceId: string;
  readonly flags: number;
  setAttribute(key: string, value: string | number | boolean): void;
  updateName(name: string): void;
  end(error?: unknown): void;
}

/** Where spans go (the OTLP exporter). */
export interface SpanSink {
  start(name: string, kind: SpanKind, parent: SpanContext | null, attributes: SpanAttributes): RecordedSpan;
  /** Sends what is buffered and stops. */
  close(): Promise<void>;
}

const scopes = new AsyncLocalStorage<TraceScope>();
let sink: SpanSink | null = null;

/** Installs (or, with null, removes) the process's span sink. */
export function setSpanSink(next: SpanSink | null): void {
  sink = next;
}

/** Whether spans are being recorded (a sink is installed). */
export function tracingEnabled(): boolean {
  return sink !== null;
}

const TRACEPARENT_RE = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * A traceparent header's context, or null when it is absent or malformed (a malformed header starts
 * a new trace, as the recommendation says). Version ff is invalid; version 00 has exactly four
 * fields; later versions may append fields, which are ignored.
 */
export function parseTraceparent(value: unknown, state?: unknown): SpanContext | null {
  if (typeof value !== "string") return null;
  const m = TRACEPARENT_RE.exec(value.trim());
  if (!m) return null;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  const s = typeof state === "string" && state.length > 0 && state.length <= 512 ? state : undefined;
  return { traceId, spanId, flags: parseInt(flags, 16) & 0xff, ...(s ? { state: s } : {}) };
}

export function formatTraceparent(ctx: SpanContext): string {
  return `00-${ctx.traceId}-${ctx.spanId}-${(ctx.flags & 0xff).toString(16).padStart(2, "0")}`;
}

/** The context's headers: traceparent, and tracestate when there is one. */
export function headersOf(ctx: SpanContext): Record<string, string> {
  return ctx.state ? { [TRACEPARENT]: formatTraceparent(ctx), [TRACESTATE]: ctx.state } : { [TRACEPARENT]: formatTraceparent(ctx) };
}

/** The context in a header map (HTTP headers, bus headers; values may be strings, buffers or lists). */
export function contextOfHeaders(headers: Readonly<Record<string, unknown>> | undefined): SpanContext | null {
  if (!headers) return null;
  const one = (v: unknown): unknown => (Array.isArray(v) ? v[0] : Buffer.isBuffer(v) ? v.toString("latin1") : v);
  return parseTraceparent(one(headers[TRACEPARENT]), one(headers[TRACESTATE]));
}

/** The scope of the work under way, if any. */
export function currentTrace(): TraceScope | undefined {
  return scopes.getStore();
}

/** The headers that carry the current context onward (empty outside any traced work). */
export function currentTraceHeaders(): Record<string, string> {
  const scope = scopes.getStore();
  return scope ? headersOf(scope) : {};
}

/** Records the job the work under way belongs to: every later log line of it names the job. */
export function setTraceJob(jobId: number): void {
  const scope = scopes.getStore();
  if (scope && jobId > 0) scope.jobId = jobId;
}

/** The fields every log line of traced work carries (pino's mixin). */
export function traceLogFields(): Record<string, string | number> {
  const scope = scopes.getStore();
  if (!scope) return {};
  return scope.jobId === undefined ? { trace_id: scope.traceId, span_id: scope.spanId } : { trace_id: scope.traceId, span_id: scope.spanId, job_id: scope.jobId };
}

const SAMPLED = 0x01;

// Ids are cut from a pool of random bytes filled 4 KiB at a time: one call into the CSPRNG per
// ~170 spans rather than two per span (a keyed request is one span).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = POOL_BYTES;

function randomHex(bytes: number): string {
  for (;;) {
    if (poolAt + bytes > pool.length) {
      pool = randomBytes(POOL_BYTES);
      poolAt = 0;
    }
    const hex = pool.toString("hex", poolAt, poolAt + bytes);
    poolAt += bytes;
    if (!/^0+$/.test(hex)) return hex;
  }
}

export interface SpanOptions {
  readonly kind?: SpanKind;
  /** The parent: a remote context (from headers, a stored row); default the current scope; null starts a new trace. */
  readonly parent?: SpanContext | null;
  readonly attributes?: SpanAttributes;
  /** The job the span's work belongs to (kept by the scope; inherited from the current scope otherwise). */
  readonly jobId?: number;
}

/** A started span and its scope: run the span's work in it with `run`, then `end` it. */
export interface ActiveSpan {
  readonly scope: TraceScope;
  run<T>(fn: () => T): T;
  setAttribute(key: string, value: string | number | boolean): void;
  updateName(name: string): void;
  end(error?: unknown): void;
}

/**
 * Starts a span as a child of the given parent (or of the current scope): recorded by the sink when
 * one is installed, otherwise only a new span id in the same trace (or a new trace).
 */
export function startSpan(name: string, options: SpanOptions = {}): ActiveSpan {
  const current = scopes.getStore();
  const parent = options.parent === undefined ? (current ?? null) : options.parent;
  const jobId = options.jobId ?? (options.parent === undefined ? current?.jobId : undefined);
  let recorded: RecordedSpan | null = null;
  let scope: TraceScope;
  if (sink) {
    recorded = sink.start(name, options.kind ?? "internal", parent, options.attributes ?? {});
    scope = { traceId: recorded.traceId, spanId: recorded.spanId, flags: recorded.flags };
  } else {
    scope = { traceId: parent?.traceId ?? randomHex(16), spanId: randomHex(8), flags: parent ? parent.flags : SAMPLED };
  }
  if (parent?.state) scope = { ...scope, state: parent.state };
  if (jobId !== undefined) scope.jobId = jobId;
  let ended = false;
  return {
    scope,
    run: (fn) => scopes.run(scope, fn),
    setAttribute: (key, value) => recorded?.setAttribute(key, value),
    updateName: (next) => recorded?.updateName(next),
    end: (error) => {
      if (ended) return;
      ended = true;
      recorded?.end(error);
    },
  };
}

/** Runs fn in a new span (ended when fn's promise settles). */
export async function withSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  const span = startSpan(name, options);
  try {
    const value = await span.run(fn);
    span.end();
    return value;
  } catch (err) {
    span.end(err);
    throw err;
  }
}

/** Runs fn inside a scope as it is (no new span): work resumed under a context kept elsewhere. */
export function runInTrace<T>(scope: TraceScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** Closes the sink (flushing what it buffers) and removes it. */
export async function closeTracing(): Promise<void> {
  const s = sink;
  sink = null;
  await s?.close();
}

/**
 * Exports spans over OTLP/HTTP to the endpoint from now on. The OpenTelemetry SDK is loaded here,
 * on first use: a process without SVC_OTLP_ENDPOINT never loads it.
 */
export async function enableOtlpTracing(options: { endpoint: string; serviceName: string; serviceVersion: string; flushMs?: number }): Promise<void> {
  const { createOtlpSink } = await import("./otlp-sink.ts");
  setSpanSink(createOtlpSink(options));
}
