import { UtilityResult, UtilityTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/**
 * The job row's host of every network-utility run: the utility's targets are part of its input,
 * which is not stored (docs/utilities.md), so the row names no site.
 */
export const UTILITY_JOB_HOST = "utilities.invalid";

/**
 * A network utility run on a crawler node (POST /utilities/{id} of a net: true utility). The task
 * (the input among it) lives in the job row only until the run ends: settle and a final failure
 * clear it, and the answer takes the output out of the row as it hands it to the caller. It costs
 * no checks of the plan: the gateway charges the key's hourly limit of network utilities instead.
 */
export const utilityKind: SchedulerKind<"utility"> = {
  name: "utility",
  cost: 0,
  // The row's target is the task in the proto's JSON form, held while the run lasts.
  place: (task) => ({ host: UTILITY_JOB_HOST, target: JSON.stringify(UtilityTask.toJSON(task)) }),
  // Runs do not queue behind one another: each is its own key on the bus.
  busKey: (job) => `utility:${job.id}`,
  task: async (_ctx, job) => {
    if (!job.target) throw new Error("a utility job without its run");
    return UtilityTask.fromJSON(JSON.parse(job.target));
  },
  settle: async (ctx, q, job, result) => {
    await ctx.store.jobs.forgetTarget(q, job.id);
    return { runId: null, result: UtilityResult.toJSON(result) };
  },
  answer: (doc) => UtilityResult.fromJSON(doc),
  answerOnce: true,
  failed: async (ctx, q, job) => {
    await ctx.store.jobs.forgetTarget(q, job.id);
  },
};
