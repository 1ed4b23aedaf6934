// Where the browser's egress proxy runs. Every connection of a measured page goes through a proxy
// of its own (fetch/egress-proxy.ts) that admits it under the page's rules and moves every byte of
// it. On the crawler's main event loop each accept, admission and chunk waits for whatever else
// the loop is doing (parsing, other analyses, the driver), and that wait lands in the page's TTFB,
// FCP and LCP against Lighthouse's (bench:browser-proxy). threadPageProxies (proxy-thread.ts) runs
// the proxies on a thread of their own; inProcessPageProxies keeps them on the caller's loop, for
// an egress given as functions, which no thread can be handed.
import { startEgressProxy, type AdmitTarget } from "../fetch/egress-proxy.ts";
import type { Egress, ResolvedAddress } from "../fetch/egress.ts";
import type { ThirdPartyPolicy } from "./browser-metrics.ts";

/** The proxy one measured page needs. */
export interface PageProxyRequest {
  /** The measured page: its host (on its port, or 80/443) is always admitted. */
  readonly url: string;
  /** Other hosts: auto (those the allow list accepts), none, or all. */
  readonly thirdParty: ThirdPartyPolicy;
  readonly connectTimeoutMs: number;
}

/** One page's proxy: Chromium's proxy server, and the connections it refused. */
export interface PageProxy {
  /** http://127.0.0.1:<port>, for the context's proxy setting. */
  readonly server: string;
  /** Connections refused so far (a third party not allowed, an address the egress guard refuses). */
  blocked(): Promise<number>;
  close(): Promise<void>;
}

/** Opens a proxy per measured page; close() ends them all (and the thread they run on). */
export interface PageProxies {
  open(request: PageProxyRequest): Promise<PageProxy>;
  close(): Promise<void>;
}

/** Proxies on the caller's event loop, over `egress`; other hosts as `externalAllowed` says. */
export function inProcessPageProxies(egress: Pick<Egress, "resolve" | "dial">, externalAllowed: (hostname: string) => boolean): PageProxies {
  return { open: (request) => openPageProxy(request, egress, externalAllowed), close: async () => undefined };
}

/** Starts one page's proxy on this thread: the page's rules, then the egress guard, count the refusals. */
export async function openPageProxy(request: PageProxyRequest, egress: Pick<Egress, "resolve" | "dial">, externalAllowed: (hostname: string) => boolean): Promise<PageProxy> {
  let blocked = 0;
  const rules = pageAdmitter(new URL(request.url), request.thirdParty, externalAllowed, egress);
  const admit: AdmitTarget = (hostname, port) =>
    rules(hostname, port).catch((err: unknown) => {
      blocked += 1;
      throw err;
    });
  const proxy = await startEgressProxy(admit, egress, { connectTimeoutMs: request.connectTimeoutMs });
  return { server: proxy.server, blocked: async () => blocked, close: () => proxy.close() };
}

/**
 * The egress rules of one measured page: the page's own host (on its port, or on 80/443: the http
 * and https of the same site) always, other hosts as the third-party setting allows, and in every
 * case only addresses the egress guard accepts (resolved once per host and measurement).
 */
function pageAdmitter(page: URL, thirdParty: ThirdPartyPolicy, externalAllowed: (hostname: string) => boolean, egress: Pick<Egress, "resolve">): AdmitTarget {
  const own = { hostname: page.hostname.replace(/^\[|\]$/g, "").toLowerCase(), port: Number(page.port || (page.protocol === "https:" ? 443 : 80)) };
  const resolved = new Map<string, Promise<ResolvedAddress>>();
  return (hostname, port) => {
    const name = hostname.toLowerCase();
    const firstParty = name === own.hostname && (port === own.port || port === 80 || port === 443);
    const allowed = firstParty || thirdParty === "all" || (thirdParty === "auto" && externalAllowed(name));
    if (!allowed) return Promise.reject(new ThirdPartyRefused(name));
    let address = resolved.get(name);
    if (!address) resolved.set(name, (address = egress.resolve(name)));
    return address;
  };
}

class ThirdPartyRefused extends Error {
  constructor(host: string) {
    super(`${host} is not the site's origin`);
  }
}
