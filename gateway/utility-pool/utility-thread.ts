// A thread (or child process) of the gateway's utility pool: runs one offline utility at a time on
// input the gateway already validated. The pool stops a host that overruns its time or memory by
// killing it, so nothing here needs to be interruptible.
import { parentPort } from "node:worker_threads";
import { UtilityError, runValidated, seededPorts, utilityById } from "../../utilities/index.ts";

export interface UtilityTask {
  readonly id: number;
  readonly utility: string;
  readonly input: Record<string, unknown>;
  readonly nowMs: number;
  readonly seed: Uint8Array;
}

export type UtilityReply =
  | { readonly id: number; readonly output: unknown }
  | { readonly id: number; readonly error: { readonly code: "bad_param" | "tool_failed"; readonly message: string; readonly field?: string } }
  | { readonly id: number; readonly fault: string };

interface Channel {
  on(event: "message", listener: (task: UtilityTask) => void): unknown;
  postMessage(message: unknown): void;
}

/** The pool's end: the thread's port, or a child process's IPC channel. */
function channel(): Channel | null {
  if (parentPort) return parentPort;
  const send = process.send?.bind(process);
  if (!send) return null;
  // The gateway is gone: nothing will ask again.
  process.once("disconnect", () => process.exit(0));
  return { on: (event, listener) => process.on(event, listener), postMessage: (message) => void send(message, undefined, undefined, () => undefined) };
}

const port = channel();
if (port) {
  port.on("message", (task: UtilityTask) => {
    const utility = utilityById(task.utility);
    const reply = (r: UtilityReply) => port.postMessage(r);
    if (!utility) {
      reply({ id: task.id, fault: `no utility ${task.utility}` });
      return;
    }
    runValidated(utility, task.input, seededPorts(task.nowMs, task.seed)).then(
      (output) => reply({ id: task.id, output }),
      (err: unknown) => {
        if (err instanceof UtilityError) reply({ id: task.id, error: { code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}) } });
        // An unexpected throw of a library is still the input's doing (nothing here is stateful): say so without a stack.
        else reply({ id: task.id, error: { code: "tool_failed", message: `the utility could not process this input: ${(err as Error).message ?? String(err)}`.slice(0, 500) } });
      },
    );
  });
  port.postMessage("loaded");
}
