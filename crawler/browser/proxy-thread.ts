// The thread the browser's proxies run on (thread-page-proxies.ts): an egress of its own, built from
// the node's egress options with the same guard (fetch/egress.ts), and one proxy per measured page,
// so that no byte of a page waits for the crawler's main event loop.
import { parentPort, workerData } from "node:worker_threads";
import { createEgress, type EgressOptions } from "../fetch/egress.ts";
import { hostMatches } from "../fetch/politeness.ts";
import { openPageProxy, type PageProxy, type PageProxyRequest } from "./page-proxies.ts";

/** What the thread is started with. */
export interface ProxyThreadData {
  readonly egress: EgressOptions;
  /** Third-party hosts allowed under `auto` (SVC_EGRESS_ALLOW's patterns). */
  readonly egressAllow: readonly string[];
}

/** What the pool's side asks: open a page's proxy, or its refusals so far, or close it. */
export type ProxyOp = { readonly op: "open"; readonly request: PageProxyRequest } | { readonly op: "blocked" | "close"; readonly id: number };

/** A call from the pool's side; each is answered with a ProxyReply of the same `seq`. */
export type ProxyCall = ProxyOp & { readonly seq: number };

export type ProxyReply = { readonly seq: number; readonly error?: string; readonly id?: number; readonly server?: string; readonly blocked?: number };

const { egress: options, egressAllow } = workerData as ProxyThreadData;
const egress = createEgress(options);
const externalAllowed = (hostname: string) => egressAllow.some((pattern) => hostMatches(hostname, pattern));
const proxies = new Map<number, PageProxy>();
let lastId = 0;

async function perform(call: ProxyCall): Promise<Omit<ProxyReply, "seq">> {
  if (call.op === "open") {
    const proxy = await openPageProxy(call.request, egress, externalAllowed);
    proxies.set(++lastId, proxy);
    return { id: lastId, server: proxy.server };
  }
  const proxy = proxies.get(call.id);
  if (call.op === "blocked") return { blocked: (await proxy?.blocked()) ?? 0 };
  proxies.delete(call.id);
  await proxy?.close();
  return {};
}

parentPort?.on("message", (call: ProxyCall) => {
  perform(call).then(
    (reply) => parentPort?.postMessage({ seq: call.seq, ...reply }),
    (err: unknown) => parentPort?.postMessage({ seq: call.seq, error: err instanceof Error ? err.message : String(err) }),
  );
});
