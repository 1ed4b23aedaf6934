import { execFile } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Metadata, type ServerUnaryCall, type ServiceError } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import {
  callUnary,
  createLogger,
  currentTrace,
  InProcessBus,
  parseTraceparent,
  setSpanSink,
  setTraceJob,
  startSpan,
  tracedHandlers,
  withSpan,
  type BusMessage,
  type SpanContext,
  type SpanSink,
} from "../../../runtime/index.ts";
import { tracesUrl } from "../../../runtime/otlp-sink.ts";

// W3C trace context through the plumbing, without processes: the header's grammar, spans and their
// parents, the log lines of traced work, gRPC metadata both ways and the in-process bus's headers.

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const INCOMING = `00-${TRACE}-${PARENT}-01`;

interface Recorded {
  name: string;
  kind: string;
  traceId: string;
  spanId: string;
  parent: string | null;
  ended: boolean;
  error: unknown;
}

/** A sink that keeps the spans, with ids counted up (span 0000000000000001, …). */
function recordingSink(): SpanSink & { spans: Recorded[] } {
  const spans: Recorded[] = [];
  let n = 0;
  return {
    spans,
    start(name, kind, parent: SpanContext | null) {
      n += 1;
      const r: Recorded = { name, kind, traceId: parent?.traceId ?? "f".repeat(32), spanId: n.toString(16).padStart(16, "0"), parent: parent?.spanId ?? null, ended: false, error: undefined };
      spans.push(r);
      return {
        spanId: r.spanId,
        traceId: r.traceId,
        flags: parent?.flags ?? 1,
        setAttribute: () => undefined,
        updateName: (next) => void (r.name = next),
        end: (error) => {
          r.ended = true;
          r.error = error;
        },
      };
    },
    close: async () => undefined,
  };
}

afterEach(() => setSpanSink(null));

describe("traceparent", () => {
  it("reads the W3C header and refuses what the recommendation calls invalid", () => {
    expect(parseTraceparent(INCOMING, "congo=t61rcWkgMzE")).toEqual({ traceId: TRACE, spanId: PARENT, flags: 1, state: "congo=t61rcWkgMzE" });
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-00`)).toEqual({ traceId: TRACE, spanId: PARENT, flags: 0 });
    // A later version may append fields; they are ignored.
    expect(parseTraceparent(`01-${TRACE}-${PARENT}-01-extra`)).toEqual({ traceId: TRACE, spanId: PARENT, flags: 1 });
    for (const bad of [
      `ff-${TRACE}-${PARENT}-01`,
      `00-${TRACE}-${PARENT}-01-extra`,
      `00-${"0".repeat(32)}-${PARENT}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `00-${TRACE.toUpperCase()}-${PARENT}-01`,
      `00-${TRACE}-${PARENT}`,
      "",
      undefined,
    ]) {
      expect(parseTraceparent(bad), String(bad)).toBeNull();
    }
  });

  it("sends spans to <endpoint>/v1/traces", () => {
    expect(tracesUrl("http://collector:4318")).toBe("http://collector:4318/v1/traces");
    expect(tracesUrl("http://collector:4318/")).toBe("http://collector:4318/v1/traces");
    expect(tracesUrl("https://c.example/otlp/v1/traces")).toBe("https://c.example/otlp/v1/traces");
  });
});

describe("spans without a sink", () => {
  it("continue the caller's trace with a new span id and its flags, or start a new sampled trace", () => {
    const child = startSpan("x", { parent: parseTraceparent(`00-${TRACE}-${PARENT}-00`) });
    expect(child.scope).toMatchObject({ traceId: TRACE, flags: 0 });
    expect(child.scope.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(child.scope.spanId).not.toBe(PARENT);
    const root = startSpan("y", { parent: null });
    expect(root.scope.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.scope.traceId).not.toBe(TRACE);
    expect(root.scope.flags).toBe(1);
    // Nested work inherits the trace and the job.
    const inner = child.run(() => {
      setTraceJob(42);
      return startSpan("z").scope;
    });
    expect(inner).toMatchObject({ traceId: TRACE, jobId: 42 });
    expect(currentTrace()).toBeUndefined();
  });
});

describe("log lines of traced work", () => {
  it("carry trace_id, span_id and job_id; lines outside carry none", async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        cb();
      },
    });
    const logger = createLogger("info", sink).child({ role: "crawler" });
    logger.info("outside");
    let spanId = "";
    await withSpan("attempt", { parent: parseTraceparent(INCOMING), jobId: 7 }, async () => {
      spanId = currentTrace()!.spanId;
      await new Promise((r) => setTimeout(r, 1));
      logger.info({ pages: 3 }, "inside");
    });
    expect(lines[0]).not.toHaveProperty("trace_id");
    expect(lines[1]).toMatchObject({ role: "crawler", trace_id: TRACE, span_id: spanId, job_id: 7, pages: 3, msg: "inside" });
  });
});

describe("gRPC metadata", () => {
  it("a call made in traced work carries a client span's traceparent; an answer naming a job marks the work as that job's", async () => {
    const sink = recordingSink();
    setSpanSink(sink);
    const seen: (string | undefined)[] = [];
    const method = (_req: string, md: Metadata, _opts: unknown, cb: (err: ServiceError | null, res: { jobId: number }) => void) => {
      seen.push(md.get("traceparent")[0] as string | undefined);
      queueMicrotask(() => cb(null, { jobId: 12 }));
    };
    await callUnary(method, "req", { deadlineMs: 1000, retries: 0 });
    expect(seen).toEqual([undefined]);
    expect(sink.spans).toEqual([]);

    const request = startSpan("POST /crawl", { kind: "server", parent: parseTraceparent(INCOMING) });
    const job = await request.run(async () => {
      await callUnary(method, "req", { deadlineMs: 1000, retries: 0 });
      return currentTrace()?.jobId;
    });
    expect(job).toBe(12);
    expect(sink.spans.map((s) => [s.name, s.kind, s.parent, s.ended])).toEqual([
      ["POST /crawl", "server", PARENT, false],
      ["grpc call", "client", "0000000000000001", true],
    ]);
    expect(seen[1]).toBe(`00-${TRACE}-0000000000000002-01`);
  });

  it("a served call runs in the caller's trace, as a server span of the job it names, and logs one line", async () => {
    const sink = recordingSink();
    setSpanSink(sink);
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger(
      "info",
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          cb();
        },
      }),
    );
    const inside: (ReturnType<typeof currentTrace> & object)[] = [];
    const handlers = tracedHandlers(
      {
        lease: (_call: ServerUnaryCall<unknown, unknown>, cb: (err: null, res: unknown) => void) => {
          void Promise.resolve().then(() => {
            inside.push({ ...currentTrace()! });
            cb(null, { granted: true });
          });
        },
      },
      { logger, logAtInfo: new Set(["Lease"]) },
    );
    const metadata = new Metadata();
    metadata.set("traceparent", INCOMING);
    const answered = await new Promise<unknown>((resolve) => handlers.lease({ request: { jobId: 9 }, metadata } as unknown as ServerUnaryCall<unknown, unknown>, (_e, res) => resolve(res)));
    expect(answered).toEqual({ granted: true });
    expect(inside).toEqual([{ traceId: TRACE, spanId: "0000000000000001", flags: 1, jobId: 9 }]);
    expect(sink.spans.map((s) => [s.name, s.kind, s.parent, s.ended])).toEqual([["grpc Lease", "server", PARENT, true]]);
    expect(lines).toMatchObject([{ rpc: "Lease", code: 0, trace_id: TRACE, job_id: 9, msg: "grpc call answered" }]);
  });
});

describe("the in-process bus", () => {
  it("carries the publisher's context in the message's headers; the handler runs in a consumer span of it", async () => {
    const sink = recordingSink();
    setSpanSink(sink);
    const bus = new InProcessBus(10);
    const got: { message: BusMessage; trace: ReturnType<typeof currentTrace> }[] = [];
    await bus.subscribe("svc.work.v1", "crawler", async (message) => {
      got.push({ message, trace: currentTrace() && { ...currentTrace()! } });
    });
    const publisher = startSpan("grpc StartCrawl", { kind: "server", parent: parseTraceparent(INCOMING) });
    await publisher.run(() => bus.publish([{ topic: "svc.work.v1", key: "example.com", payload: new Uint8Array([1]) }]));
    await bus.publish([{ topic: "svc.work.v1", key: "example.com", payload: new Uint8Array([2]) }]);
    while (got.length < 2) await new Promise((r) => setTimeout(r, 1));
    await bus.close();
    expect(got.map((g) => [g.message.payload[0], g.message.headers])).toEqual([
      [1, { traceparent: `00-${TRACE}-0000000000000001-01` }],
      [2, undefined],
    ]);
    expect(got[0]!.trace).toEqual({ traceId: TRACE, spanId: "0000000000000002", flags: 1 });
    expect(got[1]!.trace).toBeUndefined();
    expect(sink.spans.map((s) => [s.name, s.kind, s.parent])).toEqual([
      ["grpc StartCrawl", "server", PARENT],
      ["consume svc.work.v1", "consumer", "0000000000000001"],
    ]);
  });
});

describe("the OpenTelemetry SDK", () => {
  const root = new URL("../../../", import.meta.url);
  const script = fileURLToPath(new URL("../../harness/loaded-modules.ts", import.meta.url));
  const loadedBy = async (path: string) =>
    JSON.parse((await promisify(execFile)(process.execPath, ["--import", "tsx", script, fileURLToPath(new URL(path, root))], { cwd: fileURLToPath(root) })).stdout) as string[];
  const sdk = (urls: string[]) => urls.filter((u) => /\/node_modules\/@opentelemetry\/(sdk-trace|exporter-trace-otlp-http|otlp-transformer|otlp-exporter-base|resources)\//.test(u)).length > 0;

  it("is not loaded by the composition roots (only when SVC_OTLP_ENDPOINT is set, by the exporter)", { timeout: 60_000 }, async () => {
    const [serve, sink] = await Promise.all([loadedBy("bin/serve.ts"), loadedBy("runtime/otlp-sink.ts")]);
    expect([sdk(serve), sdk(sink)]).toEqual([false, true]);
  });
});
