import { TlsFacts, TlsResult, TlsTask } from "../../proto/index.ts";
import type { SchedulerKind } from "./kind.ts";

/** A live TLS handshake: the facts are the job's result (GET /ssl/{host} reads them). */
export const tlsKind: SchedulerKind<"tls"> = {
  name: "tls",
  cost: 1,
  place: (task) => ({ host: task.host, target: null }),
  task: async (_ctx, job) => TlsTask.fromPartial({ host: job.host }),
  settle: async (_ctx, _q, _job, result) => ({ runId: null, result: TlsFacts.toJSON(result.facts ?? TlsFacts.fromPartial({})) }),
  answer: (doc) => TlsResult.fromPartial({ facts: TlsFacts.fromJSON(doc) }),
};
