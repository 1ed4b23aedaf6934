import type { FastifyRequest } from "fastify";
import { isIP } from "node:net";
import type { GatewayDeps } from "../deps.ts";
import { buildTrustedProxy } from "../pipeline/client-address.ts";

/**
 * The service's public origin, as links in answers show it: SVC_PUBLIC_BASE_URL when set, else the
 * request's scheme and Host (what the caller reached).
 */
export function publicOrigin(deps: Pick<GatewayDeps, "config">, request: FastifyRequest): string {
  return deps.config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * The origin where trust depends on it — the OAuth issuer and endpoints, the tool server's
 * DNS-rebinding check: SVC_PUBLIC_BASE_URL when set. Otherwise the request's Host only when no
 * web page can choose it: an IP literal or localhost (a DNS-rebinding page's Host is the
 * attacker's name), or any Host relayed by a trusted proxy (SVC_TRUSTED_PROXIES); else the
 * address and port the connection reached.
 */
export function trustedOrigin(deps: Pick<GatewayDeps, "config">, request: FastifyRequest): string {
  if (deps.config.publicBaseUrl !== null) return deps.config.publicBaseUrl;
  const host = request.host;
  if (hostIsLiteral(host) || viaTrustedProxy(deps, request)) return `${request.protocol}://${host}`;
  const local = request.socket.localAddress ?? "127.0.0.1";
  const port = request.socket.localPort;
  const address = isIP(local) === 6 ? `[${local}]` : local;
  return `${request.protocol}://${address}${port === undefined ? "" : `:${port}`}`;
}

/** An IP literal or localhost, with or without a port. */
function hostIsLiteral(host: string): boolean {
  const name = host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.replace(/:\d+$/, "");
  return name.toLowerCase() === "localhost" || isIP(name) !== 0;
}

const trustedOf = new WeakMap<readonly string[], (ip: string) => boolean>();

function viaTrustedProxy(deps: Pick<GatewayDeps, "config">, request: FastifyRequest): boolean {
  const list = deps.config.trustedProxies;
  if (list.length === 0) return false;
  let trusted = trustedOf.get(list);
  if (!trusted) trustedOf.set(list, (trusted = buildTrustedProxy(list)));
  return trusted(request.socket.remoteAddress ?? "");
}
