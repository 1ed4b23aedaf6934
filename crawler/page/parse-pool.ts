import { threadBoot, threadEntry } from "../../runtime/index.ts";
import { Worker, type ResourceLimits } from "node:worker_threads";
import { analyzeCrawlTable, type CrawlAnalysis, type CrawlFactsInput } from "../../analyzer/index.ts";
import { factsPages, loadTable, type SpilledFacts } from "../crawl/facts-file.ts";
import { CrawledPage, CrawlFindings } from "../../proto/index.ts";
import { crawledPage, type PageInput } from "./crawled-page.ts";
import { extractPage, type Extraction, type ExtractInput } from "./extract.ts";
import type { ParseTask } from "./parse-thread.ts";

/** The whole-crawl analysis's input, its facts in memory or in a file (read back by the thread that analyses). */
export type CrawlAnalysisInput = Omit<CrawlFactsInput, "facts"> & { readonly facts: CrawlFactsInput["facts"] | SpilledFacts };

/** Where the CPU-bound part of a crawl runs: parsing pages and the whole-crawl analysis. */
export interface ParsePool {
  page(input: PageInput): Promise<CrawledPage>;
  /** One page's facts (an analysis's home and sample pages). */
  readonly extract: (input: ExtractInput) => Promise<Extraction>;
  /** The whole-crawl analysis of a crawl's compact facts (in memory or in their file). */
  analyze(input: CrawlAnalysisInput): Promise<CrawlAnalysis>;
  /** Resolves once every thread has loaded its modules (a node says it is ready only after that). */
  ready(): Promise<void>;
  /** Threads running now (0 inline, and while an idle pool has let its threads go). */
  threads(): number;
  close(): Promise<void>;
}

/** In the calling thread (tests, and a node configured with no parse threads). */
export function inlineParsePool(): ParsePool {
  return {
    page: async (input) => crawledPage(input),
    extract: async (input) => extractPage(input),
    analyze: async ({ facts, ...input }) => analyzeCrawlTable({ ...input, table: loadTable(facts) }),
    ready: async () => undefined,
    threads: () => 0,
    close: async () => undefined,
  };
}

// The thread's entry: under tsx (sources) it registers the loader first; a built dist runs the .js.
const BOOT = threadBoot(threadEntry("parse-thread", import.meta.url));

/** A parse thread died (out of memory, a native fault) while running this task. */
export class ParseThreadCrashedError extends Error {
  constructor(readonly reason: string) {
    super(`the parse thread running this page crashed: ${reason}`);
    this.name = "ParseThreadCrashedError";
  }
}

interface Job {
  readonly task: Omit<ParseTask, "id">;
  readonly transfer: ArrayBuffer[];
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  /** The tasks posted to the thread (one unless tasksPerThread says more); the others wait in the pool's queue. */
  readonly current: Map<number, Job>;
  gone: boolean;
  /** Replace the thread once its task is done (it analysed a large crawl). */
  retire: boolean;
}

/**
 * Pages of a crawl above which the thread that analysed it is replaced by a fresh one: V8 keeps
 * the heap an analysis grew (hundreds of MB at 100,000 pages) long after it is garbage, and a
 * thread that exits gives it all back. With an idle limit (idleMs), and nothing else to run once
 * the analysis is done, every thread goes at once instead (they parsed the crawl's pages: their
 * heaps grew too) and the next task starts them again.
 */
export const RETIRE_AFTER_ANALYSIS_OF = 5000;

export interface ThreadPoolOptions {
  /** The thread's module (tests run a thread of their own); the parse thread by default. */
  readonly entry?: URL;
  readonly resourceLimits?: ResourceLimits;
  /**
   * Let every thread go after this long without a task (0: never), and start them again, without
   * warm-up pages, when the next task comes. Each thread holds its own V8 heap and compiled code
   * (about 38 MB resident): a crawler node that only probes for a while gives that back.
   */
  readonly idleMs?: number;
  /**
   * Tasks posted to a thread at once (default 1). More keeps a thread busy while the main thread
   * is late to hand it the next page, but a thread that crashes fails every task it holds: one
   * page that runs a thread out of memory takes the others with it. docs/benchmarks.md (parse
   * pool) measures both; 1 is what the crawler node runs.
   */
  readonly tasksPerThread?: number;
  /**
   * Start no thread until the first task comes (as after an idle spell: no warm-up pages), and be
   * ready at once. The test harness's gateways do: most never parse a page, and each thread costs
   * seconds of CPU to load under tsx.
   */
  readonly startAsleep?: boolean;
}

/**
 * `size` worker threads, each running one task at a time (tasksPerThread) from a queue in this thread. Messages
 * are structured clones of plain objects (ts-proto messages are plain objects), so nothing is
 * encoded on the way. A thread that crashes fails only the task it was running (with the
 * cause), and a new thread takes its place: tasks still queued never were on the crashed thread,
 * so they run elsewhere. (With several tasks posted to each thread, one page that ran a thread
 * out of memory failed every task queued behind it.)
 */
export function threadParsePool(size: number, warmUpPages = 0, options: ThreadPoolOptions = {}): ParsePool {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let next = 1;
  let closed = false;
  const boot = options.entry ? threadBoot(options.entry) : BOOT;
  const idleMs = options.idleMs ?? 0;
  let asleep = options.startAsleep === true;
  let lastBusy = Date.now();
  const perThread = Math.max(1, options.tasksPerThread ?? 1);

  const dispatch = () => {
    if (asleep && queue.length > 0) {
      asleep = false;
      for (let i = 0; i < Math.max(1, size); i++) spawn(0);
    }
    // Threads let go while one analysed a large crawl (below) come back when work is queued.
    if (!asleep && !closed && queue.length > 0 && slots.every((s) => s.current.size > 0)) for (let i = slots.length; i < Math.max(1, size); i++) spawn(0);
    // Round by round, one task per free place, so that the threads share the queue evenly.
    for (let round = 0; round < perThread; round++) {
      for (const slot of slots) {
        if (slot.current.size > round || slot.gone || slot.retire) continue;
        const job = queue.shift();
        if (!job) return;
        const id = next++;
        slot.current.set(id, job);
        if (job.task.kind === "crawl" && factsPages((job.task.input as CrawlAnalysisInput).facts) >= RETIRE_AFTER_ANALYSIS_OF) {
          slot.retire = true;
          // With an idle limit, the other threads, idle now, go at once: they would go after the
          // analysis anyway (below), and meanwhile their heaps sit beside the analysis's, the
          // crawl's peak. A task queued meanwhile starts one again (above).
          if (idleMs > 0 && queue.length === 0) {
            for (const other of slots.filter((s) => s !== slot && s.current.size === 0 && !s.gone)) {
              other.gone = true;
              slots.splice(slots.indexOf(other), 1);
              void other.worker.terminate();
            }
          }
        }
        slot.worker.ref();
        lastBusy = Date.now();
        slot.worker.postMessage({ ...job.task, id }, job.transfer);
      }
    }
  };

  const spawn = (warmUp = warmUpPages): Slot => {
    const worker = new Worker(boot, { eval: true, workerData: { warmUpPages: warmUp }, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) });
    const slot: Slot = { worker, current: new Map(), gone: false, retire: false };
    worker.on("message", (msg: { id: number; result?: unknown; error?: string } | "loaded") => {
      const job = msg === "loaded" ? undefined : slot.current.get(msg.id);
      if (msg === "loaded" || !job) return;
      slot.current.delete(msg.id);
      lastBusy = Date.now();
      // An idle thread does not keep the process alive; a busy one does (its caller waits on it).
      if (slot.current.size === 0) worker.unref();
      if (msg.error !== undefined) job.reject(new Error(`parse thread: ${msg.error}`));
      else job.resolve(msg.result);
      if (slot.retire && slot.current.size === 0 && !closed) {
        if (idleMs > 0 && queue.length === 0 && slots.every((s) => s.current.size === 0)) {
          // Nothing else to do (the crawl that was analysed has ended): every thread goes now, not
          // after the idle limit, with the heap and malloc arena the crawl's pages grew in each;
          // the next task starts them again (as after an idle spell).
          sleep();
          return;
        }
        // Out of the pool before it exits (no task goes to it), a fresh thread in its place.
        slot.gone = true;
        slots.splice(slots.indexOf(slot), 1);
        void worker.terminate();
        spawn();
      }
      dispatch();
    });
    const crashed = (cause: string) => {
      if (slot.gone) return;
      slot.gone = true;
      slots.splice(slots.indexOf(slot), 1);
      const lost = [...slot.current.values()];
      slot.current.clear();
      for (const job of lost) job.reject(new ParseThreadCrashedError(cause));
      if (closed) return;
      spawn();
      dispatch();
    };
    worker.on("error", (err: Error & { code?: string }) => crashed(err.code ? `${err.code}: ${err.message}` : err.message));
    worker.on("exit", (code) => crashed(`the thread exited (${code})`));
    worker.unref();
    slots.push(slot);
    return slot;
  };
  if (!asleep) for (let i = 0; i < Math.max(1, size); i++) spawn();
  // Loading a thread's modules (compiling them, under tsx) takes a second of CPU or more, and its
  // warm-up pages some tenths: a node that took work before that would pay it inside its first job.
  const loaded = Promise.all(
    slots.map(
      ({ worker }) =>
        new Promise<void>((resolve, reject) => {
          const onMessage = (msg: unknown) => {
            if (msg !== "loaded") return;
            worker.off("message", onMessage);
            resolve();
          };
          worker.on("message", onMessage);
          worker.once("error", reject);
          worker.once("exit", (code) => reject(new Error(`a parse thread exited (${code}) while loading`)));
        }),
    ),
  ).then(() => undefined);
  // Observed here too: a caller that never asks must not see an unhandled rejection.
  loaded.catch(() => undefined);
  /** Lets every thread go; the next task starts them again (dispatch). */
  const sleep = () => {
    asleep = true;
    for (const slot of slots.splice(0)) {
      slot.gone = true;
      void slot.worker.terminate();
    }
  };
  let started = false;
  void loaded.then(() => (started = true), () => undefined);
  const sleeper =
    idleMs > 0
      ? setInterval(
          () => {
            if (!started || asleep || closed || queue.length > 0 || slots.some((s) => s.current.size > 0)) return;
            if (Date.now() - lastBusy < idleMs) return;
            sleep();
          },
          Math.max(10, Math.min(60_000, idleMs / 4)),
        )
      : null;
  sleeper?.unref();
  const run = <T>(task: Omit<ParseTask, "id">, transfer: ArrayBuffer[] = []): Promise<T> => {
    if (closed) return Promise.reject(new Error("parse pool closed"));
    return new Promise<T>((resolve, reject) => {
      queue.push({ task, transfer, resolve: resolve as (v: unknown) => void, reject });
      dispatch();
    });
  };
  return {
    page: (input) => {
      // A body that owns its memory moves to the thread (the caller's view of it empties); one in
      // a shared pool (small Buffers) is copied.
      const body = input.body;
      if (!body || body.length === 0) return run<CrawledPage>({ kind: "page", input });
      const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer ? body : new Uint8Array(body);
      return run<CrawledPage>({ kind: "page", input: { ...input, body: own } }, [own.buffer as ArrayBuffer]);
    },
    // ts-proto messages are plain objects: the clone is the same facts.
    extract: (input) => run<Extraction>({ kind: "extract", input }),
    ready: () => loaded,
    threads: () => slots.length,
    analyze: async (input) => {
      const out = await run<CrawlAnalysis>({ kind: "crawl", input });
      // Cloned across threads, the findings are a plain object of the same shape.
      return { ...out, findings: CrawlFindings.fromPartial(out.findings) };
    },
    close: async () => {
      closed = true;
      if (sleeper) clearInterval(sleeper);
      for (const job of queue.splice(0)) job.reject(new Error("parse pool closed"));
      await Promise.all(slots.map((t) => t.worker.terminate()));
    },
  };
}
