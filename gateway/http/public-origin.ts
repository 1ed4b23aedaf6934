import type { FastifyRequest } from "fastify";
import type { GatewayDeps } from "../deps.ts";

/**
 * The service's public origin, as links in answers show it: SVC_PUBLIC_BASE_URL when set, else the
 * request's scheme and Host (what the caller reached).
 */
export function publicOrigin(deps: GatewayDeps, request: FastifyRequest): string {
  return deps.config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
}
