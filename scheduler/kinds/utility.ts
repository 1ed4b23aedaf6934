import { UtilityResult, UtilityTask } from "../../proto/index.ts";
import { defineKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

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
export const utilityKind = defineKind({
  name: "utility",
  uses: ["jobs"],
  cost: 0,
  hostOf: () => UTILITY_JOB_HOST,
  // Runs do not queue behind one another: each is its own key on the bus.
  busKey: (job) => `utility:${job.id}`,
  // The older form: the task in the proto's JSON form. Either form is gone once the run ended.
  task: async (_ctx, _repos, job) =>
    taskOfRow(job, "utility", (target) => {
      if (!target) throw new Error("a utility job without its run");
      return UtilityTask.fromJSON(JSON.parse(target));
    }),
  settle: async (_ctx, t, job, result) => {
    await t.jobs.forgetTask(job.id);
    return { runId: null, result: UtilityResult.toJSON(result) };
  },
  answer: (doc) => UtilityResult.fromJSON(doc),
  answerOnce: true,
  failed: async (_ctx, t, job) => {
    await t.jobs.forgetTask(job.id);
  },
});
