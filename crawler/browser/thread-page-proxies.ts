import { threadBoot, threadEntry } from "../../runtime/index.ts";
import { Worker, type ResourceLimits } from "node:worker_threads";
import type { EgressOptions } from "../fetch/egress.ts";
import type { PageProxies, PageProxy, PageProxyRequest } from "./page-proxies.ts";
import type { ProxyCall, ProxyOp, ProxyReply, ProxyThreadData } from "./proxy-thread.ts";

export interface ThreadPageProxiesOptions {
  /** The node's egress options: the thread builds its own egress (the same guard) from them. */
  readonly egress: EgressOptions;
  /** Third-party hosts a page may reach under `auto` (SVC_EGRESS_ALLOW's patterns). */
  readonly egressAllow: readonly string[];
  readonly resourceLimits?: ResourceLimits;
}

const BOOT = threadBoot(threadEntry("proxy-thread", import.meta.url));

interface Thread {
  readonly worker: Worker;
  readonly waiting: Map<number, { resolve: (reply: ProxyReply) => void; reject: (err: Error) => void }>;
  gone: boolean;
}

/**
 * The browser's proxies on a thread of their own (page-proxies.ts says why), started at the first
 * page and ended by close(). The thread holds the process open while it runs: whoever made the
 * proxies closes them (the browser pool does, with its browser).
 */
export function threadPageProxies(options: ThreadPageProxiesOptions): PageProxies {
  let thread: Thread | null = null;
  let closed = false;
  let seq = 0;

  const start = (): Thread => {
    const data: ProxyThreadData = { egress: options.egress, egressAllow: [...options.egressAllow] };
    const worker = new Worker(BOOT, { eval: true, workerData: data, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) });
    const started: Thread = { worker, waiting: new Map(), gone: false };
    worker.on("message", (reply: ProxyReply) => {
      const call = started.waiting.get(reply.seq);
      started.waiting.delete(reply.seq);
      call?.resolve(reply);
    });
    // A thread that died takes its proxies with it (their pages fail to load); the next page starts another.
    const gone = (cause: string) => {
      if (started.gone) return;
      started.gone = true;
      if (thread === started) thread = null;
      for (const call of started.waiting.values()) call.reject(new Error(`the browser's proxy thread ended: ${cause}`));
      started.waiting.clear();
    };
    worker.on("error", (err: Error) => gone(err.message));
    worker.on("exit", (code) => gone(`exit code ${code}`));
    return started;
  };

  const call = (on: Thread, message: ProxyOp): Promise<ProxyReply> => {
    if (on.gone) return Promise.reject(new Error("the browser's proxy thread has ended"));
    const id = ++seq;
    return new Promise<ProxyReply>((resolve, reject) => {
      on.waiting.set(id, { resolve, reject });
      const posted: ProxyCall = { ...message, seq: id };
      on.worker.postMessage(posted);
    }).then((reply) => {
      if (reply.error !== undefined) throw new Error(reply.error);
      return reply;
    });
  };

  return {
    async open(request: PageProxyRequest): Promise<PageProxy> {
      if (closed) throw new Error("the browser's proxies are closed");
      const on = (thread ??= start());
      const { id, server } = await call(on, { op: "open", request });
      return {
        server: server ?? "",
        blocked: async () => (await call(on, { op: "blocked", id: id ?? 0 })).blocked ?? 0,
        // A proxy of a thread that has ended is closed already.
        close: async () => void (await call(on, { op: "close", id: id ?? 0 }).catch(() => undefined)),
      };
    },
    async close() {
      closed = true;
      const ending = thread;
      thread = null;
      if (ending) await ending.worker.terminate();
    },
  };
}
