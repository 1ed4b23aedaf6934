import { Worker } from "node:worker_threads";
import { UtilityError } from "../../utilities/index.ts";
import type { UtilityReply, UtilityTask } from "./utility-thread.ts";

// The bounded pool of offline utilities (DESIGN.md "Utilities and search data"): `size` worker
// threads, each running one utility at a time from a queue in the serving thread. A run that
// overruns its time limit (a catastrophic regular expression) or its thread's heap (a
// decompression bomb that got past the guards) is stopped by terminating that thread; the run
// answers tool_failed, a fresh thread takes the place, and the queue carries on.

export interface UtilityPoolOptions {
  readonly size: number;
  /** Default time limit of one run (ms); a utility may ask for less (regex_test: 1 s). */
  readonly cpuMs: number;
  /** Heap of each thread (MB). */
  readonly memoryMb: number;
  /** The thread's module (tests run a stand-in); utility-thread.ts by default. */
  readonly entry?: URL;
  /** Told when a thread dies before it loaded (an own thread's warm-up failed). */
  readonly onLoadFailure?: (why: string) => void;
}

export interface PoolRun {
  readonly utility: string;
  readonly input: Record<string, unknown>;
  readonly nowMs: number;
  readonly seed: Uint8Array;
  /** This run's limit when it is below the pool's. */
  readonly cpuMs?: number;
}

export interface UtilityPool {
  run(task: PoolRun): Promise<unknown>;
  /** Threads started so far (they start on first use). */
  readonly threads: number;
  /** Whether a thread has loaded and takes runs (an own thread: its heavy state is built). */
  readonly ready: boolean;
  /** Starts a thread now when none runs (a utility's own thread warms up before its first run). */
  start(): void;
  close(): Promise<void>;
}

const THREAD_URL = new URL(import.meta.url.endsWith(".ts") ? "./utility-thread.ts" : "./utility-thread.js", import.meta.url);
const OWN_THREAD_URL = new URL(import.meta.url.endsWith(".ts") ? "./own-thread.ts" : "./own-thread.js", import.meta.url);

/** The module of an ownThread utility's thread: it warms the utility up, then serves like a pool thread. */
export function ownThreadEntry(utility: string): URL {
  const url = new URL(OWN_THREAD_URL);
  url.searchParams.set("utility", utility);
  return url;
}
function bootOf(entry: URL): string {
  return entry.pathname.endsWith(".ts")
    ? `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`
    : `import(${JSON.stringify(entry.href)});`;
}

/**
 * The memory of a run's byte fields (a decoded or uploaded file) that moves to the thread instead of
 * being copied: 5 MB cloned cost a few ms on each side. The caller gives those bytes up (they are
 * the validated input of this run only). A buffer of Node's shared pool (small Buffers share 8 KB
 * slabs) never moves, nor one listed twice.
 */
export function transferablesOf(input: Readonly<Record<string, unknown>>): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const value of Object.values(input)) {
    if (!(value instanceof Uint8Array)) continue;
    const memory = value.buffer;
    if (!(memory instanceof ArrayBuffer) || memory.byteLength <= Buffer.poolSize || out.includes(memory)) continue;
    out.push(memory);
  }
  return out;
}

interface Job {
  readonly task: PoolRun;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  current: { readonly id: number; readonly job: Job; readonly timer: NodeJS.Timeout } | null;
  /** Its modules are loaded: the time limit of a run starts only then. */
  loaded: boolean;
  gone: boolean;
}

export function createUtilityPool(options: UtilityPoolOptions): UtilityPool {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let next = 1;
  let closed = false;
  const boot = bootOf(options.entry ?? THREAD_URL);
  const size = Math.max(1, options.size);

  const finish = (slot: Slot) => {
    const current = slot.current;
    if (current) clearTimeout(current.timer);
    slot.current = null;
    slot.worker.unref();
    return current;
  };

  const dispatch = () => {
    while (queue.length > 0) {
      const slot = slots.find((s) => s.current === null && s.loaded && !s.gone);
      if (!slot) {
        // A thread that is still loading will dispatch when it is ready.
        if (slots.length < size && !slots.some((s) => !s.loaded)) spawn();
        return;
      }
      const job = queue.shift() as Job;
      const id = next++;
      const limit = Math.min(options.cpuMs, job.task.cpuMs ?? options.cpuMs);
      const timer = setTimeout(() => stop(slot, `the run was stopped after ${limit} ms (the time limit of a utility run)`), limit);
      slot.current = { id, job, timer };
      slot.worker.ref();
      const message: UtilityTask = { id, utility: job.task.utility, input: job.task.input, nowMs: job.task.nowMs, seed: job.task.seed };
      slot.worker.postMessage(message, transferablesOf(job.task.input));
    }
  };

  /** Ends a thread and fails the run it had; a new thread is started on demand. */
  const stop = (slot: Slot, why: string) => {
    if (slot.gone) return;
    slot.gone = true;
    slots.splice(slots.indexOf(slot), 1);
    const lost = finish(slot);
    lost?.job.reject(new UtilityError("tool_failed", why));
    void slot.worker.terminate();
    if (closed) return;
    // A thread that dies while loading would die again: fail what waits rather than loop.
    if (!slot.loaded) {
      options.onLoadFailure?.(why);
      for (const job of queue.splice(0)) job.reject(new Error(`the utility thread could not start: ${why}`));
    }
    dispatch();
  };

  const spawn = (): Slot => {
    const worker = new Worker(boot, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(options.memoryMb / 8))), stackSizeMb: 4 },
    });
    const slot: Slot = { worker, current: null, loaded: false, gone: false };
    worker.on("message", (msg: UtilityReply | "loaded") => {
      if (msg === "loaded") {
        slot.loaded = true;
        dispatch();
        return;
      }
      if (slot.current?.id !== msg.id) return;
      const { job } = finish(slot) as NonNullable<Slot["current"]>;
      if ("output" in msg) job.resolve(msg.output);
      else if ("error" in msg) job.reject(new UtilityError(msg.error.code, msg.error.message, msg.error.field));
      else job.reject(new Error(`utility thread: ${msg.fault}`));
      dispatch();
    });
    worker.on("error", (err: Error & { code?: string }) =>
      stop(slot, err.code === "ERR_WORKER_OUT_OF_MEMORY" ? `the run was stopped: it needed more than the ${options.memoryMb} MB of memory a utility run may use` : `the utility's thread failed: ${err.message}`),
    );
    worker.on("exit", (code) => stop(slot, `the utility's thread exited (${code})`));
    worker.unref();
    slots.push(slot);
    return slot;
  };

  return {
    run(task) {
      if (closed) return Promise.reject(new Error("utility pool closed"));
      return new Promise((resolve, reject) => {
        queue.push({ task, resolve, reject });
        dispatch();
      });
    },
    get threads() {
      return slots.length;
    },
    get ready() {
      return slots.some((s) => s.loaded && !s.gone);
    },
    start() {
      if (!closed && slots.length === 0) spawn();
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("utility pool closed"));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
