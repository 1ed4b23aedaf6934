import { TlsFacts, TlsResult, TlsTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";
import { taskOfRow } from "./stored-task.ts";

/** A live TLS handshake: the facts are the job's result (GET /ssl/{host} reads them). */
export const tlsKind: SchedulerKind<"tls"> = {
  name: "tls",
  cost: 1,
  hostOf: (task) => task.host,
  // The older form: none, the host is the job's.
  task: async (_ctx, job) => taskOfRow(job, "tls", () => TlsTask.fromPartial({ host: job.host })),
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: TlsFacts.toJSON(result.facts ?? TlsFacts.fromPartial({})) }),
  answer: (doc) => TlsResult.fromPartial({ facts: TlsFacts.fromJSON(doc) }),
};
