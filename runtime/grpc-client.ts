import { connectivityState, InterceptingCall, Metadata, status, type CallOptions, type Client, type Interceptor, type ServiceError } from "@grpc/grpc-js";
import { currentTrace, headersOf, setTraceJob, startSpan, type ActiveSpan } from "./tracing.ts";

/** Status codes a call may be retried on: the request did not (or may safely again) take effect. */
const RETRYABLE = new Set<number>([status.UNAVAILABLE, status.RESOURCE_EXHAUSTED]);

export interface CallPolicy {
  /** Deadline of each attempt. */
  readonly deadlineMs: number;
  /**
   * Further attempts on a retryable status (capped exponential backoff with jitter); never on an
   * answer that carries a catalogue code, e.g. RESOURCE_EXHAUSTED meaning a user's limit.
   */
  readonly retries: number;
  /**
   * Keeps retrying a retryable status beyond `retries`, with the same capped backoff, until this
   * time (epoch ms, read at each failure): a crawler rides out a scheduler restart for as long as
   * its lease lasts rather than abandoning the attempt after a fraction of a second.
   */
  readonly retryUntilMs?: () => number;
}

type Unary<Req, Res> = (req: Req, metadata: Metadata, options: Partial<CallOptions>, cb: (err: ServiceError | null, res: Res) => void) => unknown;

/** Error code of the service's catalogue carried in trailing metadata (svc-error-code), if any. */
export function catalogueCode(err: ServiceError): string | null {
  const v = err.metadata?.get("svc-error-code")[0];
  return typeof v === "string" ? v : null;
}

/**
 * A unary gRPC call as a promise, with a deadline on every attempt; only named status codes are
 * retried, and never an answer that carries a catalogue code (a decision, not a fault). Pass the
 * client's method bound (`client.lease.bind(client)`).
 */
export async function callUnary<Req, Res>(method: Unary<Req, Res>, req: Req, policy: CallPolicy): Promise<Res> {
  // Inside traced work, the call is a client span whose context travels in the metadata.
  const span = currentTrace() ? startSpan("grpc call", { kind: "client", attributes: { "rpc.system": "grpc" } }) : null;
  try {
    const res = await attempts(method, req, policy, span);
    span?.end();
    // An answer naming a job (a job started) makes the caller's work that job's: its later log lines name it.
    const jobId = (res as { jobId?: unknown } | null)?.jobId;
    if (span && typeof jobId === "number") setTraceJob(jobId);
    return res;
  } catch (err) {
    span?.end(err);
    throw err;
  }
}

async function attempts<Req, Res>(method: Unary<Req, Res>, req: Req, policy: CallPolicy, span: ActiveSpan | null): Promise<Res> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await new Promise<Res>((resolve, reject) => {
        const options: Partial<CallOptions> = { deadline: Date.now() + policy.deadlineMs, ...(span ? { interceptors: [namedAfterMethod(span)] } : {}) };
        method(req, metadataOf(span), options, (err, res) => (err ? reject(err) : resolve(res)));
      });
    } catch (err) {
      const e = err as ServiceError;
      const backoff = Math.min(2000, 50 * 2 ** attempt);
      const wait = backoff / 2 + Math.random() * (backoff / 2);
      const inTime = attempt < policy.retries || (policy.retryUntilMs !== undefined && Date.now() + wait < policy.retryUntilMs());
      if (!(inTime && RETRYABLE.has(e.code) && catalogueCode(e) === null)) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/**
 * Resolves once the client's channel is connected, waiting up to `withinMs` for it to (re)connect
 * (through gRPC's reconnect backoff, which a call alone would fail on at once); rejects with
 * UNAVAILABLE when it is not connected by then. A gateway's call that starts work waits here, so
 * that it rides out a scheduler restart of a few seconds, and is sent only once connected: its own
 * deadline then covers the call alone, never a wait before it (a call sent late and cut by a
 * deadline that the wait used up could start work whose answer is lost).
 */
export async function channelReady(client: Client, withinMs: number): Promise<void> {
  if (client.getChannel().getConnectivityState(true) === connectivityState.READY) return;
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + withinMs, (err) =>
      err ? reject(Object.assign(new Error(`14 UNAVAILABLE: not connected within ${withinMs} ms (${err.message})`), { code: status.UNAVAILABLE, details: `not connected within ${withinMs} ms`, metadata: new Metadata() })) : resolve(),
    ),
  );
}

/** Names the client span after the method called (the path's last segment: grpc Lease, grpc StartCrawl, …). */
function namedAfterMethod(span: ActiveSpan): Interceptor {
  return (options, nextCall) => {
    const path = options.method_definition.path;
    span.updateName(`grpc ${path.slice(path.lastIndexOf("/") + 1)}`);
    return new InterceptingCall(nextCall(options));
  };
}

/** A call's metadata: the span's traceparent (and tracestate), when traced. */
function metadataOf(span: ActiveSpan | null): Metadata {
  const metadata = new Metadata();
  if (span) for (const [name, value] of Object.entries(headersOf(span.scope))) metadata.set(name, value);
  return metadata;
}

export { status as grpcStatus, Metadata };

/**
 * Channel and server options of the control plane: a crawl's result carries the report of every
 * page (tens of megabytes for a large site), above gRPC's 4 MB default.
 */
export const GRPC_MESSAGE_OPTIONS = Object.freeze({
  "grpc.max_receive_message_length": 64 * 1024 * 1024,
  "grpc.max_send_message_length": 64 * 1024 * 1024,
});

/**
 * Channel options of a role's client of the scheduler (gateway, crawler): the message sizes above,
 * and reconnection within 2 s once the scheduler is back (gRPC's default backoff grows to 120 s, so
 * a crawler would stay cut off long after a scheduler restart).
 */
export const GRPC_CHANNEL_OPTIONS = Object.freeze({
  ...GRPC_MESSAGE_OPTIONS,
  "grpc.initial_reconnect_backoff_ms": 250,
  "grpc.max_reconnect_backoff_ms": 2000,
});
