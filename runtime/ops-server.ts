import Fastify, { type FastifyInstance } from "fastify";
import { Gauge, type Registry } from "prom-client";

export interface OpsServerOptions {
  readonly metrics: Registry;
  /** Whether this process can serve now (its engines reachable, not draining). */
  readonly ready: () => Promise<{ ok: boolean; detail: Record<string, unknown> }>;
  /** SVC_REQUEST_TIMEOUT_MS, as on the API's port: a request must arrive within it (default 30 s). */
  readonly requestTimeoutMs?: number;
}

/** /metrics, /healthz and /readyz, on the operator's port (loopback by default); every role has one. */
export function buildOpsServer(options: OpsServerOptions): FastifyInstance {
  // The API port's bounds on slow requests (gateway/http/app.ts): the port shares the process and
  // its file descriptors, so sockets held open by slow headers or bodies must not pile up here.
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const app = Fastify({
    logger: false,
    requestTimeout: timeoutMs,
    // Nothing here takes a body.
    bodyLimit: 1024,
    http: { headersTimeout: Math.min(10_000, timeoutMs), connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(timeoutMs / 4))) },
  });
  // Readiness as a metric too, for an alert on a role that stays not ready (its pod keeps running,
  // so `up` alone would not say). Asked at each scrape, as /readyz would be.
  if (!options.metrics.getSingleMetric("svc_ready")) {
    new Gauge({
      name: "svc_ready",
      help: "1 when this process is ready (its /readyz answers 200: engines reachable, started, not draining), 0 otherwise.",
      registers: [options.metrics],
      async collect() {
        const { ok } = await options.ready().catch(() => ({ ok: false }));
        this.set(ok ? 1 : 0);
      },
    });
  }
  app.get("/healthz", async () => ({ ok: true }));
  app.get("/readyz", async (_req, reply) => {
    const { ok, detail } = await options.ready().catch((err: Error) => ({ ok: false, detail: { error: err.message } }));
    return reply.code(ok ? 200 : 503).send({ ok, ...detail });
  });
  app.get("/metrics", async (_req, reply) => {
    return reply.type(options.metrics.contentType).send(await options.metrics.metrics());
  });
  return app;
}
