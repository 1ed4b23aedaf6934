import { DnsFacts, DnsResult, DnsTask } from "../../proto/index.ts";
import { defineKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

/** A live DNS lookup: the facts are the job's result (GET /dns/{host} reads them). */
export const dnsKind = defineKind({
  name: "dns",
  uses: [],
  cost: 1,
  hostOf: (task) => task.host,
  // The older form: none, the host is the job's.
  task: async (_ctx, _repos, job) => taskOfRow(job, "dns", () => DnsTask.fromPartial({ host: job.host })),
  settle: async (_ctx, _t, _job, result) => ({ runId: null, result: DnsFacts.toJSON(result.facts ?? DnsFacts.fromPartial({})) }),
  answer: (doc) => DnsResult.fromPartial({ facts: DnsFacts.fromJSON(doc) }),
});
