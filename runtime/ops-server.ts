import Fastify, { type FastifyInstance } from "fastify";
import type { Registry } from "prom-client";

export interface OpsServerOptions {
  readonly metrics: Registry;
  /** Whether this process can serve now (its engines reachable, not draining). */
  readonly ready: () => Promise<{ ok: boolean; detail: Record<string, unknown> }>;
}

/** /metrics, /healthz and /readyz, on the operator's port (loopback by default); every role has one. */
export function buildOpsServer(options: OpsServerOptions): FastifyInstance {
  const app = Fastify({ logger: false });
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
