import { RecheckResult, RecheckTask, SiteFacts } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/**
 * A task re-check's narrow look that no single-check kind takes (robots.txt with its sitemaps, the
 * few pages a page check failed on): the facts are the job's result, which the gateway judges. The
 * gateway starts it uncharged (a re-check counts against rechecks_per_day); a charged start would
 * cost one check.
 */
export const recheckKind: SchedulerKind<"recheck"> = {
  name: "recheck",
  cost: 1,
  // The row's target is the task in the proto's JSON form.
  place: (task) => ({ host: new URL(task.origin).host, target: JSON.stringify(RecheckTask.toJSON(task)) }),
  task: async (_ctx, job) => {
    if (!job.target) throw new Error("a re-check job without its look");
    return RecheckTask.fromJSON(JSON.parse(job.target));
  },
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: SiteFacts.toJSON(result.facts ?? SiteFacts.fromPartial({})) }),
  answer: (doc) => RecheckResult.fromPartial({ facts: SiteFacts.fromJSON(doc) }),
};
