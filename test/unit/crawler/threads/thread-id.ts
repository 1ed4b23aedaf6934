// A stand-in parse thread speaking the pool's protocol: it answers every task with its thread id,
// so that a test can tell which thread ran a task.
import { parentPort, threadId } from "node:worker_threads";

const port = parentPort;
if (port) {
  // A crawl's analysis answers with findings too, as the pool reads them.
  port.on("message", (task: { id: number; kind: string }) => port.postMessage({ id: task.id, result: task.kind === "crawl" ? { threadId, findings: {} } : { threadId } }));
  port.postMessage("loaded");
}
