import { threadBoot, threadEntry } from "../../runtime/index.ts";
import { Worker } from "node:worker_threads";
import type { SimulatedMetrics } from "./lantern.ts";
import type { LanternCall, LanternReply } from "./lantern-thread.ts";
import type { Throttling } from "./profiles.ts";

/** Runs Lantern on a page's trace (lantern.ts), off the caller's event loop. */
export interface LanternRunner {
  /** `batches`: the trace as the JSON arrays of events the browser reported them in. */
  simulate(batches: readonly string[], throttling: Throttling): Promise<SimulatedMetrics>;
  close(): Promise<void>;
}

/** How long the thread stays after its last simulation before it ends (and gives its memory back). */
const IDLE_MS = 60_000;

const BOOT = threadBoot(threadEntry("lantern-thread", import.meta.url));

interface Thread {
  readonly worker: Worker;
  readonly waiting: Map<number, { resolve: (m: SimulatedMetrics) => void; reject: (err: Error) => void }>;
  gone: boolean;
}

/**
 * Lantern on a thread of its own, started at the first simulation and ended after IDLE_MS without
 * one (with the trace engine loaded it holds about 50 MB of RSS) or by close(). The thread never holds the
 * process open. Simulations queue on the one thread: a node measures one page at a time by default.
 */
export function threadLantern(idleMs = IDLE_MS): LanternRunner {
  let thread: Thread | null = null;
  let idle: NodeJS.Timeout | null = null;
  let seq = 0;
  let closed = false;

  const end = (t: Thread) => {
    if (thread === t) thread = null;
    void t.worker.terminate();
  };

  const start = (): Thread => {
    const worker = new Worker(BOOT, { eval: true });
    worker.unref();
    const started: Thread = { worker, waiting: new Map(), gone: false };
    worker.on("message", (reply: LanternReply) => {
      const call = started.waiting.get(reply.seq);
      started.waiting.delete(reply.seq);
      if ("error" in reply) call?.reject(new Error(reply.error));
      else call?.resolve(reply.metrics);
      if (started.waiting.size === 0 && !started.gone) {
        idle = setTimeout(() => end(started), idleMs);
        idle.unref();
      }
    });
    const gone = (cause: string) => {
      if (started.gone) return;
      started.gone = true;
      if (thread === started) thread = null;
      for (const call of started.waiting.values()) call.reject(new Error(`the Lantern thread ended: ${cause}`));
      started.waiting.clear();
    };
    worker.on("error", (err: Error) => gone(err.message));
    worker.on("exit", (code) => gone(`exit code ${code}`));
    return started;
  };

  return {
    simulate(batches, throttling) {
      if (closed) return Promise.reject(new Error("the Lantern thread is closed"));
      if (idle) clearTimeout(idle);
      idle = null;
      const on = (thread ??= start());
      const id = ++seq;
      return new Promise<SimulatedMetrics>((resolve, reject) => {
        on.waiting.set(id, { resolve, reject });
        const call: LanternCall = { seq: id, batches, throttling };
        on.worker.postMessage(call);
      });
    },
    async close() {
      closed = true;
      if (idle) clearTimeout(idle);
      const ending = thread;
      thread = null;
      if (ending) await ending.worker.terminate();
    },
  };
}
