import { DnsFacts, DnsResult, DnsTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/** A live DNS lookup: the facts are the job's result (GET /dns/{host} reads them). */
export const dnsKind: SchedulerKind<"dns"> = {
  name: "dns",
  cost: 1,
  place: (task) => ({ host: task.host, target: null }),
  task: async (_ctx, job) => DnsTask.fromPartial({ host: job.host }),
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: DnsFacts.toJSON(result.facts ?? DnsFacts.fromPartial({})) }),
  answer: (doc) => DnsResult.fromPartial({ facts: DnsFacts.fromJSON(doc) }),
};
