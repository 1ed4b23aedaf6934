// A stand-in utility thread speaking the pool's protocol: "hog" runs out of memory for real (the
// pool gives it a small heap), "spin" never returns, "bytes" answers what it received in input.file,
// anything else answers its own id.
import { parentPort } from "node:worker_threads";

const port = parentPort;
if (port) {
  port.on("message", (task: { id: number; utility: string; input: { file?: Uint8Array } }) => {
    if (task.utility === "bytes") {
      const file = task.input.file ?? new Uint8Array(0);
      port.postMessage({ id: task.id, output: { length: file.length, sum: file.reduce((n, b) => n + b, 0) } });
      return;
    }
    if (task.utility === "hog") {
      const hoard: string[][] = [];
      for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${hoard.length}`));
    }
    if (task.utility === "spin") for (;;);
    port.postMessage({ id: task.id, output: { ran: task.utility } });
  });
  port.postMessage("loaded");
}
