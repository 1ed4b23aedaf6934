import { threadBoot } from "../../runtime/index.ts";
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

// Where a pool's runs execute: a worker thread (its V8 heap bounded by resourceLimits) or a child
// process (its resident memory bounded by the pool, which reads it from /proc). Utilities that
// allocate outside V8 (libvips: the image utilities) need the process: a thread's native memory is
// the gateway's, unbounded by resourceLimits, kept by the allocator after the run, and a thread
// terminated at its limit leaves libvips working on; a killed process takes all of it along.

export type Isolation = "thread" | "process";

export interface HostOptions {
  readonly entry: URL;
  /** V8 heap (MB). */
  readonly memoryMb: number;
  readonly onMessage: (msg: unknown) => void;
  /** It failed or exited; `outOfMemory` when V8 said so. */
  readonly onGone: (why: string, outOfMemory: boolean) => void;
}

/** One thread or process of a pool: takes one message at a time, holds the gateway open only while busy. */
export interface PoolHost {
  post(message: unknown, transfer: ArrayBuffer[]): void;
  /** Holds the event loop open while a run is in it. */
  busy(on: boolean): void;
  /** Resident memory (MB) when it is a process and the system tells (Linux); null otherwise. */
  rssMb(): number | null;
  kill(): void;
}

export function spawnHost(isolation: Isolation, options: HostOptions): PoolHost {
  return isolation === "process" ? processHost(options) : threadHost(options);
}


function threadHost(options: HostOptions): PoolHost {
  const worker = new Worker(threadBoot(options.entry), {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(options.memoryMb / 8))), stackSizeMb: 4 },
  });
  worker.on("message", options.onMessage);
  worker.on("error", (err: Error & { code?: string }) => options.onGone(`the utility's thread failed: ${err.message}`, err.code === "ERR_WORKER_OUT_OF_MEMORY"));
  worker.on("exit", (code) => options.onGone(`the utility's thread exited (${code})`, false));
  worker.unref();
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    busy: (on) => (on ? worker.ref() : worker.unref()),
    rssMb: () => null,
    kill: () => void worker.terminate(),
  };
}

function processHost(options: HostOptions): PoolHost {
  const ts = options.entry.pathname.endsWith(".ts");
  const child: ChildProcess = fork(fileURLToPath(options.entry), [], {
    execArgv: [...(ts ? ["--import", "tsx"] : []), `--max-old-space-size=${options.memoryMb}`],
    // Two malloc arenas instead of 8 per core: libvips' freed buffers are reused rather than kept
    // in many half-empty arenas. Nothing else of the gateway's environment is the child's business.
    env: { MALLOC_ARENA_MAX: "2" },
    serialization: "advanced",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  let gone = false;
  const end = (why: string) => {
    if (gone) return;
    gone = true;
    options.onGone(why, false);
  };
  child.on("message", options.onMessage);
  child.on("error", (err) => end(`the utility's process failed: ${err.message}`));
  child.on("exit", (code, signal) => end(`the utility's process exited (${signal ?? code})`));
  const hold = (on: boolean) => {
    if (on) child.ref();
    else child.unref();
    const channel = child.channel as { ref?: () => void; unref?: () => void } | undefined;
    if (on) channel?.ref?.();
    else channel?.unref?.();
  };
  hold(false);
  return {
    post: (message) => {
      // The IPC channel copies; nothing is transferred to another process.
      if (child.connected) child.send(message as object);
    },
    busy: hold,
    rssMb: () => (child.pid === undefined ? null : residentMb(child.pid)),
    kill: () => void child.kill("SIGKILL"),
  };
}

/** VmRSS of a process in MB, from /proc (Linux); null where there is none. */
export function residentMb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
