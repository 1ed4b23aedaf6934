// A stand-in parse thread speaking the pool's protocol: it answers every page with its URL, except
// a page whose URL contains "oom", which it runs out of memory on for real (the pool gives it a
// small heap).
import { parentPort } from "node:worker_threads";

const port = parentPort;
if (port) {
  port.on("message", (task: { id: number; input: { url: string } }) => {
    if (task.input.url.includes("oom")) {
      const hoard: string[][] = [];
      for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${hoard.length}`));
    }
    // A little work, so that tasks queue up behind one another.
    const until = Date.now() + 2;
    while (Date.now() < until);
    port.postMessage({ id: task.id, result: { url: task.input.url } });
  });
  port.postMessage("loaded");
}
