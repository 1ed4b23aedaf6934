import { PageFacts, PageResult, PageTask } from "../../proto/index.ts";
import { defineKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

/** One page's checks: the facts are the job's result (GET /full, GET /check/{tool} read them). */
export const pageKind = defineKind({
  name: "page",
  uses: [],
  cost: 1,
  hostOf: (task) => new URL(task.url).host,
  // The older form: the page's URL.
  task: async (_ctx, _repos, job) => taskOfRow(job, "page", (target) => PageTask.fromPartial({ url: target ?? `https://${job.host}/` })),
  settle: async (_ctx, _t, _job, result) => ({ runId: null, result: PageFacts.toJSON(result.facts ?? PageFacts.fromPartial({})) }),
  answer: (doc) => PageResult.fromPartial({ facts: PageFacts.fromJSON(doc) }),
});
