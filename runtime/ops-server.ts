import Fastify, { type FastifyInstance } from "fastify";
import { Gauge, type Registry } from "prom-client";

export interface OpsServerOptions {
  readonly metrics: Registry;
  /** Whether this process can serve now (its engines reachable, not draining). */
  readonly ready: () => Promise<{ ok: boolean; detail: Record<string, unknown> }>;
}

/** /metrics, /healthz and /readyz, on the operator's port (loopback by default); every role has one. */
export function buildOpsServer(options: OpsServerOptions): FastifyInstance {
  const app = Fastify({ logger: false });
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
