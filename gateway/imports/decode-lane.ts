import type { Worker } from "node:worker_threads";
import type { DecodeReply, DecodeRequest } from "./import-messages.ts";

// The long base64 string of a large upload (a 62 MB JSON body) is decoded by a thread of its own,
// not on the serving thread (where it took seconds: the string, JSON.parse's copy, validation's
// walk over it, the decode, the hash) and not by a parse thread (where it would wait behind
// another account's minutes-long parse). A decode is bounded work (one body, at most the route's
// limit), so one thread taking them in turn keeps every account's wait within a few of them.

/** The longest a decode may take: a 64 MB body decodes in well under a second. */
const DECODE_DEADLINE_MS = 60_000;
/** How long an idle decode thread is kept. */
const IDLE_MS = 30_000;

export interface DecodeLane {
  /** The bytes of the base64 text raw[start, end), decoded in raw's memory (which moves to the thread and back: the caller gives raw up); null when the text is not base64. */
  decode(raw: Buffer, start: number, end: number): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

interface Job {
  readonly raw: Buffer;
  readonly start: number;
  readonly end: number;
  readonly resolve: (bytes: Uint8Array | null) => void;
  readonly reject: (err: Error) => void;
}

/** One thread, started on the first decode; spawn() makes it (the import thread's script). */
export function createDecodeLane(spawn: () => Worker): DecodeLane {
  const waiting: Job[] = [];
  let worker: Worker | null = null;
  let running: Job | null = null;
  let deadline: NodeJS.Timeout | null = null;
  let idle: NodeJS.Timeout | null = null;
  let closed = false;

  const settle = (fail: Error | null, bytes?: Uint8Array | null) => {
    const job = running;
    running = null;
    if (deadline) clearTimeout(deadline);
    deadline = null;
    if (job) {
      if (fail) job.reject(fail);
      else job.resolve(bytes ?? null);
    }
    worker?.unref();
    next();
  };

  const stop = (why: Error) => {
    const gone = worker;
    worker = null;
    if (idle) clearTimeout(idle);
    idle = null;
    if (gone) void gone.terminate();
    settle(why);
  };

  const start = (): Worker => {
    const w = spawn();
    w.on("message", (msg: DecodeReply) => {
      if ("decoded" in msg) settle(null, new Uint8Array(msg.decoded.bytes, msg.decoded.byteOffset, msg.decoded.byteLength));
      else if ("refused" in msg) settle(null, null);
      else settle(new Error(`decode thread: ${msg.fault}`));
    });
    w.on("error", (err) => stop(err));
    w.on("exit", (code) => {
      if (worker === w) stop(new Error(`the decode thread exited (${code}) before it answered`));
    });
    return w;
  };

  const next = () => {
    if (running || closed) return;
    const job = waiting.shift();
    if (!job) {
      if (worker && !idle) idle = setTimeout(() => stop(new Error("idle")), IDLE_MS).unref();
      return;
    }
    if (idle) clearTimeout(idle);
    idle = null;
    worker ??= start();
    worker.ref();
    running = job;
    deadline = setTimeout(() => stop(new Error(`decoding an upload took longer than ${DECODE_DEADLINE_MS / 1000} s`)), DECODE_DEADLINE_MS);
    // Only memory of its own moves (a Buffer of Node's shared pool is copied; bodies this large never are).
    const own = job.raw.byteOffset === 0 && job.raw.buffer.byteLength === job.raw.length && job.raw.buffer instanceof ArrayBuffer ? job.raw : Buffer.from(job.raw);
    const req: DecodeRequest = { decode: { bytes: own.buffer as ArrayBuffer, start: job.start, end: job.end } };
    worker.postMessage(req, [req.decode.bytes]);
  };

  return {
    decode(raw, start, end) {
      if (closed) return Promise.reject(new Error("the decode lane is closed"));
      return new Promise((resolve, reject) => {
        waiting.push({ raw, start, end, resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new Error("the decode lane is closed"));
      const w = worker;
      stop(new Error("the decode lane is closed"));
      if (w) await w.terminate();
    },
  };
}
