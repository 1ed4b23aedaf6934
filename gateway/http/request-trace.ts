import type { FastifyInstance, FastifyRequest } from "fastify";
import { contextOfHeaders, startSpan, type ActiveSpan, type Logger } from "../../runtime/index.ts";

/**
 * Every request runs in a trace: the caller's (its traceparent header, W3C trace context) or a new
 * one. The request's work — its log lines, its gRPC calls to the scheduler (the context travels in
 * their metadata), the jobs they create — belongs to it. A request that changes something (any
 * method but GET, HEAD and OPTIONS) writes one info line when answered (method, route, status,
 * milliseconds; the trace and job ids come with every line); others at debug.
 */
export function registerRequestTracing(app: FastifyInstance, logger: Logger): void {
  const spans = new WeakMap<FastifyRequest, { span: ActiveSpan; route: string; startedMs: number }>();
  app.addHook("onRequest", (request, _reply, done) => {
    const route = request.routeOptions.url ?? "unmatched";
    const span = startSpan(`${request.method} ${route}`, {
      kind: "server",
      parent: contextOfHeaders(request.headers),
      attributes: { "http.request.method": request.method, "http.route": route },
    });
    spans.set(request, { span, route, startedMs: Date.now() });
    // The rest of the request's life runs in the span's scope.
    span.run(() => done());
  });
  app.addHook("onResponse", (request, reply, done) => {
    const held = spans.get(request);
    if (held) {
      spans.delete(request);
      const quiet = request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS";
      // A line nobody reads (debug, at the usual info level) is not assembled at all.
      if (logger.isLevelEnabled(quiet ? "debug" : "info")) {
        const fields = { method: request.method, route: held.route, status: reply.statusCode, ms: Date.now() - held.startedMs };
        held.span.run(() => (quiet ? logger.debug(fields, "request answered") : logger.info(fields, "request answered")));
      }
      held.span.setAttribute("http.response.status_code", reply.statusCode);
      held.span.end(reply.statusCode >= 500 ? new Error(`status ${reply.statusCode}`) : undefined);
    }
    done();
  });
}
