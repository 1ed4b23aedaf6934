import { DnsFacts, DnsResult, DnsTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

/** A live DNS lookup: the facts are the job's result (GET /dns/{host} reads them). */
export const dnsKind: SchedulerKind<"dns"> = {
  name: "dns",
  cost: 1,
  hostOf: (task) => task.host,
  // The older form: none, the host is the job's.
  task: async (_ctx, job) => taskOfRow(job, "dns", () => DnsTask.fromPartial({ host: job.host })),
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: DnsFacts.toJSON(result.facts ?? DnsFacts.fromPartial({})) }),
  answer: (doc) => DnsResult.fromPartial({ facts: DnsFacts.fromJSON(doc) }),
};
