import { PageFacts, PageResult, PageTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/** One page's checks: the facts are the job's result (GET /full, GET /check/{tool} read them). */
export const pageKind: SchedulerKind<"page"> = {
  name: "page",
  cost: 1,
  place: (task) => ({ host: new URL(task.url).host, target: task.url }),
  task: async (_ctx, job) => PageTask.fromPartial({ url: job.target ?? `https://${job.host}/` }),
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: PageFacts.toJSON(result.facts ?? PageFacts.fromPartial({})) }),
  answer: (doc) => PageResult.fromPartial({ facts: PageFacts.fromJSON(doc) }),
};
