// A stand-in utility thread (or child process) speaking the pool's protocol: "hog" runs out of heap
// for real (the pool gives it a small one), "native" holds memory outside the V8 heap as libvips
// does (Buffers), "spin" never returns, "bytes" answers what it received in input.file, "wait"
// answers after input.ms, "keep" keeps input.mb MB (filled, so resident) for good and answers its
// process id, anything else answers its own id.
import { parentPort } from "node:worker_threads";

interface Task {
  id: number;
  utility: string;
  input: { file?: Uint8Array; ms?: number; mb?: number };
}

const kept: Buffer[] = [];

const send = parentPort ? (m: unknown) => parentPort?.postMessage(m) : (m: unknown) => void process.send?.(m);
const onTask = (task: Task) => {
  if (task.utility === "bytes") {
    const file = task.input.file ?? new Uint8Array(0);
    send({ id: task.id, output: { length: file.length, sum: file.reduce((n, b) => n + b, 0) } });
    return;
  }
  if (task.utility === "hog") {
    const hoard: string[][] = [];
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${hoard.length}`));
  }
  if (task.utility === "native") {
    const hoard: Buffer[] = [];
    const grow = () => {
      hoard.push(Buffer.alloc(16 * 1024 * 1024, hoard.length));
      setTimeout(grow, 5);
    };
    grow();
    return;
  }
  if (task.utility === "spin") for (;;);
  if (task.utility === "keep") {
    for (let i = 0; i < (task.input.mb ?? 0); i++) kept.push(Buffer.alloc(1024 * 1024, i + 1));
    send({ id: task.id, output: { pid: process.pid } });
    return;
  }
  if (task.utility === "wait") {
    setTimeout(() => send({ id: task.id, output: { ran: "wait" } }), task.input.ms ?? 0);
    return;
  }
  send({ id: task.id, output: { ran: task.utility } });
};
if (parentPort) parentPort.on("message", onTask);
else {
  process.on("message", onTask);
  process.once("disconnect", () => process.exit(0));
}
send("loaded");
