import { threadBoot, threadEntry } from "../../runtime/index.ts";
import { Worker } from "node:worker_threads";
import { emptyFacts, ImportFormatError, type ImportFacts, type ImportLimits, type ParsedImport, type ParseOptions } from "../../analyzer/index.ts";
import { createDecodeLane } from "./decode-lane.ts";
import type { ParseReply, ParseRequest } from "./import-messages.ts";

// Every upload is parsed off the serving thread (DESIGN.md: work whose size one account controls
// never runs there unbounded): in a thread with a heap limit, under a deadline, at most THREADS at
// once in a process and one at a time per account, so one account's large files queue behind each
// other and never hold both threads. The facts come back in small messages, each decoded in its
// own turn of the event loop. A thread stays for IDLE_MS after a parse, so a burst of small
// uploads does not pay a thread's start each.

/** Parse threads a gateway runs at once: one core of a 2-core gateway stays the serving thread's. */
const THREADS = 2;
/** The longest a parse may take; a 64 MB export parses in well under a minute. */
const PARSE_DEADLINE_MS = 5 * 60 * 1000;
/** How long an idle parse thread is kept. */
const IDLE_MS = 30_000;

const THREAD_URL = threadEntry("import-thread", import.meta.url);


export interface ImportParserOptions {
  readonly memoryMb: number;
  readonly limits: ImportLimits;
}

/** Parses uploads in threads; close() ends every thread. */
export interface ImportParser {
  /** The file's facts, or ImportFormatError for a file refused (unknown, malformed, over a cap, over the heap). The bytes are moved to the thread: the caller gives them up. */
  parse(accountId: number, bytes: Uint8Array, fileName: string, options: Pick<ParseOptions, "provider" | "kind">): Promise<ParsedImport>;
  /** The bytes of a request body's long base64 string raw[start, end), decoded in a thread (decode-lane.ts); null when it is not base64. The caller gives raw up. */
  decode(raw: Buffer, start: number, end: number): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

interface Job {
  readonly accountId: number;
  readonly bytes: Uint8Array;
  readonly fileName: string;
  readonly options: Pick<ParseOptions, "provider" | "kind">;
  readonly resolve: (parsed: ParsedImport) => void;
  readonly reject: (err: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  job: Job | null;
  facts: ImportFacts;
  deadline: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
  gone: boolean;
}

export function createImportParser(options: ImportParserOptions): ImportParser {
  const boot = threadBoot(THREAD_URL);
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  let closed = false;
  // The decode thread's heap holds nothing large: the body's memory is outside it.
  const lane = createDecodeLane(() => new Worker(boot, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 } }));

  const busyAccounts = () => new Set(slots.flatMap((s) => (s.job ? [s.job.accountId] : [])));

  /** Hands the first waiter whose account has no parse running to a free thread. */
  const dispatch = () => {
    for (;;) {
      const busy = busyAccounts();
      const at = waiting.findIndex((j) => !busy.has(j.accountId));
      if (at < 0) return;
      const slot = slots.find((s) => s.job === null) ?? (slots.length < THREADS ? spawn() : null);
      if (!slot) return;
      const [job] = waiting.splice(at, 1);
      start(slot, job!);
    }
  };

  const start = (slot: Slot, job: Job) => {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.job = job;
    slot.facts = emptyFacts();
    slot.deadline = setTimeout(() => stop(slot, new ImportFormatError(`${job.fileName} took longer than ${PARSE_DEADLINE_MS / 60_000} minutes to read; split the export into smaller files`)), PARSE_DEADLINE_MS);
    slot.worker.ref();
    // The bytes move to the thread when they own their memory (a Buffer of Node's shared pool is copied).
    const moved = job.bytes.byteLength >= 4096 && job.bytes.buffer instanceof ArrayBuffer ? job.bytes : new Uint8Array(job.bytes);
    const req: ParseRequest = { bytes: moved.buffer as ArrayBuffer, byteOffset: moved.byteOffset, byteLength: moved.byteLength, fileName: job.fileName, limits: options.limits, ...job.options };
    slot.worker.postMessage(req, [req.bytes]);
  };

  /** Ends a slot's job; the thread waits for the next one (or leaves after IDLE_MS). */
  const finish = (slot: Slot, fail: Error | null, parsed?: ParsedImport) => {
    const job = slot.job;
    if (!job) return;
    slot.job = null;
    slot.facts = emptyFacts();
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    slot.worker.unref();
    if (fail) job.reject(fail);
    else job.resolve(parsed!);
    if (!slot.gone) slot.idle = setTimeout(() => stop(slot, null), IDLE_MS).unref();
    dispatch();
  };

  /** Ends a thread (and fails its job, if any, with why). */
  const stop = (slot: Slot, why: Error | null) => {
    if (slot.gone) return;
    slot.gone = true;
    slots.splice(slots.indexOf(slot), 1);
    if (slot.idle) clearTimeout(slot.idle);
    void slot.worker.terminate();
    finish(slot, why ?? new Error("the import thread ended"));
  };

  const spawn = (): Slot => {
    const worker = new Worker(boot, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(options.memoryMb / 8))), stackSizeMb: 4 },
    });
    const slot: Slot = { worker, job: null, facts: emptyFacts(), deadline: null, idle: null, gone: false };
    worker.on("message", (msg: ParseReply) => {
      if (!slot.job) return;
      if ("list" in msg) {
        const into = slot.facts[msg.list] as unknown[];
        for (const row of msg.rows) into.push(row);
      } else if ("done" in msg) {
        const { provider, kind, formats, ...rest } = msg.done;
        finish(slot, null, { provider, kind, formats, facts: { ...slot.facts, ...rest, warnings: [...rest.warnings] } });
      } else if ("refused" in msg) finish(slot, new ImportFormatError(msg.refused));
      else finish(slot, new Error(`import thread: ${msg.fault}`));
    });
    worker.on("error", (err: Error & { code?: string }) => {
      const fileName = slot.job?.fileName ?? "the file";
      stop(slot, err.code === "ERR_WORKER_OUT_OF_MEMORY" ? new ImportFormatError(`${fileName} needs more than the ${options.memoryMb} MB of memory an import may use to read; split the export into smaller files`) : err);
    });
    worker.on("exit", (code) => stop(slot, new Error(`the import thread exited (${code}) before it answered`)));
    worker.unref();
    slots.push(slot);
    return slot;
  };

  return {
    parse(accountId, bytes, fileName, parseOptions) {
      if (closed) return Promise.reject(new Error("the import parser is closed"));
      return new Promise<ParsedImport>((resolve, reject) => {
        waiting.push({ accountId, bytes, fileName, options: parseOptions, resolve, reject });
        dispatch();
      });
    },
    decode: (raw, start, end) => lane.decode(raw, start, end),
    async close() {
      closed = true;
      await lane.close();
      for (const job of waiting.splice(0)) job.reject(new Error("the import parser is closed"));
      await Promise.all(
        [...slots].map(async (slot) => {
          stop(slot, new Error("the import parser is closed"));
          await slot.worker.terminate();
        }),
      );
    },
  };
}
