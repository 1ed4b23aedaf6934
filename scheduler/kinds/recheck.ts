import { RecheckResult, RecheckTask, SiteFacts } from "../../proto/index.ts";
import { defineKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

/**
 * A task re-check's narrow look that no single-check kind takes (robots.txt with its sitemaps, the
 * few pages a page check failed on): the facts are the job's result, which the gateway judges. The
 * gateway starts it uncharged (a re-check counts against rechecks_per_day); a charged start would
 * cost one check.
 */
export const recheckKind = defineKind({
  name: "recheck",
  uses: [],
  cost: 1,
  hostOf: (task) => new URL(task.origin).host,
  // The older form: the task in the proto's JSON form.
  task: async (_ctx, _repos, job) =>
    taskOfRow(job, "recheck", (target) => {
      if (!target) throw new Error("a re-check job without its look");
      return RecheckTask.fromJSON(JSON.parse(target));
    }),
  settle: async (_ctx, _t, _job, result) => ({ runId: null, result: SiteFacts.toJSON(result.facts ?? SiteFacts.fromPartial({})) }),
  answer: (doc) => RecheckResult.fromPartial({ facts: SiteFacts.fromJSON(doc) }),
});
