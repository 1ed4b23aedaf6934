import { threadEntry } from "../../runtime/index.ts";
import { UtilityError } from "../../utilities/index.ts";
import { spawnHost, type Isolation, type PoolHost } from "./pool-host.ts";
import type { UtilityReply, UtilityTask } from "./utility-thread.ts";

// The bounded pool of offline utilities (DESIGN.md "Utilities and search data"): `size` hosts
// (worker threads, or child processes for utilities that allocate natively) each running one
// utility at a time from queues in the serving thread. It is a bulkhead between accounts:
//
// - each caller (an account) has its own queue, served in turn, with caps on its runs running and
//   waiting (over them: PoolBusyError, the gateway's 429 limit), so one account's flood waits
//   behind itself and not in front of everybody;
// - a run waits at most `queueMs` for a host (then PoolBusyError too);
// - a run whose caller has gone (its signal aborts) is dropped while it waits, and cut while it runs;
// - a run that overruns its time limit (a catastrophic regular expression), its thread's heap or its
//   process's resident memory is stopped by killing its host; the run answers tool_failed. Hosts are
//   replaced ahead of time, and with `spare` one loaded host waits idle, so the next caller does not
//   pay a thread's start-up for somebody else's killed run.

export interface UtilityPoolOptions {
  /** Runs at once. */
  readonly size: number;
  /** Default time limit of one run (ms); a utility may ask for less (regex_test: 1 s). */
  readonly cpuMs: number;
  /** V8 heap of each host (MB). */
  readonly memoryMb: number;
  /** "process": each host is a child process whose resident memory stays under `rssMb`. */
  readonly isolation?: Isolation;
  /** A process host's resident memory limit (MB): a run past it is killed. */
  readonly rssMb?: number;
  /** The host's module (tests run a stand-in); utility-thread.ts by default. */
  readonly entry?: URL;
  /** Told when a host dies before it loaded (an own thread's warm-up failed). */
  readonly onLoadFailure?: (why: string) => void;
  /** Runs one caller may have running, and waiting; unbounded when absent. */
  readonly perCaller?: { readonly running: number; readonly waiting: number };
  /** Longest a run waits for a host (ms); unbounded when absent. */
  readonly queueMs?: number;
  /** Keeps one loaded host idle beyond `size`, to take the place of a killed one at once. */
  readonly spare?: boolean;
}

export interface PoolRun {
  readonly utility: string;
  readonly input: Record<string, unknown>;
  readonly nowMs: number;
  readonly seed: Uint8Array;
  /** This run's limit when it is below the pool's. */
  readonly cpuMs?: number;
  /** Whose run it is (an account): the unit of the caps and of the turns. */
  readonly caller?: string;
  /** Aborts when the caller has gone: the run is dropped, or cut. */
  readonly signal?: AbortSignal;
}

export interface UtilityPool {
  run(task: PoolRun): Promise<unknown>;
  /** Hosts alive (they start on first use). */
  readonly threads: number;
  /** Whether a host has loaded and takes runs (an own thread: its heavy state is built). */
  readonly ready: boolean;
  /** Starts a host now when none runs (a utility's own thread warms up before its first run). */
  start(): void;
  close(): Promise<void>;
}

/** The pool cannot take a run now (a caller's cap, or the queue deadline): retry after `retryAfterS`. */
export class PoolBusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}

/** The run's caller went away: it was dropped before it ran, or cut while running (`started`). */
export class RunAbandonedError extends Error {
  constructor(readonly started: boolean) {
    super(started ? "the client went away during the run: it was stopped" : "the client went away before the run started: it was dropped");
  }
}

const THREAD_URL = threadEntry("utility-thread", import.meta.url);
const OWN_THREAD_URL = new URL(import.meta.url.endsWith(".ts") ? "./own-thread.ts" : "./own-thread.js", import.meta.url);

/** The module of an ownThread utility's thread: it warms the utility up, then serves like a pool thread. */
export function ownThreadEntry(utility: string): URL {
  const url = new URL(OWN_THREAD_URL);
  url.searchParams.set("utility", utility);
  return url;
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
  readonly caller: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
  /** Removes the job's queue timer and abort listener. */
  release(): void;
}

interface Slot {
  readonly host: PoolHost;
  current: { readonly id: number; readonly job: Job; readonly timers: readonly NodeJS.Timeout[] } | null;
  /** Its modules are loaded: the time limit of a run starts only then. */
  loaded: boolean;
  gone: boolean;
  /**
   * Resident memory it may keep (a process host): when it loaded, then after its first run, which
   * loads what every run uses (libvips, fonts, a layout engine: ~55 MB for og_image_generator), up
   * to RETAINED_MB more. A run that leaves much more than this behind retires it.
   */
  baseRssMb: number | null;
  warm: boolean;
}

/** A process host that keeps this much more than its base is replaced after its run. */
const RETAINED_MB = 64;
const RSS_POLL_MS = 50;

export function createUtilityPool(options: UtilityPoolOptions): UtilityPool {
  const slots: Slot[] = [];
  /** Waiting runs per caller; runs running per caller; when each active caller was last given a host. */
  const waiting = new Map<string, Job[]>();
  const running = new Map<string, number>();
  const served = new Map<string, number>();
  let next = 1;
  let closed = false;
  /** A host died while loading: no more are started until the next run asks (it would die again). */
  let broken = false;
  const isolation = options.isolation ?? "thread";
  const entry = options.entry ?? THREAD_URL;
  const size = Math.max(1, options.size);
  const hostsWanted = size + (options.spare ? 1 : 0);

  const busyCount = () => slots.filter((s) => s.current !== null).length;

  const finish = (slot: Slot) => {
    const current = slot.current;
    if (!current) return null;
    for (const t of current.timers) clearTimeout(t);
    slot.current = null;
    slot.host.busy(false);
    const caller = current.job.caller;
    const left = (running.get(caller) ?? 1) - 1;
    if (left > 0) running.set(caller, left);
    else {
      running.delete(caller);
      // A caller with nothing running or waiting is forgotten: the maps hold active callers only.
      if (!waiting.has(caller)) served.delete(caller);
    }
    current.job.release();
    return current;
  };

  /** Keeps `size` (+ the spare) hosts alive once the pool is in use, so a replacement is loaded before it is needed. */
  const replenish = () => {
    if (closed || broken) return;
    while (slots.length < hostsWanted) spawn();
  };

  /**
   * The next run: of the callers under their running cap, the one with the fewest runs running,
   * and of those the one served longest ago (a newcomer first). So a flood waits behind itself.
   */
  const nextJob = (): Job | null => {
    let best: string | null = null;
    for (const caller of waiting.keys()) {
      const busy = running.get(caller) ?? 0;
      if (busy >= (options.perCaller?.running ?? Infinity)) continue;
      if (best === null) best = caller;
      else {
        const bestBusy = running.get(best) ?? 0;
        if (busy < bestBusy || (busy === bestBusy && (served.get(caller) ?? -1) < (served.get(best) ?? -1))) best = caller;
      }
    }
    if (best === null) return null;
    const queue = waiting.get(best) as Job[];
    const job = queue.shift() as Job;
    if (queue.length === 0) waiting.delete(best);
    served.set(best, next);
    return job;
  };

  const unqueue = (job: Job): boolean => {
    const queue = waiting.get(job.caller);
    const at = queue?.indexOf(job) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    if (queue.length === 0) {
      waiting.delete(job.caller);
      if (!running.has(job.caller)) served.delete(job.caller);
    }
    return true;
  };

  const dispatch = () => {
    while (busyCount() < size) {
      const slot = slots.find((s) => s.current === null && s.loaded && !s.gone);
      if (!slot) break;
      const job = nextJob();
      if (!job) break;
      start(slot, job);
    }
    if (waiting.size > 0) replenish();
  };

  const start = (slot: Slot, job: Job) => {
    const id = next++;
    const limit = Math.min(options.cpuMs, job.task.cpuMs ?? options.cpuMs);
    const timers = [setTimeout(() => stop(slot, `the run was stopped after ${limit} ms (the time limit of a utility run)`), limit)];
    const rssLimit = options.rssMb;
    if (rssLimit !== undefined && slot.host.rssMb() !== null) {
      // Native memory (libvips) is invisible to V8's limits: the process's resident size is watched.
      timers.push(setInterval(() => {
        if ((slot.host.rssMb() ?? 0) > rssLimit) stop(slot, `the run was stopped: it needed more than the ${rssLimit} MB of memory an image run may use`);
      }, RSS_POLL_MS));
    }
    slot.current = { id, job, timers };
    running.set(job.caller, (running.get(job.caller) ?? 0) + 1);
    slot.host.busy(true);
    const message: UtilityTask = { id, utility: job.task.utility, input: job.task.input, nowMs: job.task.nowMs, seed: job.task.seed };
    slot.host.post(message, transferablesOf(job.task.input));
  };

  /** Ends a host and fails the run it had; the pool replaces it. */
  const stop = (slot: Slot, why: string, error: Error = new UtilityError("tool_failed", why)) => {
    if (slot.gone) return;
    slot.gone = true;
    slots.splice(slots.indexOf(slot), 1);
    const lost = finish(slot);
    lost?.job.reject(error);
    slot.host.kill();
    if (closed) return;
    if (!slot.loaded) {
      // A host that dies while loading would die again: fail what waits rather than loop.
      broken = true;
      options.onLoadFailure?.(why);
      for (const job of [...waiting.values()].flat()) {
        unqueue(job);
        job.release();
        job.reject(new Error(`the utility thread could not start: ${why}`));
      }
      return;
    }
    replenish();
    // After the current event's other listeners: runs of a caller that went away are all dropped first.
    queueMicrotask(dispatch);
  };

  /** A process host that kept much of a run's memory is retired (its replacement is already loading). */
  const retireIfSwollen = (slot: Slot) => {
    const rss = slot.host.rssMb();
    if (rss === null || slot.baseRssMb === null) return;
    if (!slot.warm) {
      // What the first run loaded stays for every later run: not retained, but the host's working set.
      slot.warm = true;
      slot.baseRssMb = Math.min(rss, slot.baseRssMb + RETAINED_MB);
    }
    if (rss - slot.baseRssMb <= RETAINED_MB) return;
    stop(slot, "retired");
  };

  const spawn = (): Slot => {
    const slot: Slot = { host: undefined as unknown as PoolHost, current: null, loaded: false, gone: false, baseRssMb: null, warm: false };
    const host = spawnHost(isolation, {
      entry,
      memoryMb: options.memoryMb,
      onMessage: (raw) => {
        const msg = raw as UtilityReply | "loaded";
        if (msg === "loaded") {
          slot.loaded = true;
          slot.baseRssMb = slot.host.rssMb();
          dispatch();
          return;
        }
        if (slot.current?.id !== msg.id) return;
        const { job } = finish(slot) as NonNullable<Slot["current"]>;
        if ("output" in msg) job.resolve(msg.output);
        else if ("error" in msg) job.reject(new UtilityError(msg.error.code, msg.error.message, msg.error.field));
        else job.reject(new Error(`utility thread: ${msg.fault}`));
        retireIfSwollen(slot);
        dispatch();
      },
      onGone: (why, outOfMemory) => stop(slot, outOfMemory ? `the run was stopped: it needed more than the ${options.memoryMb} MB of memory a utility run may use` : why),
    });
    (slot as { host: PoolHost }).host = host;
    slots.push(slot);
    return slot;
  };

  const enqueue = (task: PoolRun, resolve: (v: unknown) => void, reject: (e: Error) => void) => {
    const caller = task.caller ?? "";
    const cap = options.perCaller;
    const mine = waiting.get(caller)?.length ?? 0;
    if (cap && mine + (running.get(caller) ?? 0) >= cap.running + cap.waiting) {
      const retryAfterS = Math.ceil(options.cpuMs / 1000);
      reject(new PoolBusyError(`this account already has ${cap.running + cap.waiting} utility runs running or waiting, the most it may have; retry when one has answered`, retryAfterS));
      return;
    }
    let deadline: NodeJS.Timeout | undefined;
    const onAbort = () => {
      // Waiting: dropped, never run. Running: cut (its host is killed and replaced).
      if (unqueue(job)) {
        job.release();
        reject(new RunAbandonedError(false));
        return;
      }
      const slot = slots.find((s) => s.current?.job === job);
      if (slot) stop(slot, "the client went away", new RunAbandonedError(true));
    };
    const job: Job = {
      task,
      caller,
      resolve,
      reject,
      release: () => {
        if (deadline) clearTimeout(deadline);
        task.signal?.removeEventListener("abort", onAbort);
      },
    };
    if (options.queueMs !== undefined) {
      const queueMs = options.queueMs;
      deadline = setTimeout(() => {
        if (!unqueue(job)) return;
        task.signal?.removeEventListener("abort", onAbort);
        reject(new PoolBusyError(`the utility could not start within ${queueMs / 1000} s: the utility threads are busy; retry shortly`, Math.ceil(options.cpuMs / 1000)));
      }, queueMs);
      deadline.unref();
    }
    task.signal?.addEventListener("abort", onAbort, { once: true });
    const queue = waiting.get(caller) ?? [];
    waiting.set(caller, queue);
    queue.push(job);
    dispatch();
  };

  return {
    run(task) {
      if (closed) return Promise.reject(new Error("utility pool closed"));
      if (task.signal?.aborted) return Promise.reject(new RunAbandonedError(false));
      broken = false;
      return new Promise((resolve, reject) => enqueue(task, resolve, reject));
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
      for (const job of [...waiting.values()].flat()) {
        job.release();
        job.reject(new Error("utility pool closed"));
      }
      waiting.clear();
      for (const slot of slots.splice(0)) {
        slot.gone = true;
        finish(slot)?.job.reject(new Error("utility pool closed"));
        slot.host.kill();
      }
    },
  };
}
