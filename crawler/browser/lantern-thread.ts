// The thread Lantern runs on (lantern-runner.ts): a page's trace arrives as the JSON batches the
// browser reported, is parsed and simulated here, so that the crawler's event loop (fetches, probe
// timings, the scheduler's stream) never waits the 60-350 ms a simulation takes.
import { parentPort } from "node:worker_threads";
import { simulateMetrics, type SimulatedMetrics, type TraceEvent } from "./lantern.ts";
import type { Throttling } from "./profiles.ts";

/** One page's simulation: its trace as JSON arrays of events, and the profile's throttling. */
export interface LanternCall {
  readonly seq: number;
  readonly batches: readonly string[];
  readonly throttling: Throttling;
}

export type LanternReply = { readonly seq: number; readonly metrics: SimulatedMetrics } | { readonly seq: number; readonly error: string };

const port = parentPort;
if (port) {
  port.on("message", (call: LanternCall) => {
    void (async (): Promise<LanternReply> => {
      try {
        const events: TraceEvent[] = [];
        for (const batch of call.batches) for (const e of JSON.parse(batch) as TraceEvent[]) events.push(e);
        return { seq: call.seq, metrics: await simulateMetrics(events, call.throttling) };
      } catch (err) {
        return { seq: call.seq, error: (err as Error).message };
      }
    })().then((reply) => port.postMessage(reply));
  });
}
