import { DnsFacts, DnsTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/** A live DNS lookup: the facts are the job's result (GET /dns/{host} reads them). */
export const dnsKind: SchedulerKind<"dns"> = {
  name: "dns",
  lanes: ["sync"],
  cost: 1,
  hostOf: (target) => target,
  task: async (_ctx, job) => DnsTask.fromPartial({ host: job.target ?? job.host }),
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: DnsFacts.toJSON(result.facts ?? DnsFacts.fromPartial({})) }),
};
