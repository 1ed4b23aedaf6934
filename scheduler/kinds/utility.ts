import { UtilityTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/**
 * The job row's host of every network-utility run: the utility's targets are part of its input,
 * which is not stored (docs/utilities.md), so the row names no site.
 */
export const UTILITY_JOB_HOST = "utilities.invalid";

/** What the gateway sends as a utility job's target: the run, as JSON (held only while it runs). */
export interface UtilityTarget {
  readonly utility: string;
  readonly input: Record<string, unknown>;
  readonly now_ms: number;
  /** The run's seed, base64. */
  readonly seed: string;
}

function parseTarget(target: string | null): UtilityTarget {
  const parsed = JSON.parse(target ?? "null") as UtilityTarget | null;
  if (!parsed || typeof parsed.utility !== "string" || typeof parsed.input !== "object") throw new Error("a utility job without its run");
  return parsed;
}

/**
 * A network utility run on a crawler node (POST /utilities/{id} of a net: true utility). The
 * input lives in the job row only until the run ends: settle and a final failure clear it, and the
 * gateway takes the output out of the row when it answers. It costs no checks of the plan: the
 * gateway charges the key's hourly limit of network utilities instead.
 */
export const utilityKind: SchedulerKind<"utility"> = {
  name: "utility",
  lanes: ["sync"],
  cost: 0,
  hostOf: () => UTILITY_JOB_HOST,
  // Runs do not queue behind one another: each is its own key on the bus.
  busKey: (job) => `utility:${job.id}`,
  task: async (_ctx, job) => {
    const t = parseTarget(job.target);
    return UtilityTask.fromPartial({ utility: t.utility, inputJson: JSON.stringify(t.input), nowMs: t.now_ms, seed: Buffer.from(t.seed, "base64") });
  },
  settle: async (ctx, q, job, result) => {
    await ctx.store.jobs.forgetTarget(q, job.id);
    return {
      runId: null,
      result: result.failed ? { failed: result.failed, message: result.failedMessage, field: result.failedField } : { output_json: result.outputJson },
    };
  },
  failed: async (ctx, q, job) => {
    await ctx.store.jobs.forgetTarget(q, job.id);
  },
};
