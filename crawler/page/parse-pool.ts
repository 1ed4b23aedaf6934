import { Worker } from "node:worker_threads";
import { analyzeCrawl, type CrawlAnalysis, type CrawlInput } from "../../analyzer/index.ts";
import { CrawledPage, CrawlFindings } from "../../proto/index.ts";
import { crawledPage, type PageInput } from "./crawled-page.ts";
import { extractPage, type Extraction, type ExtractInput } from "./extract.ts";
import type { ParseTask } from "./parse-thread.ts";

/** Where the CPU-bound part of a crawl runs: parsing pages and the whole-crawl analysis. */
export interface ParsePool {
  page(input: PageInput): Promise<CrawledPage>;
  /** One page's facts (an analysis's home and sample pages). */
  readonly extract: (input: ExtractInput) => Promise<Extraction>;
  analyze(input: CrawlInput): Promise<CrawlAnalysis>;
  /** Resolves once every thread has loaded its modules (a node says it is ready only after that). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** In the calling thread (tests, and a node configured with no parse threads). */
export function inlineParsePool(): ParsePool {
  return {
    page: async (input) => crawledPage(input),
    extract: async (input) => extractPage(input),
    analyze: async (input) => analyzeCrawl(input),
    ready: async () => undefined,
    close: async () => undefined,
  };
}

// The thread's entry: under tsx (sources) it registers the loader first; a built dist runs the .js.
const THREAD_URL = new URL(import.meta.url.endsWith(".ts") ? "./parse-thread.ts" : "./parse-thread.js", import.meta.url);
const BOOT = import.meta.url.endsWith(".ts")
  ? `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(THREAD_URL.href)}); });`
  : `import(${JSON.stringify(THREAD_URL.href)});`;

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

/**
 * `size` worker threads, tasks handed to the least busy. Messages are structured clones of plain
 * objects (ts-proto messages are plain objects), so nothing is encoded on the way.
 */
export function threadParsePool(size: number, warmUpPages = 0): ParsePool {
  const threads: { worker: Worker; busy: number }[] = [];
  const pending = new Map<number, Pending>();
  let next = 1;
  let closed = false;
  const spawn = () => {
    const worker = new Worker(BOOT, { eval: true, workerData: { warmUpPages } });
    const slot = { worker, busy: 0 };
    worker.on("message", (msg: { id: number; result?: unknown; error?: string } | "loaded") => {
      if (msg === "loaded") return;
      slot.busy -= 1;
      // An idle thread does not keep the process alive; a busy one does (its caller waits on it).
      if (slot.busy === 0) worker.unref();
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error !== undefined) p?.reject(new Error(`parse thread: ${msg.error}`));
      else p?.resolve(msg.result);
    });
    worker.on("error", (err) => {
      // A crashed thread fails what it held; a new one takes its place.
      for (const [id, p] of pending) {
        p.reject(err);
        pending.delete(id);
      }
      const i = threads.indexOf(slot);
      if (i >= 0) threads.splice(i, 1);
      if (!closed) spawn();
    });
    worker.unref();
    threads.push(slot);
  };
  for (let i = 0; i < Math.max(1, size); i++) spawn();
  // Loading a thread's modules (compiling them, under tsx) takes a second of CPU or more, and its
  // warm-up pages some tenths: a node that took work before that would pay it inside its first job.
  const loaded = Promise.all(
    threads.map(
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
  const run = <T>(task: Omit<ParseTask, "id">, transfer: ArrayBuffer[] = []): Promise<T> => {
    if (closed) return Promise.reject(new Error("parse pool closed"));
    const id = next++;
    const slot = threads.reduce((a, b) => (b.busy < a.busy ? b : a));
    slot.busy += 1;
    slot.worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      slot.worker.postMessage({ ...task, id }, transfer);
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
    analyze: async (input) => {
      const out = await run<CrawlAnalysis>({ kind: "crawl", input });
      // Cloned across threads, the findings are a plain object of the same shape.
      return { ...out, findings: CrawlFindings.fromPartial(out.findings) };
    },
    close: async () => {
      closed = true;
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
