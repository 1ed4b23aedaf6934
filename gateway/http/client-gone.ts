import type { FastifyRequest } from "fastify";

/**
 * A signal that aborts when the request's connection closes before its answer is sent: work done
 * for a client that has gone (a utility run it stopped waiting for) is dropped or cut. `done()`
 * stops watching (a keep-alive connection outlives the request). An injected request (MCP's inner
 * calls, tests) has no connection to lose and never aborts.
 */
export function clientGone(request: FastifyRequest): { readonly signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const socket = request.raw.socket as (NodeJS.EventEmitter & { destroyed?: boolean }) | undefined;
  if (!socket || typeof socket.once !== "function") return { signal: controller.signal, done: () => undefined };
  const onClose = () => controller.abort();
  if (socket.destroyed) controller.abort();
  else socket.once("close", onClose);
  return { signal: controller.signal, done: () => void socket.off("close", onClose) };
}
